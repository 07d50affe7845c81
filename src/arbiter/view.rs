//! The immutable view of the match the UI draws: built from the arbiter after each input,
//! shared behind an `Arc`, never mutated. The projector draws the same view (possibly an
//! older one, for a broadcast delay) with what spectators may not see filtered out.

use shakmaty::{Color, Move, Piece, Square};

use super::alert::{Alert, AlertKind, PlyRef};
use super::track::{ClockReading, LinkStatus, ResultSignal};
use super::{Arbiter, Offence, PenaltyRecord};
use crate::dgt::{ClockSide, Orientation};
use crate::rules::{Legality, Penalty, Reserve, Seat, Team, TimeControl};
use crate::sensing::Token;
use crate::{BoardId, Millis};

/// A piece as drawn: the logical piece, and for a promoted piece its token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceView {
    pub piece: Piece,
    /// The piece is a promoted pawn (it goes back as a pawn when captured).
    pub promoted: bool,
    /// What stands for it on the board (promoted pieces only).
    pub token: Option<Token>,
}

/// The clocks of one board as last reported, for display (the UI counts the running side
/// down from `at_ms` on its own).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockView {
    pub present: bool,
    /// Remaining ms by colour (White, Black), whole seconds as the clock reports them.
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    pub running: Option<Color>,
    /// Match time of the reading.
    pub at_ms: Millis,
    /// A flag fell (shown to the TD only).
    pub white_flag: bool,
    pub black_flag: bool,
}

impl ClockView {
    /// Remaining ms for `color` at match time `now`, counting the running side down.
    #[must_use]
    pub fn remaining(&self, color: Color, now: Millis) -> Option<u64> {
        counted_down(
            [self.white_ms, self.black_ms],
            self.running,
            self.at_ms,
            color,
            now,
        )
    }
}

/// What a clock read at `at_ms` (`[White, Black]`) shows for `color` at match time `now`:
/// the running side counts down, never below zero.
#[must_use]
pub fn counted_down(
    read: [Option<u64>; 2],
    running: Option<Color>,
    at_ms: Millis,
    color: Color,
    now: Millis,
) -> Option<u64> {
    let base = read[usize::from(color.is_black())]?;
    if running == Some(color) {
        Some(base.saturating_sub(now.saturating_sub(at_ms)))
    } else {
        Some(base)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BoardView {
    pub id: BoardId,
    /// Logical pieces by square (a1 = 0).
    pub pieces: [Option<PieceView>; 64],
    pub white_reserve: Reserve,
    pub black_reserve: Reserve,
    pub turn: Color,
    /// From/to of the last ply on this board (from is `None` for a drop).
    pub last_move: Option<(Option<Square>, Square)>,
    /// The king in check, if any.
    pub check: Option<Square>,
    /// What the sensors show (FEN letters, `.` empty, `?` unknown), a1 = 0.
    pub sensed: [char; 64],
    /// Squares where the board differs from the record.
    pub differing: Vec<Square>,
    pub started: bool,
    pub link: LinkStatus,
    pub orientation: Option<Orientation>,
    /// Which clock side is White's, once seen.
    pub white_side: Option<ClockSide>,
    pub clock: ClockView,
    /// A press is being judged.
    pub judging: bool,
    /// The players show the DGT result signal.
    pub result_signal: Option<ResultSignal>,
    pub plies: usize,
}

impl BoardView {
    /// The board matches the record.
    #[must_use]
    pub fn in_sync(&self) -> bool {
        self.differing.is_empty()
    }

    #[must_use]
    pub fn reserve(&self, color: Color) -> &Reserve {
        match color {
            Color::White => &self.white_reserve,
            Color::Black => &self.black_reserve,
        }
    }
}

/// One ply in the record, for the move lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyView {
    pub ply: PlyRef,
    /// Index in the real-time record.
    pub index: usize,
    pub san: String,
    pub clock_ms: Option<u64>,
    pub t_ms: Option<Millis>,
    /// Why the move is illegal, if it is (TD only until ruled on).
    pub illegal: Option<String>,
    pub comment: Option<String>,
    /// From/to squares.
    pub squares: (Option<Square>, Square),
}

/// The end of the match, as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultView {
    pub text: String,
    pub winner: Option<Team>,
    /// Points for team WhiteA and team BlackA.
    pub score: [f32; 2],
    /// Result token (team-relative: `1-0` = team WhiteA won).
    pub token: &'static str,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MatchView {
    /// Match time of the snapshot.
    pub t_ms: Millis,
    pub rules_name: String,
    pub rules_title: String,
    pub bughouse: bool,
    pub time_control: TimeControl,
    pub players: [String; 4],
    pub boards: Vec<BoardView>,
    pub record: Vec<PlyView>,
    pub alerts: Vec<Alert>,
    pub result: Option<ResultView>,
    pub penalties: Vec<PenaltyRecord>,
    /// Inputs handled so far (changes whenever anything changed).
    pub generation: u64,
    /// Why the TD's last action was not carried out, if it was not.
    pub td_refusal: Option<String>,
    /// Both clocks as one: stopped or not, who keeps each board's time, what became of
    /// the commands to driven clocks, the clock buttons.
    pub clocks: super::clocks::ClocksView,
}

impl MatchView {
    #[must_use]
    pub fn board(&self, id: BoardId) -> Option<&BoardView> {
        self.boards.iter().find(|b| b.id == id)
    }

    #[must_use]
    pub fn player(&self, seat: Seat) -> &str {
        self.players.get(seat.index()).map_or("", String::as_str)
    }

    /// Open alerts, newest first (the TD's queue).
    pub fn open_alerts(&self) -> impl Iterator<Item = &Alert> {
        self.alerts.iter().rev().filter(|a| a.is_open())
    }

    /// Plies of one board.
    pub fn plies_on(&self, board: BoardId) -> impl Iterator<Item = &PlyView> {
        self.record.iter().filter(move |p| p.ply.board == board)
    }

    /// Has the TD ruled on (or has the game ended since) the illegal ply? Until then the
    /// projector must not point at it.
    #[must_use]
    pub fn illegal_ruled(&self, ply: PlyRef) -> bool {
        self.result.is_some()
            || !self.alerts.iter().any(|a| {
                a.kind == AlertKind::IllegalMove
                    && a.is_open()
                    && matches!(a.subject, super::Subject::Ply(p) if p == ply)
            })
    }

    /// The seat's earlier offences of a kind (for the penalty ladder shown to the TD).
    #[must_use]
    pub fn offences(&self, seat: Seat, offence: Offence) -> usize {
        self.penalties
            .iter()
            .filter(|p| p.seat == seat && p.offence == offence)
            .count()
    }
}

/// The penalty the preset prescribes for the next offence of that kind.
#[must_use]
pub fn next_penalty(
    rules: &crate::rules::RulesPreset,
    offence: Offence,
    earlier: usize,
) -> Penalty {
    match offence {
        Offence::DisplacedPieces => rules.penalties.displaced(earlier + 1),
        Offence::WrongHand => rules.penalties.wrong_hand(earlier + 1),
        Offence::KnockedClock => rules.penalties.knocked_clock,
        Offence::Other => Penalty::TdDecides,
    }
}

impl Arbiter {
    /// The view of the match now.
    #[must_use]
    pub fn view(&self) -> MatchView {
        let game = self.game();
        let rules = game.rules();
        let names = self.config().players.clone();
        let boards = game
            .board_ids()
            .iter()
            .map(|&b| self.board_view(b))
            .collect();
        let record = game
            .record()
            .iter()
            .enumerate()
            .map(|(index, p)| PlyView {
                ply: PlyRef {
                    board: p.board,
                    color: p.color,
                    number: p.number,
                },
                index,
                san: p.san.clone(),
                clock_ms: p.meta.clock_ms,
                t_ms: p.meta.t_ms,
                illegal: match &p.legality {
                    Legality::Illegal(r) => Some(r.describe().to_owned()),
                    _ => None,
                },
                comment: p.meta.comment.clone(),
                squares: (p.mv.from(), move_to(p.mv)),
            })
            .collect();
        let result = game.result().map(|r| ResultView {
            text: r.describe(&|s: Seat| names[s.index()].clone()),
            winner: r.winner,
            score: [r.score(Team::WhiteA, rules), r.score(Team::BlackA, rules)],
            token: match r.winner {
                Some(Team::WhiteA) => "1-0",
                Some(Team::BlackA) => "0-1",
                None => "1/2-1/2",
            },
        });
        MatchView {
            t_ms: self.now(),
            rules_name: rules.name.clone(),
            rules_title: rules.title.clone(),
            bughouse: rules.is_bughouse(),
            time_control: rules.time_control,
            players: names,
            boards,
            record,
            alerts: self.alerts().all().to_vec(),
            result,
            penalties: self.penalties().to_vec(),
            generation: self.inputs_handled(),
            td_refusal: self.td_refusal().map(str::to_owned),
            clocks: self.clocks_view(),
        }
    }

    fn board_view(&self, b: BoardId) -> BoardView {
        let state = self.game().board(b);
        let track = self.track(b);
        let promoted = state.promoted();
        let mut pieces = [None; 64];
        for (sq, piece) in state.board() {
            let is_promoted = promoted.contains(sq);
            pieces[sq.to_usize()] = Some(PieceView {
                piece,
                promoted: is_promoted,
                token: if is_promoted {
                    track.appearance.tokens.get(sq)
                } else {
                    None
                },
            });
        }
        let last_move = self
            .game()
            .record()
            .iter()
            .rev()
            .find(|p| p.board == b)
            .map(|p| (p.mv.from(), move_to(p.mv)));
        let check = if state.is_check() {
            state.board().king_of(state.turn())
        } else {
            None
        };
        let mut sensed = ['.'; 64];
        for sq in Square::ALL {
            sensed[sq.to_usize()] = track.sensed.cells.get(sq).char();
        }
        let expect = crate::sensing::expected(
            state.board(),
            promoted,
            &track.appearance.tokens,
            &track.appearance.allowances,
        );
        let differing = if track.sensed.started {
            expect
                .differences(&track.sensed.cells)
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        let clock = match &track.clock.reading {
            _ if self.tandem_clock(b) => self.own_clock_view(b).unwrap_or_default(),
            Some(ClockReading { at, times }) if !times.no_clock => {
                let ms = |c: Color| {
                    track
                        .clock
                        .side_of(c)
                        .map(|s| u64::from(times.side(s).seconds) * 1000)
                };
                let flag = |c: Color| track.clock.side_of(c).is_some_and(|s| times.side(s).flag());
                ClockView {
                    present: true,
                    white_ms: ms(Color::White),
                    black_ms: ms(Color::Black),
                    running: times.running.and_then(|s| track.clock.color_of(s)),
                    at_ms: *at,
                    white_flag: flag(Color::White),
                    black_flag: flag(Color::Black),
                }
            }
            _ => ClockView::default(),
        };
        BoardView {
            id: b,
            pieces,
            white_reserve: *state.reserve(Color::White),
            black_reserve: *state.reserve(Color::Black),
            turn: state.turn(),
            last_move,
            check,
            sensed,
            differing,
            started: track.sensed.started,
            link: track.link.clone(),
            orientation: track.sensed.orientation,
            white_side: track.clock.white_side,
            clock,
            judging: track.presses.pending.is_some(),
            result_signal: track.sensed.result_signal,
            plies: self.game().plies_on(b),
        }
    }
}

/// The square a move lands on (the king's square for castling).
fn move_to(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            Square::from_coords(side.king_to_file(), king.rank())
        }
        other => other.to(),
    }
}
