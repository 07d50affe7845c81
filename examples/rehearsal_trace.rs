//! Developer tool: plays one rehearsal (a random match with physical noise on simulated
//! boards), runs it through the arbiter, and prints one board's decoded events, the truth
//! and what the arbiter committed and raised, between two times.
//!
//! `cargo run --example rehearsal_trace -- SEED [BOARD] [FROM_MS] [TO_MS] [PRESET]`
//! Environment: `BT=AB` Bluetooth boards, `ROT=AB` boards turned round, `WR=AB` White's
//! clock on the right,
//! `PROMO=upright|spare|laid` how promoted pawns are shown (default laid).
//! Used to reproduce a failing case of `tests/sensing_property.rs` from its printed setup.
use tandem::arbiter::BoardEventKind;
use tandem::arbiter::{Arbiter, ArbiterConfig, Input};
use tandem::dgt::Message;
use tandem::rules::RulesPreset;
use tandem::sim::emulator::{ClockConfig, EmulatorConfig};
use tandem::sim::performer::{PromotionToken, Style};
use tandem::sim::table::{Chooser, Rehearsal};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(seed) = args.get(1).and_then(|s| s.parse::<u64>().ok()) else {
        eprintln!("usage: rehearsal_trace SEED [BOARD] [FROM_MS] [TO_MS] [PRESET]");
        std::process::exit(2);
    };
    let board = args.get(2).map(|s| s.as_str()).unwrap_or("B");
    let from: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let to: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(u64::MAX);
    let rules = RulesPreset::built_in(args.get(5).map(|s| s.as_str()).unwrap_or("uscf-bughouse"));
    let bt = std::env::var("BT").unwrap_or_default();
    let cfg = |i: u64| {
        let base = if bt.contains(if i == 0 { 'A' } else { 'B' }) {
            EmulatorConfig::bluetooth()
        } else {
            EmulatorConfig::default()
        };
        let rot = std::env::var("ROT").unwrap_or_default();
        let orientation = if rot.contains(if i == 0 { 'A' } else { 'B' }) {
            tandem::dgt::Orientation::Rotated
        } else {
            tandem::dgt::Orientation::Normal
        };
        EmulatorConfig {
            serial: format!("{}", 30000 + i),
            orientation,
            clock: Some(ClockConfig {
                base_ms: 300_000,
                white_side: if std::env::var("WR").unwrap_or_default().contains(if i == 0 {
                    'A'
                } else {
                    'B'
                }) {
                    tandem::dgt::ClockSide::Right
                } else {
                    tandem::dgt::ClockSide::Left
                },
                ..ClockConfig::default()
            }),
            ..base
        }
    };
    let mut style = Style::blitz();
    if std::env::var("INJECT").is_ok() {
        style.think_ms = (3500, 5000);
    }
    style.promotion = match std::env::var("PROMO").as_deref() {
        Ok("upright") => PromotionToken::UprightPawn,
        Ok("spare") => PromotionToken::SparePiece,
        _ => PromotionToken::LaidDown,
    };
    let mut r = Rehearsal::new(
        rules.clone(),
        &[cfg(0), cfg(1)],
        &style,
        Chooser::Random,
        seed,
    );
    r.set_max_plies(30);
    // INJECT=knock:B:11 (pocket|extra|knock, board, ply on that board) as in
    // tests/sensing_anomalies.rs (there the style thinks 3.5–5 s).
    if let Ok(spec) = std::env::var("INJECT") {
        let parts: Vec<&str> = spec.split(':').collect();
        if let [what, b, ply] = parts.as_slice() {
            let what = match *what {
                "pocket" => tandem::sim::table::Injection::Pocket,
                "extra" => tandem::sim::table::Injection::ExtraPiece,
                _ => tandem::sim::table::Injection::Knock,
            };
            let b = if *b == "B" {
                tandem::BoardId::B
            } else {
                tandem::BoardId::A
            };
            let ply: usize = ply.parse().unwrap_or(0);
            r.set_max_plies(ply + 2);
            r.inject(b, ply, what);
        }
    }
    let outputs = r.run(5000);
    for (b, mv, t) in &r.log {
        if b.to_string() == board && *t >= from && *t <= to {
            println!("TRUTH {t} {b} {mv:?}");
        }
    }
    let mut acfg = ArbiterConfig::new(rules);
    for b in tandem::BoardId::BOTH {
        if bt.contains(b.letter()) {
            acfg.timing[b] = tandem::arbiter::Timing::for_scan_period(500);
        }
    }
    let mut arb = Arbiter::new(acfg);
    for ev in Rehearsal::events(&outputs) {
        let show = ev.board.to_string() == board && ev.t_ms >= from && ev.t_ms <= to;
        if show {
            match &ev.kind {
                BoardEventKind::Message(Message::FieldUpdate { field, code }) => {
                    let o = if std::env::var("ROT").unwrap_or_default().contains(board) {
                        tandem::dgt::Orientation::Rotated
                    } else {
                        tandem::dgt::Orientation::Normal
                    };
                    let Some(sq) = tandem::dgt::field_to_square(*field, o) else {
                        continue;
                    };
                    println!("{} {} {} {}", ev.t_ms, ev.board, sq, code.fen_char());
                }
                BoardEventKind::Message(Message::Clock(c)) => println!(
                    "{} {} clock running {:?} L{} R{}",
                    ev.t_ms, ev.board, c.running, c.left.seconds, c.right.seconds
                ),
                other => println!("{} {} {:?}", ev.t_ms, ev.board, other),
            }
        }
        let out = arb.handle(&Input::Board(ev.clone()));
        for o in out {
            if show {
                match &o {
                    tandem::arbiter::Output::Committed { ply } => {
                        let p = arb.game().record().iter().find(|p| {
                            p.board == ply.board && p.color == ply.color && p.number == ply.number
                        });
                        println!(
                            "   => commit {} {:?} {}",
                            ply.board,
                            ply.color,
                            p.map(|p| p.san.clone()).unwrap_or_default()
                        );
                    }
                    other => println!("   => {other:?}"),
                }
            }
        }
    }
}
