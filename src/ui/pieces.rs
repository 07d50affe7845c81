//! The piece images (Colin M. L. Burnett's set, see `assets/pieces/LICENSE.md`), built
//! into the binary as PNG and uploaded as textures at a few sizes: wgpu gives egui no
//! mipmaps, and a 256-pixel piece drawn 40 pixels wide would shimmer. When the images
//! cannot be decoded the board falls back to letters.

use egui::{Color32, ColorImage, Context, FontId, Painter, Rect, TextureHandle, TextureOptions};
use shakmaty::{Color, Piece, Role};

const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// PNG bytes in the order white P N B R Q K, black P N B R Q K.
const PNG: [&[u8]; 12] = [
    include_bytes!("../../assets/pieces/wp.png"),
    include_bytes!("../../assets/pieces/wn.png"),
    include_bytes!("../../assets/pieces/wb.png"),
    include_bytes!("../../assets/pieces/wr.png"),
    include_bytes!("../../assets/pieces/wq.png"),
    include_bytes!("../../assets/pieces/wk.png"),
    include_bytes!("../../assets/pieces/bp.png"),
    include_bytes!("../../assets/pieces/bn.png"),
    include_bytes!("../../assets/pieces/bb.png"),
    include_bytes!("../../assets/pieces/br.png"),
    include_bytes!("../../assets/pieces/bq.png"),
    include_bytes!("../../assets/pieces/bk.png"),
];

/// Texture sizes in pixels, largest first; each level halves the one before.
const LEVELS: [u32; 4] = [256, 128, 64, 32];

fn index(piece: Piece) -> usize {
    let role = ROLES.iter().position(|&r| r == piece.role).unwrap_or(0);
    role + if piece.color == Color::White { 0 } else { 6 }
}

/// The piece textures at every level.
pub struct PieceSet {
    /// `levels[i][piece]`, sizes as in `LEVELS`.
    levels: Vec<Vec<TextureHandle>>,
}

impl PieceSet {
    /// Decodes the built-in images and uploads them; `None` if any image is unreadable.
    #[must_use]
    pub fn load(ctx: &Context) -> Option<PieceSet> {
        let mut sources = Vec::with_capacity(PNG.len());
        for bytes in PNG {
            let img = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
                .ok()?
                .to_rgba8();
            sources.push(img);
        }
        let mut levels = Vec::with_capacity(LEVELS.len());
        for &size in &LEVELS {
            let mut level = Vec::with_capacity(sources.len());
            for (i, src) in sources.iter().enumerate() {
                let img = if src.width() == size {
                    src.clone()
                } else {
                    image::imageops::resize(src, size, size, image::imageops::FilterType::Triangle)
                };
                let color = ColorImage::from_rgba_unmultiplied(
                    [img.width() as usize, img.height() as usize],
                    img.as_raw(),
                );
                level.push(ctx.load_texture(
                    format!("piece-{i}-{size}"),
                    color,
                    TextureOptions::LINEAR,
                ));
            }
            levels.push(level);
        }
        Some(PieceSet { levels })
    }

    /// The texture to draw `piece` at `pixels` wide: the smallest level at least that big.
    #[must_use]
    pub fn texture(&self, piece: Piece, pixels: f32) -> Option<&TextureHandle> {
        let level = LEVELS
            .iter()
            .rposition(|&s| s as f32 >= pixels * 0.95)
            .unwrap_or(0);
        self.levels.get(level)?.get(index(piece))
    }
}

/// Draws a piece filling `rect` (a square), with the images or, failing them, a letter.
pub fn paint_piece(painter: &Painter, rect: Rect, piece: Piece, set: Option<&PieceSet>) {
    let pixels = rect.width() * painter.pixels_per_point();
    if let Some(tex) = set.and_then(|s| s.texture(piece, pixels)) {
        let uv = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
        painter.image(tex.id(), rect, uv, Color32::WHITE);
        return;
    }
    let (fill, ink) = match piece.color {
        Color::White => (Color32::WHITE, Color32::BLACK),
        Color::Black => (Color32::from_gray(30), Color32::WHITE),
    };
    let r = rect.width() * 0.38;
    painter.circle_filled(rect.center(), r, fill);
    painter.circle_stroke(rect.center(), r, (1.5, Color32::BLACK));
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        piece.role.upper_char(),
        FontId::proportional(rect.width() * 0.45),
        ink,
    );
}
