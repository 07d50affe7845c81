//! What spectators may see: the one filter that the projector and the web page both read.
//!
//! The rule texts forbid anyone but the players to point at an illegal move or a fallen
//! flag, so the hall sees no alert, no sensor detail, no flag, and no illegal move marked
//! (not even by its long-form spelling) before the TD rules on it. What remains is the
//! match as it stands: both positions (promoted pawns marked), reserves, clocks, the moves
//! in a spelling that gives nothing away, names, and the result.
//!
//! A spectator view is small and shares its move list with the view before it, so the
//! broadcast delay can keep minutes of them.

use std::sync::Arc;

use serde::Serialize;
use shakmaty::{Color, Piece, Square};

use super::view::{BoardView, MatchView, PlyView, ResultView};
use crate::rules::{Reserve, Seat, Team, TimeControl};
use crate::{BoardId, Millis};

/// The match as the hall may see it at one moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpectatorView {
    /// Match time of the moment shown.
    pub t_ms: Millis,
    pub rules_name: String,
    pub rules_title: String,
    pub bughouse: bool,
    pub time_control: TimeControl,
    /// Players by seat: WhiteA, BlackA, WhiteB, BlackB.
    pub players: [String; 4],
    pub boards: Vec<PublicBoard>,
    /// Every ply in real-time order, spelled as spectators may see it. Shared with the
    /// views before it while it does not change.
    pub record: Arc<[PublicPly]>,
    pub result: Option<PublicResult>,
    /// Play is stopped on both boards (the TD, or a player with a clock's button): the
    /// hall sees that it is, not why.
    pub paused: bool,
}

/// One board as the hall sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicBoard {
    pub id: BoardId,
    /// The pieces as the record has them (a1 first); `None` on empty squares.
    #[serde(serialize_with = "pieces_as_fen")]
    pub pieces: [Option<PublicPiece>; 64],
    pub white_reserve: PublicReserve,
    pub black_reserve: PublicReserve,
    #[serde(with = "crate::rules::text::color")]
    pub turn: Color,
    /// From (none for a drop) and to of the last ply on this board.
    #[serde(serialize_with = "last_move")]
    pub last_move: Option<(Option<Square>, Square)>,
    /// The king in check, if any.
    #[serde(with = "crate::rules::text::square_opt")]
    pub check: Option<Square>,
    /// The pieces are set up and play has begun.
    pub started: bool,
    pub clock: PublicClock,
}

/// A piece on the board: the logical piece, and whether it is a promoted pawn (the hall
/// sees a pawn standing for a queen as the queen it is, marked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicPiece {
    pub piece: Piece,
    pub promoted: bool,
}

/// Pieces in hand (never below zero for the hall: a drop seen before the capture that
/// feeds it is a moment's bookkeeping, not something to show).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PublicReserve {
    pub pawn: u8,
    pub knight: u8,
    pub bishop: u8,
    pub rook: u8,
    pub queen: u8,
}

impl PublicReserve {
    fn of(r: &Reserve) -> PublicReserve {
        let n = |v: i8| u8::try_from(v.max(0)).unwrap_or(0);
        PublicReserve {
            pawn: n(r.pawn),
            knight: n(r.knight),
            bishop: n(r.bishop),
            rook: n(r.rook),
            queen: n(r.queen),
        }
    }

    /// Pieces in hand by kind, in the order a reserve is shown (queen first).
    #[must_use]
    pub fn entries(&self) -> [(shakmaty::Role, u8); 5] {
        use shakmaty::Role;
        [
            (Role::Queen, self.queen),
            (Role::Rook, self.rook),
            (Role::Bishop, self.bishop),
            (Role::Knight, self.knight),
            (Role::Pawn, self.pawn),
        ]
    }
}

impl From<PublicReserve> for Reserve {
    fn from(r: PublicReserve) -> Reserve {
        let n = |v: u8| i8::try_from(v).unwrap_or(i8::MAX);
        Reserve {
            pawn: n(r.pawn),
            knight: n(r.knight),
            bishop: n(r.bishop),
            rook: n(r.rook),
            queen: n(r.queen),
        }
    }
}

/// Both clocks of a board as last read: never a flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PublicClock {
    pub present: bool,
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    #[serde(serialize_with = "color_opt")]
    pub running: Option<Color>,
    /// Match time of the reading (the running side counts down from here).
    pub at_ms: Millis,
}

impl PublicClock {
    /// Remaining ms for `color` at match time `now`, counting the running side down (a
    /// clock at zero reads zero, like any other reading).
    #[must_use]
    pub fn remaining(&self, color: Color, now: Millis) -> Option<u64> {
        super::view::counted_down(
            [self.white_ms, self.black_ms],
            self.running,
            self.at_ms,
            color,
            now,
        )
    }
}

/// One ply as the hall may read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PublicPly {
    pub board: BoardId,
    /// Full-move number on its board.
    pub number: u32,
    #[serde(with = "crate::rules::text::color")]
    pub color: Color,
    /// SAN; an illegal move not yet ruled on (and what follows it on its board) is spelled
    /// as a legal move would be.
    pub san: String,
    /// The mover's clock after the move, as the clock showed it.
    pub clock_ms: Option<u64>,
    pub t_ms: Option<Millis>,
    #[serde(with = "crate::rules::text::square_opt")]
    pub from: Option<Square>,
    #[serde(with = "crate::rules::text::square")]
    pub to: Square,
}

/// The end of the match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PublicResult {
    pub text: String,
    pub winner: Option<Team>,
    /// Points for team WhiteA and team BlackA.
    pub score: [f32; 2],
    /// Team-relative: `1-0` = team WhiteA won.
    pub token: &'static str,
}

impl SpectatorView {
    /// What the hall may see of `view`. The move list is taken from `before` when it has
    /// not changed (views in a row share it).
    #[must_use]
    pub fn of(view: &MatchView, before: Option<&SpectatorView>) -> SpectatorView {
        let record: Vec<PublicPly> = view.record.iter().map(|p| public_ply(view, p)).collect();
        let record = match before {
            Some(b) if *b.record == record[..] => b.record.clone(),
            _ => Arc::from(record),
        };
        SpectatorView {
            t_ms: view.t_ms,
            rules_name: view.rules_name.clone(),
            rules_title: view.rules_title.clone(),
            bughouse: view.bughouse,
            time_control: view.time_control,
            players: view.players.clone(),
            boards: view.boards.iter().map(public_board).collect(),
            record,
            result: view.result.as_ref().map(public_result),
            paused: view.clocks.paused.is_some(),
        }
    }

    /// The same moment shown, everything but the time of the view equal.
    #[must_use]
    pub fn same_as(&self, other: &SpectatorView) -> bool {
        self.boards == other.boards
            && self.result == other.result
            && self.paused == other.paused
            && self.players == other.players
            && Arc::ptr_eq(&self.record, &other.record)
            && self.rules_name == other.rules_name
    }

    #[must_use]
    pub fn board(&self, id: BoardId) -> Option<&PublicBoard> {
        self.boards.iter().find(|b| b.id == id)
    }

    #[must_use]
    pub fn player(&self, seat: Seat) -> &str {
        self.players.get(seat.index()).map_or("", String::as_str)
    }

    /// Plies of one board, in order.
    pub fn plies_on(&self, board: BoardId) -> impl Iterator<Item = &PublicPly> {
        self.record.iter().filter(move |p| p.board == board)
    }
}

impl PublicBoard {
    #[must_use]
    pub fn reserve(&self, color: Color) -> &PublicReserve {
        match color {
            Color::White => &self.white_reserve,
            Color::Black => &self.black_reserve,
        }
    }
}

fn public_board(b: &BoardView) -> PublicBoard {
    let mut pieces = [None; 64];
    for (slot, p) in pieces.iter_mut().zip(&b.pieces) {
        *slot = p.map(|p| PublicPiece {
            piece: p.piece,
            promoted: p.promoted,
        });
    }
    PublicBoard {
        id: b.id,
        pieces,
        white_reserve: PublicReserve::of(&b.white_reserve),
        black_reserve: PublicReserve::of(&b.black_reserve),
        turn: b.turn,
        last_move: b.last_move,
        check: b.check,
        started: b.started,
        clock: PublicClock {
            present: b.clock.present,
            white_ms: b.clock.white_ms,
            black_ms: b.clock.black_ms,
            running: b.clock.running,
            at_ms: b.clock.at_ms,
        },
    }
}

fn public_ply(view: &MatchView, p: &PlyView) -> PublicPly {
    PublicPly {
        board: p.ply.board,
        number: p.ply.number,
        color: p.ply.color,
        san: public_san(view, p),
        clock_ms: p.clock_ms,
        t_ms: p.t_ms,
        from: p.squares.0,
        to: p.squares.1,
    }
}

fn public_result(r: &ResultView) -> PublicResult {
    PublicResult {
        text: r.text.clone(),
        winner: r.winner,
        score: r.score,
        token: r.token,
    }
}

/// The move as spectators may see it. An illegal move is written in long form (`Bc1c3`),
/// and so are the moves after it on its board (the position can no longer be judged);
/// until the TD rules on it nobody may point at it, so from the illegal move on that
/// board's moves are spelled as a legal move would be (`Bc3`, `Bxc3`, `e5`).
#[must_use]
pub fn public_san(view: &MatchView, p: &PlyView) -> String {
    let hidden = view.record.iter().any(|q| {
        q.ply.board == p.ply.board
            && q.index <= p.index
            && q.illegal.is_some()
            && !view.illegal_ruled(q.ply)
    });
    if hidden {
        neutral_san(p)
    } else {
        p.san.clone()
    }
}

/// A short, unremarkable spelling of a ply from its squares: piece letter, `x` when the
/// long form shows a capture, the target square, a drop as `N@f3`.
#[must_use]
pub fn neutral_san(p: &PlyView) -> String {
    let san = p.san.trim_end_matches(['+', '#', '!', '?']);
    if san.contains('@') || san.starts_with('O') {
        return san.to_owned();
    }
    let piece = san
        .chars()
        .next()
        .filter(|c| matches!(c, 'K' | 'Q' | 'R' | 'B' | 'N'));
    let capture = san.contains('x');
    let to = p.squares.1;
    let promotion = san.find('=').map(|i| &san[i..]).unwrap_or_default();
    match (piece, capture, p.squares.0) {
        (Some(letter), true, _) => format!("{letter}x{to}{promotion}"),
        (Some(letter), false, _) => format!("{letter}{to}{promotion}"),
        (None, true, Some(from)) => format!("{}x{to}{promotion}", from.file().char()),
        (None, _, _) => format!("{to}{promotion}"),
    }
}

/// The pieces as a FEN board field (`rnbqkbnr/pppppppp/...`, rank 8 first), promoted pieces
/// followed by `~` as in crazyhouse FEN.
fn pieces_as_fen<S: serde::Serializer>(
    pieces: &[Option<PublicPiece>; 64],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match pieces[rank * 8 + file] {
                Some(p) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p.piece.char());
                    if p.promoted {
                        fen.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    s.serialize_str(&fen)
}

fn color_opt<S: serde::Serializer>(c: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(Color::White) => s.serialize_str("White"),
        Some(Color::Black) => s.serialize_str("Black"),
        None => s.serialize_none(),
    }
}

fn last_move<S: serde::Serializer>(
    m: &Option<(Option<Square>, Square)>,
    s: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct as _;
    match m {
        None => s.serialize_none(),
        Some((from, to)) => {
            let mut st = s.serialize_struct("LastMove", 2)?;
            st.serialize_field("from", &from.map(|f| f.to_string()))?;
            st.serialize_field("to", &to.to_string())?;
            st.end()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::{Arbiter, PlyRef};

    fn ply(san: &str, from: Option<Square>, to: Square) -> PlyView {
        PlyView {
            ply: PlyRef {
                board: BoardId::A,
                color: Color::White,
                number: 2,
            },
            index: 0,
            san: san.into(),
            clock_ms: None,
            t_ms: None,
            illegal: Some("the piece cannot move there".into()),
            comment: None,
            squares: (from, to),
        }
    }

    #[test]
    fn an_illegal_move_is_spelled_like_any_other() {
        assert_eq!(
            neutral_san(&ply("Bc1c3", Some(Square::C1), Square::C3)),
            "Bc3"
        );
        assert_eq!(
            neutral_san(&ply("Bc1xc3", Some(Square::C1), Square::C3)),
            "Bxc3"
        );
        assert_eq!(
            neutral_san(&ply("e2e5", Some(Square::E2), Square::E5)),
            "e5"
        );
        assert_eq!(
            neutral_san(&ply("d4xe6", Some(Square::D4), Square::E6)),
            "dxe6"
        );
        assert_eq!(neutral_san(&ply("N@f7+", None, Square::F7)), "N@f7");
    }

    fn after(moves: &[(BoardId, &str)]) -> Arbiter {
        crate::arbiter::after_moves(moves)
    }

    #[test]
    fn the_hall_sees_the_position_and_the_moves_and_shares_the_move_list() {
        let arb = after(&[(BoardId::A, "e4"), (BoardId::B, "d4"), (BoardId::A, "e5")]);
        let view = arb.view();
        let first = SpectatorView::of(&view, None);
        let a = first.board(BoardId::A).unwrap();
        assert_eq!(
            a.pieces[Square::E4.to_usize()].map(|p| p.piece),
            Some(Piece::from_char('P').unwrap())
        );
        assert_eq!(a.last_move, Some((Some(Square::E7), Square::E5)));
        let sans: Vec<&str> = first.record.iter().map(|p| p.san.as_str()).collect();
        assert_eq!(sans, ["e4", "d4", "e5"]);
        // Nothing new for the hall: the move list is the same allocation.
        let again = SpectatorView::of(&view, Some(&first));
        assert!(Arc::ptr_eq(&first.record, &again.record));
        assert!(first.same_as(&again));
        // As JSON: the position as a FEN board, squares as text, no sensor detail.
        let json = serde_json::to_value(&first).unwrap();
        assert_eq!(
            json["boards"][0]["pieces"],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"
        );
        assert_eq!(json["boards"][0]["last_move"]["to"], "e5");
        assert_eq!(json["record"][1]["board"], "B");
        assert!(json.get("alerts").is_none());
        assert!(json["boards"][0].get("sensed").is_none());
    }
}
