//! Hostile input: whatever arrives from a board, a file or a careless TD, Tandem answers
//! with a clear message naming what and where, and never panics or hangs.
//!
//! Property tests (fixed seed by default; `TANDEM_RANDOM=1` for fresh cases and
//! `TANDEM_CASES=n` for more of them): mutated capture files, mutated journals, mutated
//! rule presets and device files, and random inputs (board messages, clock times,
//! connections, TD actions) straight into the arbiter.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tandem::BoardId;
use tandem::arbiter::journal::{JournalHeader, header_lines, input_line, parse_journal};
use tandem::arbiter::{Arbiter, ArbiterConfig, Input, Offence, PlyRef, TdAction};
use tandem::arbiter::{BoardEvent, BoardEventKind};
use tandem::device::capture::parse_capture;
use tandem::device::profile::{DeviceProfile, Station};
use tandem::dgt::{ClockReading, ClockSide, ClockTimes, Fields, Message, Orientation, PieceCode};
use tandem::notation::{BpgnHeader, read_bpgn, write_bpgn};
use tandem::rules::{EndReason, MatchResult, Penalty, RulesPreset, Seat};
use tandem::station::Recording;

const CASES: u32 = 64;
/// The arbiter fuzz replays a whole chaotic match per case: fewer by default.
const ARBITER_CASES: u32 = 20;

fn real_capture() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/dgt/real-1.capture"
    ))
    .unwrap()
}

/// Damage done to a text file: bytes flipped, cut short, lines dropped or doubled,
/// garbage inserted.
#[derive(Clone, Debug)]
enum Damage {
    Flip(usize, u8),
    Truncate(usize),
    DropLine(usize),
    DoubleLine(usize),
    Insert(usize, String),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Damage::Flip(i, b)),
        any::<usize>().prop_map(Damage::Truncate),
        any::<usize>().prop_map(Damage::DropLine),
        any::<usize>().prop_map(Damage::DoubleLine),
        (any::<usize>(), "[ -~\n]{0,30}").prop_map(|(i, s)| Damage::Insert(i, s)),
    ]
}

/// Applies the damage to the bytes (then read back as the file readers would: lossy).
fn apply(text: &str, damages: &[Damage]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for d in damages {
        let n = bytes.len().max(1);
        match d {
            Damage::Flip(i, b) => {
                if !bytes.is_empty() {
                    bytes[i % n] = *b;
                }
            }
            Damage::Truncate(i) => bytes.truncate(i % n),
            Damage::DropLine(i) | Damage::DoubleLine(i) => {
                let s = String::from_utf8_lossy(&bytes).into_owned();
                let mut lines: Vec<&str> = s.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let k = i % lines.len();
                    if matches!(d, Damage::DropLine(_)) {
                        lines.remove(k);
                    } else {
                        lines.insert(k, lines[k]);
                    }
                }
                bytes = lines.concat().into_bytes();
            }
            Damage::Insert(i, s) => {
                let at = i % (bytes.len() + 1);
                bytes.splice(at..at, s.bytes());
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn line_count(text: &str) -> usize {
    text.split_inclusive('\n').count().max(1)
}

/// A small real journal: a capture's first moves as the arbiter's inputs.
fn real_journal() -> String {
    let chunks = parse_capture(&real_capture()).unwrap();
    let events = tandem::station::recording::capture_events(&chunks);
    let header = JournalHeader {
        config: ArbiterConfig::new(RulesPreset::built_in("uscf-blitz")),
        event: "fuzz".into(),
        site: "here".into(),
        date: "2026.11.21".into(),
        time: None,
        capture: None,
        round: String::new(),
        teams: None,
    };
    let mut text = header_lines(&header);
    for e in events.iter().take(60) {
        text.push_str(&input_line(&Input::Board(e.clone())));
    }
    text.push_str(&input_line(&Input::Td {
        t_ms: 99_000,
        action: TdAction::Dismiss { alert: 1 },
    }));
    text
}

proptest! {
    #![proptest_config(crate::common::proptest_config(CASES))]

    /// A damaged capture reads, or fails naming a line of the file; never a panic.
    #[test]
    fn damaged_capture_is_read_or_named(damages in prop::collection::vec(damage(), 1..6)) {
        let text = apply(&real_capture(), &damages);
        match parse_capture(&text) {
            Ok(chunks) => {
                // Whatever was read replays without a panic.
                let events = tandem::station::recording::capture_events(&chunks);
                let cfg = ArbiterConfig::new(RulesPreset::built_in("uscf-blitz"));
                let arb = Recording::of_events(cfg, &events).replay(|_| {}).into_arbiter();
                let _ = arb.view();
            }
            Err(e) => {
                let msg = e.to_string();
                let tandem::device::capture::CaptureError::Syntax { line, col, .. } = e else {
                    return Err(TestCaseError::fail(format!("not a syntax error: {msg}")));
                };
                prop_assert!(line >= 1 && line <= line_count(&text), "{msg}");
                prop_assert!(col >= 1, "{msg}");
            }
        }
    }

    /// A damaged journal resumes, or fails naming a line; never a panic.
    #[test]
    fn damaged_journal_is_read_or_named(damages in prop::collection::vec(damage(), 1..6)) {
        let text = apply(&real_journal(), &damages);
        match parse_journal(&text) {
            Ok(j) => {
                let _ = Recording::of_inputs(j.config.clone(), j.inputs.clone()).replay(|_| {});
            }
            Err(e) => {
                // (one past the last line: the file ended where more was needed)
                prop_assert!(e.line >= 1 && e.line <= line_count(&text) + 1, "{}", e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }

    /// A damaged rules preset loads, or fails naming its line and column.
    #[test]
    fn damaged_preset_is_read_or_named(
        name in prop::sample::select(vec!["uscf-bughouse", "club-bughouse", "club-bughouse-corrected", "transfer-chess", "uscf-blitz"]),
        damages in prop::collection::vec(damage(), 1..4),
    ) {
        let path = std::path::PathBuf::from(format!("{}/assets/rules/{name}.ron", env!("CARGO_MANIFEST_DIR")));
        let text = apply(&std::fs::read_to_string(&path).unwrap(), &damages);
        if let Err(e) = RulesPreset::parse(&text, &path) {
            let msg = e.to_string();
            prop_assert!(msg.starts_with(&format!("{}:", path.display())), "{msg}");
        }
    }

    /// Damaged device profiles and station files likewise.
    #[test]
    fn damaged_device_files_are_read_or_named(
        which in 0usize..4,
        damages in prop::collection::vec(damage(), 1..4),
    ) {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/devices");
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        let path = &files[which % files.len()];
        let name = path.display().to_string();
        let text = apply(&std::fs::read_to_string(path).unwrap(), &damages);
        let err = if name.contains("station") {
            Station::parse(&name, &text).err().map(|e| e.to_string())
        } else {
            DeviceProfile::parse(&name, &text).err().map(|e| e.to_string())
        };
        if let Some(msg) = err {
            prop_assert!(msg.starts_with(&format!("{name}:")), "{msg}");
        }
    }

}

proptest! {
    #![proptest_config(crate::common::proptest_config(ARBITER_CASES))]

    /// Random inputs straight into the arbiter: board messages (dumps of anything, field
    /// updates with any code, clocks with any times), links coming and going, time jumps,
    /// and TD actions with nonsense in them. No panic; the view, the BPGN and a replay of
    /// the same inputs all work and agree.
    #[test]
    fn random_inputs_never_break_the_arbiter(
        preset in prop::sample::select(vec!["uscf-bughouse", "club-bughouse-corrected", "transfer-chess", "uscf-blitz"]),
        steps in prop::collection::vec(step(), 1..160),
    ) {
        let rules = RulesPreset::built_in(preset);
        let cfg = ArbiterConfig::new(rules.clone());
        let mut arb = Arbiter::new(cfg.clone());
        let mut t = 0;
        let mut inputs = Vec::new();
        // Both boards start from the start position, so that moves can happen at all.
        for board in BoardId::BOTH {
            inputs.push(Input::Board(BoardEvent {
                board,
                t_ms: 0,
                kind: BoardEventKind::Message(Message::BoardDump(Fields::from_board(
                    &shakmaty::Board::new(),
                    Orientation::Normal,
                ))),
            }));
        }
        for s in steps {
            t += s.dt;
            inputs.push(s.input(t));
        }
        for i in &inputs {
            let _ = arb.handle(i);
        }
        let _ = arb.finish_at(t + 60_000);
        let view = arb.view();
        prop_assert_eq!(view.record.len(), arb.game().record().len());
        let bpgn = write_bpgn(arb.game(), &BpgnHeader::default());
        // What Tandem writes, Tandem reads (illegal moves that stood included).
        if let Err(e) = read_bpgn(&bpgn, &rules) {
            return Err(TestCaseError::fail(format!("own BPGN unreadable: {e}\n{bpgn}")));
        }
        // Through the journal's text and back, the same match.
        let mut text = header_lines(&JournalHeader {
            config: cfg,
            event: String::new(),
            site: String::new(),
            date: String::new(),
            time: None,
            capture: None,
            round: String::new(),
            teams: None,
        });
        for i in &inputs {
            text.push_str(&input_line(i));
        }
        let j = parse_journal(&text).unwrap();
        prop_assert_eq!(&j.inputs, &inputs);
        let mut again = Recording::of_inputs(j.config.clone(), j.inputs.clone())
            .replay(|_| {})
            .into_arbiter();
        let _ = again.finish_at(t + 60_000);
        prop_assert_eq!(
            write_bpgn(again.game(), &BpgnHeader::default()),
            bpgn
        );
    }
}

#[derive(Clone, Debug)]
struct Step {
    dt: u64,
    board: BoardId,
    what: What,
}

#[derive(Clone, Debug)]
enum What {
    Dump(Vec<u8>),
    Field(u8, u8),
    Clock(u32, u32, bool, bool),
    Connect,
    Disconnect,
    Tick,
    Td(TdAction),
}

impl Step {
    fn input(&self, t_ms: u64) -> Input {
        let ev = |kind| {
            Input::Board(BoardEvent {
                board: self.board,
                t_ms,
                kind,
            })
        };
        match &self.what {
            What::Dump(bytes) => {
                let mut codes = [0u8; 64];
                for (c, b) in codes.iter_mut().zip(bytes.iter().cycle()) {
                    *c = *b;
                }
                ev(BoardEventKind::Message(Message::BoardDump(
                    Fields::from_bytes(&codes).unwrap_or_else(Fields::empty),
                )))
            }
            What::Field(field, code) => ev(BoardEventKind::Message(Message::FieldUpdate {
                field: *field,
                code: PieceCode(*code),
            })),
            What::Clock(l, r, right_high, running) => {
                ev(BoardEventKind::Message(Message::Clock(ClockTimes::new(
                    ClockReading::new(*l),
                    ClockReading::new(*r),
                    if *right_high {
                        ClockSide::Right
                    } else {
                        ClockSide::Left
                    },
                    *running,
                ))))
            }
            What::Connect => ev(BoardEventKind::Connected {
                port: "/dev/null".into(),
                serial: Some("12345".into()),
                version: Some((1, 2)),
            }),
            What::Disconnect => ev(BoardEventKind::Disconnected {
                reason: "fuzz".into(),
            }),
            What::Tick => Input::Tick { t_ms },
            What::Td(action) => Input::Td {
                t_ms,
                action: action.clone(),
            },
        }
    }
}

fn board() -> impl Strategy<Value = BoardId> {
    prop_oneof![Just(BoardId::A), Just(BoardId::B)]
}

fn seat() -> impl Strategy<Value = Seat> {
    prop::sample::select(Seat::ALL.to_vec())
}

fn ply_ref() -> impl Strategy<Value = PlyRef> {
    (board(), any::<bool>(), 0u32..40).prop_map(|(board, white, number)| PlyRef {
        board,
        color: if white {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        },
        number,
    })
}

/// Moves and squares as a TD might type them, right or wrong.
fn typed() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-h][1-8]",
        "[NBRQK]?[a-h][1-8]",
        "[a-h][1-8][a-h][1-8][qrbn]?",
        "[PNBRQ]@[a-h][1-8]",
        "O-O(-O)?",
        ".{0,8}",
    ]
}

fn td_action() -> impl Strategy<Value = TdAction> {
    prop_oneof![
        (0u64..12).prop_map(|alert| TdAction::Dismiss { alert }),
        (
            ply_ref(),
            prop::sample::select(shakmaty::Role::ALL.to_vec())
        )
            .prop_map(|(ply, role)| TdAction::SetPromotion { ply, role }),
        (ply_ref(), prop::option::of(0u32..64), 0u32..64).prop_map(|(ply, from, i)| {
            TdAction::ChooseHiddenMove {
                ply,
                from: from.map(shakmaty::Square::new),
                to: shakmaty::Square::new(i),
            }
        }),
        ply_ref().prop_map(|ply| TdAction::ClaimIllegal { ply }),
        (0u64..12).prop_map(|alert| TdAction::LetStand { alert }),
        (ply_ref(), typed()).prop_map(|(ply, mv)| TdAction::CorrectMove { ply, mv }),
        (board(), typed()).prop_map(|(board, mv)| TdAction::AddMove { board, mv }),
        ply_ref().prop_map(|ply| TdAction::TakeBack { ply }),
        seat().prop_map(|seat| TdAction::ClaimFlag { seat }),
        (
            seat(),
            prop::sample::select(vec![
                Offence::DisplacedPieces,
                Offence::KnockedClock,
                Offence::WrongHand,
                Offence::Other
            ]),
            prop::sample::select(vec![
                Penalty::Warning,
                Penalty::TimeToOpponent,
                Penalty::Forfeit,
                Penalty::OpponentMayClaimWin
            ]),
            prop::option::of(0u64..12),
        )
            .prop_map(|(seat, offence, penalty, alert)| TdAction::Penalize {
                seat,
                offence,
                penalty,
                alert
            }),
        (seat(), any::<bool>()).prop_map(|(seat, draw)| TdAction::DeclareResult {
            result: MatchResult {
                winner: if draw {
                    None
                } else {
                    Some(seat.team().other())
                },
                reason: EndReason::Resignation { seat },
                t_ms: None,
            }
        }),
        Just(TdAction::Undeclare),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let what = prop_oneof![
        2 => prop::collection::vec(any::<u8>(), 1..64).prop_map(What::Dump),
        // Mostly real piece codes on real fields, sometimes anything.
        20 => (0u8..64, 0u8..13).prop_map(|(f, c)| What::Field(f, c)),
        2 => (any::<u8>(), any::<u8>()).prop_map(|(f, c)| What::Field(f, c)),
        6 => (0u32..40_000, 0u32..40_000, any::<bool>(), any::<bool>())
            .prop_map(|(l, r, h, run)| What::Clock(l, r, h, run)),
        1 => Just(What::Connect),
        1 => Just(What::Disconnect),
        2 => Just(What::Tick),
        4 => td_action().prop_map(What::Td),
    ];
    (0u64..4000, board(), what).prop_map(|(dt, board, what)| Step { dt, board, what })
}
