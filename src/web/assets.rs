//! The spectator page's files, built into the binary (the hall's Wi-Fi has no internet:
//! no CDN, no web font, nothing fetched from elsewhere).

/// A file served as it is.
pub(crate) struct Asset {
    pub bytes: &'static [u8],
    pub mime: &'static str,
    pub cache: &'static str,
}

const PAGE: &str = "no-cache";
const PIECE: &str = "public, max-age=86400";

macro_rules! piece {
    ($name:literal) => {
        (
            concat!("/pieces/", $name, ".svg"),
            Asset {
                bytes: include_bytes!(concat!("../../assets/pieces/svg/", $name, ".svg")),
                mime: "image/svg+xml",
                cache: PIECE,
            },
        )
    };
}

static FILES: [(&str, Asset); 16] = [
    (
        "/",
        Asset {
            bytes: include_bytes!("page/index.html"),
            mime: "text/html; charset=utf-8",
            cache: PAGE,
        },
    ),
    (
        "/app.js",
        Asset {
            bytes: include_bytes!("page/app.js"),
            mime: "text/javascript; charset=utf-8",
            cache: PAGE,
        },
    ),
    (
        "/style.css",
        Asset {
            bytes: include_bytes!("page/style.css"),
            mime: "text/css; charset=utf-8",
            cache: PAGE,
        },
    ),
    (
        "/favicon.svg",
        Asset {
            bytes: include_bytes!("../../assets/pieces/svg/wn.svg"),
            mime: "image/svg+xml",
            cache: PIECE,
        },
    ),
    piece!("wp"),
    piece!("wn"),
    piece!("wb"),
    piece!("wr"),
    piece!("wq"),
    piece!("wk"),
    piece!("bp"),
    piece!("bn"),
    piece!("bb"),
    piece!("br"),
    piece!("bq"),
    piece!("bk"),
];

/// The file at `path`, if it is one of the page's (`/index.html` is `/`).
pub(crate) fn get(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    FILES.iter().find(|(p, _)| *p == path).map(|(_, a)| a)
}
