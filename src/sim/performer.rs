//! A player's hands: a chess move turned into what happens on a physical board — lifts,
//! placements, slides over intermediate squares, captures in any of the three orders,
//! castling king-first, rook-first or with both hands, en passant with the victim taken
//! before or after, adjustments, a piece set down on the wrong square and corrected, and
//! the clock press — with human timing.
//!
//! The virtual board turns these actions into exactly the bytes a real board sends, so
//! tests, the benchmark and the demo exercise the production path with realistic noise.

use shakmaty::{Bitboard, CastlingSide, Color, Move, Piece, Role, Square, attacks};

use super::emulator::{PhysicalAction, PhysicalPiece};
use crate::Millis;
use crate::util::SplitMix64;

/// How a player handles the pieces, as probabilities and time ranges (ms).
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// From the start of one's turn to the first touch.
    pub think_ms: (u64, u64),
    /// A hand travelling from one square to another.
    pub hand_ms: (u64, u64),
    /// From the last placement to the clock press.
    pub press_after_ms: (u64, u64),
    /// A sliding piece moved along the board, passing its intermediate squares.
    pub slide_chance: f64,
    pub slide_step_ms: (u64, u64),
    /// A piece of one's own lifted and put back before the move.
    pub adjust_chance: f64,
    /// The moving piece first set down on a neighbouring empty square, then corrected.
    pub correction_chance: f64,
    /// Capture orders: victim lifted first / mover lifted first / mover put onto the victim.
    pub capture_weights: [u32; 3],
    /// Castling: king first / rook first / both hands.
    pub castle_weights: [u32; 3],
    /// En passant: the victim removed after the capturing pawn lands.
    pub ep_victim_after_chance: f64,
    /// How a promoted pawn is shown.
    pub promotion: PromotionToken,
}

/// How a player shows a promoted pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionToken {
    /// The pawn stays upright on the last rank.
    UprightPawn,
    /// A spare piece of the chosen kind replaces the pawn.
    SparePiece,
    /// The pawn is laid on its side (US Chess bughouse 10c).
    LaidDown,
}

impl Style {
    /// Clean, unhurried play: no slides, adjustments or corrections.
    #[must_use]
    pub fn calm() -> Style {
        Style {
            think_ms: (1500, 4000),
            hand_ms: (300, 700),
            press_after_ms: (200, 500),
            slide_chance: 0.0,
            slide_step_ms: (60, 120),
            adjust_chance: 0.0,
            correction_chance: 0.0,
            capture_weights: [0, 1, 0],
            castle_weights: [1, 0, 0],
            ep_victim_after_chance: 0.0,
            promotion: PromotionToken::SparePiece,
        }
    }

    /// Bughouse at speed: fast replies (often before the press reaches the PC), slides,
    /// adjustments, corrections, captures and castling in every order.
    #[must_use]
    pub fn blitz() -> Style {
        Style {
            think_ms: (150, 2500),
            hand_ms: (120, 450),
            press_after_ms: (60, 400),
            slide_chance: 0.4,
            slide_step_ms: (40, 110),
            adjust_chance: 0.08,
            correction_chance: 0.05,
            capture_weights: [1, 1, 1],
            castle_weights: [1, 1, 1],
            ep_victim_after_chance: 0.5,
            promotion: PromotionToken::LaidDown,
        }
    }
}

/// The actions of one turn and when the clock is pressed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Performance {
    /// Actions in time order; a few may come after the press (a Transfer pawn removed by
    /// the opponent).
    pub actions: Vec<(Millis, PhysicalAction)>,
    pub press_at: Millis,
}

/// One player's hands.
#[derive(Clone, Debug)]
pub struct Hands {
    pub style: Style,
    rng: SplitMix64,
}

impl Hands {
    #[must_use]
    pub fn new(style: Style, seed: u64) -> Hands {
        Hands {
            style,
            rng: SplitMix64::new(seed),
        }
    }

    fn pick(&mut self, range: (u64, u64)) -> u64 {
        self.rng.range(range.0, range.1)
    }

    fn weighted(&mut self, weights: [u32; 3]) -> usize {
        let total: u32 = weights.iter().sum();
        if total == 0 {
            return 1;
        }
        let mut x = (self.rng.next_u64() % u64::from(total)) as u32;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        1
    }

    /// Plays `mv` for `mover` starting at `start`. `physical` tells what stands on each
    /// square now (tokens of promoted pieces included); `removal` says the rules remove a
    /// pawn reaching the last rank (Transfer Chess), which the opponent then does.
    pub fn perform(
        &mut self,
        physical: &dyn Fn(Square) -> Option<PhysicalPiece>,
        mover: Color,
        mv: Move,
        start: Millis,
        removal: bool,
    ) -> Performance {
        let mut acts: Vec<(Millis, PhysicalAction)> = Vec::new();
        let mut t = start + self.pick(self.style.think_ms);
        if self.rng.chance(self.style.adjust_chance) {
            t = self.adjust(physical, mover, mv, t, &mut acts);
        }
        let mut after_press: Vec<(u64, PhysicalAction)> = Vec::new();
        match mv {
            Move::Normal {
                from,
                to,
                promotion,
                role,
                ..
            } => {
                let token = physical(from).unwrap_or(PhysicalPiece::Standing(role.of(mover)));
                let victim = physical(to).is_some();
                let promoting = role == Role::Pawn && to.rank() == (!mover).backrank();
                let landing = if promoting {
                    match (removal, self.style.promotion, promotion) {
                        (true, _, _) => Landing::Stand(mover.pawn()),
                        (false, PromotionToken::UprightPawn, _) => Landing::Stand(mover.pawn()),
                        (false, PromotionToken::SparePiece, Some(r)) => Landing::Stand(r.of(mover)),
                        (false, PromotionToken::SparePiece, None) => {
                            Landing::Stand(Role::Queen.of(mover))
                        }
                        (false, PromotionToken::LaidDown, _) => Landing::Lie(mover.pawn()),
                    }
                } else {
                    match token {
                        PhysicalPiece::Standing(p) => Landing::Stand(p),
                        PhysicalPiece::Lying(p) => Landing::Lie(p),
                    }
                };
                t = if victim {
                    self.capture(from, to, landing, t, &mut acts)
                } else {
                    self.travel(physical, from, to, landing, role, t, &mut acts)
                };
                if promoting && removal {
                    // Transfer 4c: the opponent removes the pawn at once.
                    after_press.push((
                        0,
                        PhysicalAction::Remove {
                            square: to,
                            piece: mover.pawn(),
                        },
                    ));
                }
            }
            Move::EnPassant { from, to } => {
                let victim = Square::from_coords(to.file(), from.rank());
                let after = self.rng.chance(self.style.ep_victim_after_chance);
                if !after {
                    acts.push((t, PhysicalAction::Lift { square: victim }));
                    t += self.pick(self.style.hand_ms);
                }
                acts.push((t, PhysicalAction::Lift { square: from }));
                t += self.pick(self.style.hand_ms);
                acts.push((
                    t,
                    PhysicalAction::Place {
                        square: to,
                        piece: mover.pawn(),
                    },
                ));
                if after {
                    t += self.pick(self.style.hand_ms);
                    acts.push((t, PhysicalAction::Lift { square: victim }));
                }
            }
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_queen_side(rook < king);
                let king_to = Square::from_coords(side.king_to_file(), king.rank());
                let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
                let k = mover.king();
                let r = mover.rook();
                match self.weighted(self.style.castle_weights) {
                    0 => {
                        t = self.lift_place(king, king_to, k, t, &mut acts);
                        t += self.pick((60, 200));
                        t = self.lift_place(rook, rook_to, r, t, &mut acts);
                    }
                    1 => {
                        t = self.lift_place(rook, rook_to, r, t, &mut acts);
                        t += self.pick((60, 200));
                        t = self.lift_place(king, king_to, k, t, &mut acts);
                    }
                    _ => {
                        acts.push((t, PhysicalAction::Lift { square: king }));
                        acts.push((
                            t + self.pick((0, 60)),
                            PhysicalAction::Lift { square: rook },
                        ));
                        t += self.pick(self.style.hand_ms);
                        acts.push((
                            t,
                            PhysicalAction::Place {
                                square: king_to,
                                piece: k,
                            },
                        ));
                        t += self.pick((0, 80));
                        acts.push((
                            t,
                            PhysicalAction::Place {
                                square: rook_to,
                                piece: r,
                            },
                        ));
                    }
                }
            }
            Move::Put { role, to } => {
                // The piece comes from the player's reserve beside the board.
                t += self.pick(self.style.hand_ms);
                acts.push((
                    t,
                    PhysicalAction::Place {
                        square: to,
                        piece: role.of(mover),
                    },
                ));
            }
        }
        let press_at = t + self.pick(self.style.press_after_ms);
        acts.push((press_at, PhysicalAction::PressClock { by: mover }));
        for (_, a) in after_press {
            let when = press_at + self.rng.range(300, 1500);
            acts.push((when, a));
        }
        acts.sort_by_key(|(t, _)| *t);
        Performance {
            actions: acts,
            press_at,
        }
    }

    fn lift_place(
        &mut self,
        from: Square,
        to: Square,
        piece: Piece,
        t: Millis,
        acts: &mut Vec<(Millis, PhysicalAction)>,
    ) -> Millis {
        acts.push((t, PhysicalAction::Lift { square: from }));
        let t = t + self.pick(self.style.hand_ms);
        acts.push((t, PhysicalAction::Place { square: to, piece }));
        t
    }

    /// A piece lifted and put back on its own square.
    fn adjust(
        &mut self,
        physical: &dyn Fn(Square) -> Option<PhysicalPiece>,
        mover: Color,
        mv: Move,
        t: Millis,
        acts: &mut Vec<(Millis, PhysicalAction)>,
    ) -> Millis {
        let own: Vec<(Square, Piece)> = Square::ALL
            .iter()
            .filter_map(|&s| match physical(s) {
                Some(PhysicalPiece::Standing(p)) if p.color == mover && Some(s) != mv.from() => {
                    Some((s, p))
                }
                _ => None,
            })
            .collect();
        if own.is_empty() {
            return t;
        }
        let (sq, p) = own[self.rng.below(own.len())];
        acts.push((t, PhysicalAction::Lift { square: sq }));
        let back = t + self.pick((30, 400));
        acts.push((
            back,
            PhysicalAction::Place {
                square: sq,
                piece: p,
            },
        ));
        back + self.pick((50, 300))
    }

    fn capture(
        &mut self,
        from: Square,
        to: Square,
        landing: Landing,
        mut t: Millis,
        acts: &mut Vec<(Millis, PhysicalAction)>,
    ) -> Millis {
        match self.weighted(self.style.capture_weights) {
            0 => {
                acts.push((t, PhysicalAction::Lift { square: to }));
                t += self.pick(self.style.hand_ms);
                acts.push((t, PhysicalAction::Lift { square: from }));
                t += self.pick(self.style.hand_ms);
            }
            1 => {
                acts.push((t, PhysicalAction::Lift { square: from }));
                t += self.pick(self.style.hand_ms) / 2;
                acts.push((t, PhysicalAction::Lift { square: to }));
                t += self.pick(self.style.hand_ms);
            }
            _ => {
                // Straight onto the victim: the board never sees the square empty.
                acts.push((t, PhysicalAction::Lift { square: from }));
                t += self.pick(self.style.hand_ms);
            }
        }
        land(to, landing, t, acts);
        t
    }

    #[allow(clippy::too_many_arguments)]
    fn travel(
        &mut self,
        physical: &dyn Fn(Square) -> Option<PhysicalPiece>,
        from: Square,
        to: Square,
        landing: Landing,
        role: Role,
        mut t: Millis,
        acts: &mut Vec<(Millis, PhysicalAction)>,
    ) -> Millis {
        acts.push((t, PhysicalAction::Lift { square: from }));
        let slides = matches!(role, Role::Bishop | Role::Rook | Role::Queen)
            && matches!(landing, Landing::Stand(_))
            && from.distance(to) > 1;
        if slides && self.rng.chance(self.style.slide_chance) {
            let piece = landing.piece();
            let path = attacks::between(from, to);
            let mut squares: Vec<Square> = path.into_iter().collect();
            squares.sort_by_key(|s| from.distance(*s));
            for sq in squares {
                // The hand passes over a piece in the way (one the record does not know,
                // set there by another hand) instead of sweeping it off: same timing.
                let clear = physical(sq).is_none();
                t += self.pick(self.style.slide_step_ms);
                if clear {
                    acts.push((t, PhysicalAction::Place { square: sq, piece }));
                }
                t += self.pick(self.style.slide_step_ms);
                if clear {
                    acts.push((t, PhysicalAction::Lift { square: sq }));
                }
            }
            t += self.pick(self.style.slide_step_ms);
        } else {
            t += self.pick(self.style.hand_ms);
        }
        if self.rng.chance(self.style.correction_chance)
            && let Landing::Stand(piece) = landing
            && let Some(wrong) = self.neighbour_empty(physical, from, to)
        {
            acts.push((
                t,
                PhysicalAction::Place {
                    square: wrong,
                    piece,
                },
            ));
            t += self.pick((150, 600));
            acts.push((t, PhysicalAction::Lift { square: wrong }));
            t += self.pick(self.style.hand_ms) / 2;
        }
        land(to, landing, t, acts);
        t
    }

    fn neighbour_empty(
        &mut self,
        physical: &dyn Fn(Square) -> Option<PhysicalPiece>,
        from: Square,
        to: Square,
    ) -> Option<Square> {
        let options: Vec<Square> = (attacks::king_attacks(to) & !Bitboard::from_square(from))
            .into_iter()
            .filter(|s| physical(*s).is_none())
            .collect();
        if options.is_empty() {
            None
        } else {
            Some(options[self.rng.below(options.len())])
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Landing {
    Stand(Piece),
    Lie(Piece),
}

impl Landing {
    fn piece(self) -> Piece {
        match self {
            Landing::Stand(p) | Landing::Lie(p) => p,
        }
    }
}

fn land(to: Square, landing: Landing, t: Millis, acts: &mut Vec<(Millis, PhysicalAction)>) {
    acts.push((
        t,
        PhysicalAction::Place {
            square: to,
            piece: landing.piece(),
        },
    ));
    if let Landing::Lie(_) = landing {
        acts.push((t, PhysicalAction::LayDown { square: to }));
    }
}
