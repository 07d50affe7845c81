//! A match's timeline, to study a failing sweep case: each ply as played and pressed,
//! each square the boards reported, each change of a clock's running side, and each ply
//! as Tandem recorded it, in time order.

use tandem::arbiter::BoardEventKind;
use tandem::dgt::{Message, Orientation, field_to_square};
use tandem::rules::Match;
use tandem::sim::SimOutput;
use tandem::sim::table::Rehearsal;

/// Prints the lines between `TANDEM_TRACE_FROM` and `TANDEM_TRACE_TO` (ms, both optional).
/// `rotated`: each board's orientation; `truth` the match as played, `got` as recorded.
pub fn print_timeline(outputs: &[SimOutput], rotated: [bool; 2], truth: &Match, got: &Match) {
    let window = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (from, to) = (
        window("TANDEM_TRACE_FROM", 0),
        window("TANDEM_TRACE_TO", u64::MAX),
    );
    let plies = |m: &Match, tag: &str| -> Vec<(u64, String)> {
        m.record()
            .iter()
            .map(|p| {
                let t = p.meta.t_ms.unwrap_or(0);
                (t, format!("{t:>6} {} {tag} {}", p.board, p.san))
            })
            .collect()
    };
    let mut lines = plies(truth, "PRESS (truth)");
    let mut running = [None, None];
    for ev in Rehearsal::events(outputs) {
        let i = ev.board.index();
        let o = if rotated[i] {
            Orientation::Rotated
        } else {
            Orientation::Normal
        };
        match &ev.kind {
            BoardEventKind::Message(Message::FieldUpdate { field, code }) => {
                let sq = field_to_square(*field, o).map_or("??".into(), |q| q.to_string());
                let c = code.fen_char();
                lines.push((ev.t_ms, format!("{:>6} {}   {sq} {c}", ev.t_ms, ev.board)));
            }
            BoardEventKind::Message(Message::Clock(c)) if c.running != running[i] => {
                running[i] = c.running;
                lines.push((
                    ev.t_ms,
                    format!("{:>6} {}   clock runs {:?}", ev.t_ms, ev.board, c.running),
                ));
            }
            _ => {}
        }
    }
    lines.extend(plies(got, "TANDEM"));
    lines.sort_by_key(|l| l.0);
    for (t, l) in &lines {
        if (from..=to).contains(t) {
            println!("{l}");
        }
    }
}
