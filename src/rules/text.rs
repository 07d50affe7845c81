//! Chess names as text in serde formats (journals, station files, feeds): a colour as
//! `White`/`Black`, a piece kind as its letter (`Q`), a square as `e4`. Typed in Rust,
//! readable on disk, and the same text the journals have always had.

/// `Color` as `White`/`Black`.
pub mod color {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::Color;

    #[derive(Serialize, Deserialize)]
    enum Name {
        White,
        Black,
    }

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Color::White => Name::White,
            Color::Black => Name::Black,
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        Ok(match Name::deserialize(d)? {
            Name::White => Color::White,
            Name::Black => Color::Black,
        })
    }
}

/// `Role` as its upper-case letter (`Q`, `N`, ...; a lower-case letter is read too).
pub mod role {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Role;

    pub fn serialize<S: Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(r.upper_char())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let c = char::deserialize(d)?;
        Role::from_char(c.to_ascii_lowercase())
            .ok_or_else(|| D::Error::custom(format!("`{c}` is no piece (K, Q, R, B, N, P)")))
    }
}

/// `Vec<Role>` as `["P", "Q"]`.
pub mod roles {
    use serde::ser::SerializeSeq as _;
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Role;

    #[derive(serde::Deserialize)]
    struct Wrap(#[serde(with = "super::role")] Role);

    pub fn serialize<S: Serializer>(v: &[Role], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for r in v {
            seq.serialize_element(&r.upper_char())?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Role>, D::Error> {
        Ok(Vec::<Wrap>::deserialize(d)?
            .into_iter()
            .map(|w| w.0)
            .collect())
    }
}

/// `Square` as `e4`.
pub mod square {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    pub fn serialize<S: Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(sq)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("`{text}` is no square (a1 to h8)")))
    }
}

/// `Option<Square>` as `e4` or nothing.
pub mod square_opt {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    pub fn serialize<S: Serializer>(sq: &Option<Square>, s: S) -> Result<S::Ok, S::Error> {
        match sq {
            Some(sq) => s.collect_str(sq),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Square>, D::Error> {
        #[derive(serde::Deserialize)]
        struct Wrap(#[serde(with = "super::square")] Square);
        Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
    }
}

/// `Vec<Square>` as `["e4", "d5"]`.
pub mod squares {
    use serde::ser::SerializeSeq as _;
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Square;

    #[derive(serde::Deserialize)]
    struct Wrap(#[serde(with = "super::square")] Square);

    pub fn serialize<S: Serializer>(v: &[Square], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(v.len()))?;
        for sq in v {
            seq.serialize_element(&sq.to_string())?;
        }
        seq.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Square>, D::Error> {
        Ok(Vec::<Wrap>::deserialize(d)?
            .into_iter()
            .map(|w| w.0)
            .collect())
    }
}
