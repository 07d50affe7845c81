//! Drawing a board and a reserve: shared by the console, the projector and the replay.

use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Response, Sense, Stroke, Ui, Vec2};
use shakmaty::{Color, File, Piece, Rank, Role, Square};

use super::pieces::{PieceSet, paint_piece};
use super::theme;
use crate::BoardId;
use crate::arbiter::spectator::{PublicBoard, PublicPiece};
use crate::arbiter::view::{BoardView, PieceView};
use crate::rules::Reserve;
use crate::sensing::Token;

/// How to draw one board.
pub struct BoardLook<'a> {
    pub id: BoardId,
    /// The pieces as the record has them (a1 first).
    pub squares: [Option<PublicPiece>; 64],
    /// The king in check, if any.
    pub check: Option<Square>,
    pub white_at_bottom: bool,
    pub pieces: Option<&'a PieceSet>,
    /// File letters and rank numbers in the edge squares.
    pub coordinates: bool,
    /// The TD's marks: squares where the board differs from the record, with what the
    /// sensors see there; a tooltip per square (the console's board only).
    pub td_marks: Option<&'a BoardView>,
    /// The last move to highlight (the projector passes the one it may show).
    pub last_move: Option<(Option<Square>, Square)>,
}

impl<'a> BoardLook<'a> {
    /// A board of the TD's view, as the record has it; `td_marks` adds the sensors'
    /// detail.
    #[must_use]
    pub fn of_view(view: &'a BoardView, td_marks: bool) -> BoardLook<'a> {
        let mut squares = [None; 64];
        for (slot, p) in squares.iter_mut().zip(&view.pieces) {
            *slot = p.map(|p| PublicPiece {
                piece: p.piece,
                promoted: p.promoted,
            });
        }
        BoardLook {
            id: view.id,
            squares,
            check: view.check,
            white_at_bottom: view.id == BoardId::A,
            pieces: None,
            coordinates: true,
            td_marks: td_marks.then_some(view),
            last_move: view.last_move,
        }
    }

    /// A board as the hall sees it.
    #[must_use]
    pub fn of_hall(board: &PublicBoard) -> BoardLook<'a> {
        BoardLook {
            id: board.id,
            squares: board.pieces,
            check: board.check,
            white_at_bottom: board.id == BoardId::A,
            pieces: None,
            coordinates: true,
            td_marks: None,
            last_move: board.last_move,
        }
    }
}

/// Draws the board `size` wide in the middle of a row `width` wide (taking the row's space).
pub fn paint_board_in_row(ui: &mut Ui, width: f32, size: f32, look: &BoardLook<'_>) -> Response {
    let (rect, _) = ui.allocate_exact_size(Vec2::new(width, size), Sense::hover());
    let board_rect = Rect::from_min_size(
        egui::pos2(rect.min.x + (width - size) / 2.0, rect.min.y),
        Vec2::splat(size),
    );
    paint_board(ui, board_rect, look)
}

/// The rectangle of `sq` inside a board drawn in `rect`.
#[must_use]
pub fn square_rect(rect: Rect, sq: Square, white_at_bottom: bool) -> Rect {
    let size = rect.width() / 8.0;
    let (file, rank) = (u32::from(sq.file()) as f32, u32::from(sq.rank()) as f32);
    let (col, row) = if white_at_bottom {
        (file, 7.0 - rank)
    } else {
        (7.0 - file, rank)
    };
    Rect::from_min_size(
        rect.min + Vec2::new(col * size, row * size),
        Vec2::splat(size),
    )
}

/// Draws the board into `rect` (a square; the caller has laid it out) and returns its
/// response (hover, for the TD's tooltips).
pub fn paint_board(ui: &mut Ui, rect: Rect, look: &BoardLook<'_>) -> Response {
    let id = ui.scope_id().with(("board", look.id));
    let response = ui.interact(rect, id, Sense::hover());
    let painter = ui.painter_at(rect);
    let size = rect.width() / 8.0;
    for sq in Square::ALL {
        let r = square_rect(rect, sq, look.white_at_bottom);
        let light = (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1;
        painter.rect_filled(
            r,
            0.0,
            if light {
                theme::LIGHT_SQUARE
            } else {
                theme::DARK_SQUARE
            },
        );
    }
    if let Some((from, to)) = look.last_move {
        for sq in from.into_iter().chain(std::iter::once(to)) {
            painter.rect_filled(
                square_rect(rect, sq, look.white_at_bottom),
                0.0,
                theme::LAST_MOVE,
            );
        }
    }
    if let Some(king) = look.check {
        let r = square_rect(rect, king, look.white_at_bottom);
        painter.circle_filled(r.center(), size * 0.48, theme::CHECK);
    }
    if look.coordinates {
        paint_coordinates(&painter, rect, look.white_at_bottom);
    }
    for sq in Square::ALL {
        let Some(pv) = look.squares[sq.to_usize()] else {
            continue;
        };
        let r = square_rect(rect, sq, look.white_at_bottom);
        paint_piece(&painter, r.shrink(size * 0.03), pv.piece, look.pieces);
        if pv.promoted {
            paint_promoted_badge(&painter, r, pv.piece.color, look.pieces);
        }
    }
    if let Some(v) = look.td_marks {
        for &sq in &v.differing {
            let r = square_rect(rect, sq, look.white_at_bottom);
            painter.rect_stroke(
                r.shrink(2.0),
                2.0,
                Stroke::new((size * 0.08).max(2.0), theme::DIFFERS),
                egui::StrokeKind::Inside,
            );
            // What the sensors see there, on a tag in the square's corner.
            let seen = match v.sensed[sq.to_usize()] {
                '.' => "empty".to_owned(),
                c => c.to_string(),
            };
            let galley = painter.layout_no_wrap(
                format!("sees {seen}"),
                FontId::proportional((size * 0.2).max(9.0)),
                Color32::WHITE,
            );
            let pos = r.left_bottom() + Vec2::new(size * 0.06, -size * 0.06 - galley.size().y);
            painter.rect_filled(
                Rect::from_min_size(pos, galley.size()).expand(2.0),
                2.0,
                theme::DIFFERS,
            );
            painter.galley(pos, galley, Color32::WHITE);
        }
    }
    if let Some(v) = look.td_marks
        && let Some(pos) = response.hover_pos()
        && let Some(sq) = square_at(rect, pos, look.white_at_bottom)
    {
        let text = square_tooltip(v, sq);
        return response.on_hover_text_at_pointer(text);
    }
    response
}

fn square_at(rect: Rect, pos: Pos2, white_at_bottom: bool) -> Option<Square> {
    let size = rect.width() / 8.0;
    let col = ((pos.x - rect.min.x) / size).floor();
    let row = ((pos.y - rect.min.y) / size).floor();
    if !(0.0..8.0).contains(&col) || !(0.0..8.0).contains(&row) {
        return None;
    }
    let (col, row) = (col as u32, row as u32);
    let (file, rank) = if white_at_bottom {
        (col, 7 - row)
    } else {
        (7 - col, row)
    };
    Some(Square::from_coords(File::new(file), Rank::new(rank)))
}

/// What the TD learns by pointing at a square: the recorded piece, its token if it is a
/// promoted pawn, and what the sensors report.
fn square_tooltip(v: &BoardView, sq: Square) -> String {
    let mut text = format!("{sq}: ");
    match v.pieces[sq.to_usize()] {
        Some(PieceView {
            piece,
            promoted,
            token,
        }) => {
            text.push_str(&format!(
                "{} {}",
                super::text::color(piece.color).to_lowercase(),
                super::text::role(piece.role)
            ));
            if promoted {
                text.push_str(" (promoted pawn");
                match token {
                    Some(Token::Hidden) => text.push_str(", the pawn lies on its side"),
                    Some(Token::Pawn) => text.push_str(", an upright pawn stands for it"),
                    Some(Token::Piece(r)) => {
                        text.push_str(&format!(", a spare {} stands for it", super::text::role(r)))
                    }
                    Some(Token::Unsettled) | None => {}
                }
                text.push(')');
            }
        }
        None => text.push_str("empty in the record"),
    }
    let seen = v.sensed[sq.to_usize()];
    text.push_str(&format!(
        "\nThe board sees: {}",
        match seen {
            '.' => "nothing".to_owned(),
            '?' => "a piece it cannot name".to_owned(),
            c => c.to_string(),
        }
    ));
    if v.differing.contains(&sq) {
        text.push_str("\nDiffers from the record");
    }
    text
}

fn paint_coordinates(painter: &Painter, rect: Rect, white_at_bottom: bool) {
    let size = rect.width() / 8.0;
    let font = FontId::proportional((size * 0.2).max(8.0));
    for i in 0..8u32 {
        let file = File::new(i);
        let bottom_rank = if white_at_bottom {
            Rank::First
        } else {
            Rank::Eighth
        };
        let sq = Square::from_coords(file, bottom_rank);
        let r = square_rect(rect, sq, white_at_bottom);
        painter.text(
            r.right_bottom() - Vec2::new(size * 0.06, size * 0.02),
            Align2::RIGHT_BOTTOM,
            file.char(),
            font.clone(),
            ink_on(sq),
        );
        let rank = Rank::new(i);
        let left_file = if white_at_bottom { File::A } else { File::H };
        let sq = Square::from_coords(left_file, rank);
        let r = square_rect(rect, sq, white_at_bottom);
        painter.text(
            r.left_top() + Vec2::new(size * 0.05, size * 0.02),
            Align2::LEFT_TOP,
            rank.char(),
            font.clone(),
            ink_on(sq),
        );
    }
}

/// Text colour readable on the square's colour.
fn ink_on(sq: Square) -> Color32 {
    if (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1 {
        theme::DARK_SQUARE
    } else {
        theme::LIGHT_SQUARE
    }
}

/// A promoted pawn: a small pawn of its colour on a coloured disc in the square's corner,
/// so that anyone sees the queen there is "really" a pawn (it goes back as a pawn when
/// captured).
fn paint_promoted_badge(painter: &Painter, square: Rect, color: Color, set: Option<&PieceSet>) {
    let size = square.width();
    let r = size * 0.2;
    let center = square.right_top() + Vec2::new(-r - size * 0.02, r + size * 0.02);
    painter.circle_filled(center, r, theme::PROMOTED_BADGE);
    painter.circle_stroke(
        center,
        r,
        Stroke::new((size * 0.02).max(1.0), Color32::WHITE),
    );
    let pawn = Piece {
        color,
        role: Role::Pawn,
    };
    paint_piece(
        painter,
        Rect::from_center_size(center, Vec2::splat(r * 1.7)),
        pawn,
        set,
    );
}

/// Where the pieces of a reserve start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReserveFlow {
    /// A column, filled from the top.
    Down,
    /// A column, filled from the bottom.
    Up,
    /// A row, filled from the left.
    Right,
}

/// Draws a reserve as pieces with counts, queen first. Negative counts (a drop seen before
/// the capture that feeds it) are shown only when `show_debts`.
#[allow(clippy::too_many_arguments)]
pub fn paint_reserve(
    painter: &Painter,
    rect: Rect,
    reserve: &Reserve,
    color: Color,
    set: Option<&PieceSet>,
    slot: f32,
    flow: ReserveFlow,
    show_debts: bool,
) {
    let order = [
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];
    let shown = order
        .iter()
        .filter(|&&r| reserve.get(r) > 0 || show_debts && reserve.get(r) != 0)
        .count() as f32;
    if shown > 0.0 {
        // A light tray behind the pieces: black pieces vanish on a dark background.
        let len = shown * slot;
        let tray = match flow {
            ReserveFlow::Down => Rect::from_min_size(
                rect.left_top() + Vec2::new((rect.width() - slot) / 2.0, 0.0),
                Vec2::new(slot, len),
            ),
            ReserveFlow::Up => Rect::from_min_size(
                rect.left_bottom() + Vec2::new((rect.width() - slot) / 2.0, -len),
                Vec2::new(slot, len),
            ),
            ReserveFlow::Right => Rect::from_min_size(
                rect.left_top() + Vec2::new(0.0, (rect.height() - slot) / 2.0),
                Vec2::new(len, slot),
            ),
        };
        painter.rect_filled(tray.expand(slot * 0.04), slot * 0.12, theme::RESERVE_TRAY);
    }
    let mut i = 0.0;
    for role in order {
        let n = reserve.get(role);
        if n == 0 || (n < 0 && !show_debts) {
            continue;
        }
        let min = match flow {
            ReserveFlow::Down => rect.left_top() + Vec2::new((rect.width() - slot) / 2.0, i * slot),
            ReserveFlow::Up => {
                rect.left_bottom() + Vec2::new((rect.width() - slot) / 2.0, -(i + 1.0) * slot)
            }
            ReserveFlow::Right => {
                rect.left_top() + Vec2::new(i * slot, (rect.height() - slot) / 2.0)
            }
        };
        let r = Rect::from_min_size(min, Vec2::splat(slot));
        let piece = Piece { color, role };
        paint_piece(painter, r.shrink(slot * 0.06), piece, set);
        if n != 1 {
            let badge = r.right_bottom() - Vec2::splat(slot * 0.2);
            let fill = if n < 0 {
                theme::BAD
            } else {
                Color32::from_gray(20)
            };
            painter.circle_filled(badge, slot * 0.21, fill);
            painter.circle_stroke(badge, slot * 0.21, (1.0, Color32::WHITE));
            painter.text(
                badge,
                Align2::CENTER_CENTER,
                n.to_string(),
                FontId::proportional(slot * 0.3),
                Color32::WHITE,
            );
        }
        i += 1.0;
    }
}

/// A reserve in words, for the TD and for screen readers: `Q, 2 N, P`, or `empty`.
#[must_use]
pub fn reserve_words(reserve: &Reserve) -> String {
    let parts: Vec<String> = reserve
        .entries()
        .map(|(role, n)| {
            let letter = role.upper_char();
            if n == 1 {
                letter.to_string()
            } else {
                format!("{n} {letter}")
            }
        })
        .collect();
    if parts.is_empty() {
        "empty".to_owned()
    } else {
        parts.join(", ")
    }
}
