//! A tiny script language for physical scenarios on two simulated boards: lift, place,
//! slide, knock, lay down, press the clock — at explicit times — then the arbiter's
//! record and alerts.
#![allow(dead_code, clippy::unwrap_used)]

use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::Millis;
use tandem::arbiter::{
    Alert, AlertKind, Arbiter, ArbiterConfig, Input, Output, PlyRef, Subject, TdAction, Timing,
};
use tandem::rules::RulesPreset;
use tandem::sim::SimOutput;
use tandem::sim::emulator::{EmulatorConfig, PhysicalAction};
use tandem::sim::table::{Rehearsal, SimTable};

pub struct Scene {
    pub table: SimTable,
    pub rules: RulesPreset,
    pub t: Millis,
    pub timing: [Timing; 2],
    outputs: Vec<SimOutput>,
    td: Vec<(Millis, TdAction)>,
}

pub fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

pub fn pc(c: char) -> Piece {
    Piece::from_char(c).unwrap()
}

impl Scene {
    /// Both boards set up, clocks started by Black at t = 1000; the cursor at 2000.
    pub fn new(preset: &str) -> Scene {
        Self::with_a(preset, EmulatorConfig::default())
    }

    /// Board A as `a` says, board B a USB board with the default settings.
    pub fn with_a(preset: &str, a: EmulatorConfig) -> Scene {
        Self::with(
            preset,
            a,
            EmulatorConfig {
                serial: "22222".into(),
                ..EmulatorConfig::default()
            },
        )
    }

    /// Board A never reads a pawn laid on its side (no flicker): what it shows of a lying
    /// promoted piece is nothing at all.
    pub fn lying_pawns_unseen(preset: &str) -> Scene {
        Self::with_a(
            preset,
            EmulatorConfig {
                lying_pawn_flicker: 0.0,
                ..EmulatorConfig::default()
            },
        )
    }

    /// Board B: 1.e4 d5 2.Nc3 dxe4, Black's capture pressed: White on board A holds a pawn.
    pub fn black_takes_a_pawn_on_b(&mut self) -> &mut Scene {
        use BoardId::B;
        self.mv(B, "e2", "e4", 'P')
            .mv(B, "d7", "d5", 'p')
            .mv(B, "b1", "c3", 'N')
            .take(B, "d5", "e4", 'p')
    }

    /// Board A: White's h-pawn takes its way to h7 (1.h4 g5 2.hxg5 a6 3.g6 a5 4.gxh7 a4),
    /// a capture on g8 away from promoting.
    pub fn pawn_on_the_seventh(&mut self) -> &mut Scene {
        use BoardId::A;
        use Color::White;
        self.mv(A, "h2", "h4", 'P').mv(A, "g7", "g5", 'p');
        self.lift(A, "h4")
            .wait(300)
            .lift(A, "g5")
            .wait(300)
            .place(A, "g5", 'P')
            .wait(300)
            .press(A, White)
            .wait(1500);
        self.mv(A, "a7", "a6", 'p');
        self.mv(A, "g5", "g6", 'P').mv(A, "a6", "a5", 'p');
        self.lift(A, "g6")
            .wait(300)
            .lift(A, "h7")
            .wait(300)
            .place(A, "h7", 'P')
            .wait(300)
            .press(A, White)
            .wait(1500);
        self.mv(A, "a5", "a4", 'p')
    }

    /// Board A: Black's h-pawn takes its way to g2 (1.a3 h5 2.a4 h4 3.a5 h3 4.a6 hxg2
    /// 5.axb7), a capture on h1 away from promoting.
    pub fn black_pawn_on_g2(&mut self) -> &mut Scene {
        use BoardId::A;
        self.mv(A, "a2", "a3", 'P')
            .mv(A, "h7", "h5", 'p')
            .mv(A, "a3", "a4", 'P')
            .mv(A, "h5", "h4", 'p')
            .mv(A, "a4", "a5", 'P')
            .mv(A, "h4", "h3", 'p')
            .mv(A, "a5", "a6", 'P')
            .take(A, "h3", "g2", 'p')
            .take(A, "a6", "b7", 'P')
    }

    /// The TD's answer to `gxh1_laid_down`'s question: Black's 5th move on A promoted to a
    /// `role`.
    pub fn gxh1_is(role: Role) -> TdAction {
        TdAction::SetPromotion {
            ply: PlyRef {
                board: BoardId::A,
                color: Color::Black,
                number: 5,
            },
            role,
        }
    }

    /// The same: a queen.
    pub fn gxh1_is_a_queen() -> TdAction {
        Self::gxh1_is(Role::Queen)
    }

    /// Board A: Black's g2 pawn (`black_pawn_on_g2`) takes on h1 and is laid on its side
    /// there, pressed; the TD not yet told which piece it is.
    pub fn gxh1_laid_down(&mut self) -> &mut Scene {
        use BoardId::A;
        self.lift(A, "g2")
            .wait(200)
            .lift(A, "h1")
            .wait(200)
            .place(A, "h1", 'p')
            .lay_down(A, "h1")
            .wait(300)
            .press(A, Color::Black)
    }

    /// The same, and the TD hears it is a queen.
    pub fn gxh1_queen_laid_down(&mut self) -> &mut Scene {
        self.gxh1_laid_down().wait(1500).td(Self::gxh1_is_a_queen())
    }

    /// Board A: White's pawn takes h7xg8 and is left upright on g8 (a pawn on every pass),
    /// not yet pressed.
    pub fn h7_takes_g8_upright(&mut self) -> &mut Scene {
        use BoardId::A;
        self.lift(A, "h7")
            .wait(300)
            .lift(A, "g8")
            .wait(300)
            .place(A, "g8", 'P')
            .wait(300)
    }

    /// Board A: White's h7 pawn (`pawn_on_the_seventh`) takes on g8 and is laid on its
    /// side there, a promoted piece; not pressed yet.
    pub fn h7_takes_g8_laid_down(&mut self) -> &mut Scene {
        use BoardId::A;
        self.lift(A, "h7")
            .wait(300)
            .lift(A, "g8")
            .wait(300)
            .place(A, "g8", 'P')
            .lay_down(A, "g8")
            .wait(300)
    }

    pub fn with(preset: &str, a: EmulatorConfig, b: EmulatorConfig) -> Scene {
        let rules = RulesPreset::built_in(preset);
        let mut table = SimTable::new(&[a, b], 5);
        for id in table.ids() {
            table.schedule(
                id,
                &[(1000, PhysicalAction::PressClock { by: Color::Black })],
            );
        }
        Scene {
            table,
            rules,
            t: 2000,
            timing: [Timing::default(); 2],
            outputs: Vec::new(),
            td: Vec::new(),
        }
    }

    /// Board A a Bluetooth board (a slow scan, 500 ms, and a late link), known to
    /// Tandem as such; board B on USB.
    pub fn bluetooth_a(preset: &str) -> Scene {
        Self::bluetooth_a_as(preset, EmulatorConfig::bluetooth())
    }

    /// The same with board A as `a` says: a Bluetooth board's settings, some changed.
    pub fn bluetooth_a_as(preset: &str, a: EmulatorConfig) -> Scene {
        let mut s = Scene::with_a(preset, a);
        s.timing[0] = Timing::for_scan_period(500);
        s
    }

    /// Board A a Bluetooth board turned round (Black on the connector side: its scan
    /// numbers the fields the other way), board B on USB.
    pub fn bluetooth_a_turned_round(preset: &str) -> Scene {
        Self::bluetooth_a_as(
            preset,
            EmulatorConfig {
                orientation: tandem::dgt::Orientation::Rotated,
                ..EmulatorConfig::bluetooth()
            },
        )
    }

    /// Board A a Bluetooth board whose clock messages always come late (the board polls
    /// the clock 2-3 times a second, and a message may wait for a clock ack on top: the
    /// press message reaches the PC most of a second after the lever), facing either way;
    /// board B on USB.
    pub fn late_clock_bluetooth_a_facing(
        preset: &str,
        orientation: tandem::dgt::Orientation,
    ) -> Scene {
        Self::bluetooth_a_as(
            preset,
            EmulatorConfig {
                clock_late_chance: 1.0,
                clock_late_ms: (500, 700),
                orientation,
                ..EmulatorConfig::bluetooth()
            },
        )
    }

    /// The same board turned round (Black on the connector side): it scans the squares in
    /// the other order.
    pub fn late_clock_bluetooth_a_turned_round(preset: &str) -> Scene {
        Self::late_clock_bluetooth_a_facing(preset, tandem::dgt::Orientation::Rotated)
    }

    /// Board A a USB board with every clock message late by as much as a USB board's ever
    /// is (the clock read out up to a second after the lever), and a pawn laid on its side
    /// never read.
    pub fn late_clock_a(preset: &str) -> Scene {
        Scene::with_a(
            preset,
            EmulatorConfig {
                clock_late_chance: 1.0,
                clock_late_ms: (200, 600),
                lying_pawn_flicker: 0.0,
                ..EmulatorConfig::default()
            },
        )
    }

    /// Boards whose clock is not plugged in.
    pub fn without_clocks(preset: &str) -> Scene {
        let a = EmulatorConfig {
            clock: None,
            ..EmulatorConfig::default()
        };
        let b = EmulatorConfig {
            clock: None,
            serial: "22222".into(),
            ..EmulatorConfig::default()
        };
        let rules = RulesPreset::built_in(preset);
        Scene {
            table: SimTable::new(&[a, b], 5),
            rules,
            t: 2000,
            timing: [Timing::default(); 2],
            outputs: Vec::new(),
            td: Vec::new(),
        }
    }

    pub fn wait(&mut self, ms: Millis) -> &mut Self {
        self.t += ms;
        self
    }

    fn act(&mut self, b: BoardId, a: PhysicalAction) {
        self.table.schedule(b, &[(self.t, a)]);
    }

    pub fn lift(&mut self, b: BoardId, s: &str) -> &mut Self {
        self.act(b, PhysicalAction::Lift { square: sq(s) });
        self
    }

    pub fn place(&mut self, b: BoardId, s: &str, p: char) -> &mut Self {
        self.act(
            b,
            PhysicalAction::Place {
                square: sq(s),
                piece: pc(p),
            },
        );
        self
    }

    pub fn lay_down(&mut self, b: BoardId, s: &str) -> &mut Self {
        self.act(b, PhysicalAction::LayDown { square: sq(s) });
        self
    }

    pub fn knock(&mut self, b: BoardId, from: &str, to: &str) -> &mut Self {
        self.act(
            b,
            PhysicalAction::Knock {
                from: sq(from),
                to: sq(to),
            },
        );
        self
    }

    pub fn press(&mut self, b: BoardId, c: Color) -> &mut Self {
        self.act(b, PhysicalAction::PressClock { by: c });
        self
    }

    /// A capture: the victim lifted, the capturer lifted and set down, pressed.
    pub fn take(&mut self, b: BoardId, from: &str, to: &str, p: char) -> &mut Self {
        let color = pc(p).color;
        self.lift(b, to)
            .wait(200)
            .lift(b, from)
            .wait(200)
            .place(b, to, p)
            .wait(300)
            .press(b, color)
            .wait(1500)
    }

    /// A plain move: lift, 300 ms in the hand, place, 300 ms, press.
    pub fn mv(&mut self, b: BoardId, from: &str, to: &str, p: char) -> &mut Self {
        let color = pc(p).color;
        self.lift(b, from)
            .wait(300)
            .place(b, to, p)
            .wait(300)
            .press(b, color)
            .wait(1500)
    }

    /// A TD decision at the cursor.
    pub fn td(&mut self, action: TdAction) -> &mut Self {
        self.td.push((self.t, action));
        self
    }

    /// What board `b` reported for square `s` (as the scripts name it, whichever way the
    /// board is turned) after a run, in order: (time, piece or none). The physics a
    /// scenario relies on (a piece never seen, say) is checked on this.
    pub fn seen(&self, b: BoardId, s: &str) -> Vec<(Millis, Option<Piece>)> {
        use tandem::arbiter::BoardEventKind;
        use tandem::dgt::{Message, field_to_square};
        let square = sq(s);
        let orientation = self
            .table
            .board(b)
            .map(|board| board.emulator().config().orientation)
            .unwrap_or_default();
        Rehearsal::events(&self.outputs)
            .into_iter()
            .filter(|ev| ev.board == b)
            .filter_map(|ev| match ev.kind {
                BoardEventKind::Message(Message::FieldUpdate { field, code })
                    if field_to_square(field, orientation) == Some(square) =>
                {
                    Some((ev.t_ms, code.piece().ok().flatten()))
                }
                _ => None,
            })
            .collect()
    }

    /// The clock messages board `b` sent after a run: (time, the side running).
    pub fn clock_seen(&self, b: BoardId) -> Vec<(Millis, Option<tandem::dgt::ClockSide>)> {
        self.clock_messages(b)
            .into_iter()
            .map(|(t, c)| (t, c.running))
            .collect()
    }

    /// The clock messages board `b` sent after a run, whole: (time, what the clock read).
    fn clock_messages(&self, b: BoardId) -> Vec<(Millis, tandem::dgt::ClockTimes)> {
        use tandem::arbiter::BoardEventKind;
        use tandem::dgt::Message;
        Rehearsal::events(&self.outputs)
            .into_iter()
            .filter(|ev| ev.board == b)
            .filter_map(|ev| match ev.kind {
                BoardEventKind::Message(Message::Clock(c)) => Some((ev.t_ms, c)),
                _ => None,
            })
            .collect()
    }

    /// When board `b` first reported `s` occupied (`standing`) or empty after `after`.
    pub fn first_seen(&self, b: BoardId, s: &str, after: Millis, standing: bool) -> Option<Millis> {
        self.seen(b, s)
            .into_iter()
            .find(|&(t, piece)| t > after && piece.is_some() == standing)
            .map(|(t, _)| t)
    }

    /// Did board `b`'s clock report `side` running in a message after `after`, up to
    /// `until`? (A press the clock never showed leaves no such message.)
    pub fn clock_showed(
        &self,
        b: BoardId,
        after: Millis,
        until: Millis,
        side: tandem::dgt::ClockSide,
    ) -> bool {
        self.clock_seen(b)
            .iter()
            .any(|&(t, running)| t > after && t <= until && running == Some(side))
    }

    /// Did board `b`'s clock tell two presses it never showed, in messages after `after` up
    /// to `until`: two messages in a row with the same side running, the other side's
    /// seconds changed between them (both players pressed between two polls)?
    pub fn clock_told_two_presses_missed(&self, b: BoardId, after: Millis, until: Millis) -> bool {
        let times: Vec<_> = self
            .clock_messages(b)
            .into_iter()
            .filter(|&(t, _)| t > after && t <= until)
            .map(|(_, c)| c)
            .collect();
        times
            .windows(2)
            .any(|w| match (w[0].running, w[1].running) {
                (Some(x), Some(y)) if x == y => {
                    w[0].side(x.other()).seconds != w[1].side(x.other()).seconds
                }
                _ => false,
            })
    }

    /// When board `b`'s clock first reported `side` running after `after`: the message of
    /// the press that set it running.
    pub fn running_reported(
        &self,
        b: BoardId,
        after: Millis,
        side: tandem::dgt::ClockSide,
    ) -> Option<Millis> {
        self.clock_seen(b)
            .into_iter()
            .find(|&(t, running)| t > after && running == Some(side))
            .map(|(t, _)| t)
    }

    /// When a press on board `b` whose message came at `message`, starting the clock's
    /// `running` side, is judged: `settle` after it, or at the reply's press message (that
    /// side stops running), if that comes first.
    pub fn judged_while(
        &self,
        b: BoardId,
        message: Millis,
        settle: Millis,
        running: tandem::dgt::ClockSide,
    ) -> Millis {
        self.clock_seen(b)
            .into_iter()
            .find(|&(t, side)| t > message && side != Some(running))
            .map_or(message + settle, |(t, _)| t.min(message + settle))
    }

    /// Runs everything (plus `tail` ms) through the production link code and the arbiter.
    pub fn run(&mut self, tail: Millis) -> Played {
        self.outputs.extend(self.table.run_until(self.t + tail));
        let mut cfg = ArbiterConfig::new(self.rules.clone());
        cfg.timing = self.timing.into();
        let mut arb = Arbiter::new(cfg);
        let mut raised = Vec::new();
        let mut td = self.td.clone();
        td.sort_by_key(|(t, _)| *t);
        let mut td = td.into_iter().peekable();
        let mut last = 0;
        for ev in Rehearsal::events(&self.outputs) {
            while let Some((t, _)) = td.peek()
                && *t <= ev.t_ms
            {
                let (t, action) = td.next().unwrap();
                collect(&arb.handle(&Input::Td { t_ms: t, action }), &mut raised);
            }
            last = ev.t_ms;
            collect(&arb.handle(&Input::Board(ev)), &mut raised);
        }
        for (t, action) in td {
            collect(&arb.handle(&Input::Td { t_ms: t, action }), &mut raised);
        }
        collect(&arb.finish_at(last + 5000), &mut raised);
        Played { arb, raised }
    }
}

fn collect(out: &[Output], raised: &mut Vec<Alert>) {
    for o in out {
        if let Output::AlertRaised(a) = o {
            raised.push(a.clone());
        }
    }
}

pub struct Played {
    pub arb: Arbiter,
    /// Every alert raised, in order.
    pub raised: Vec<Alert>,
}

impl Played {
    pub fn sans(&self, b: BoardId) -> Vec<String> {
        self.arb
            .game()
            .record()
            .iter()
            .filter(|p| p.board == b)
            .map(|p| p.san.clone())
            .collect()
    }

    /// Asserts that board `b`'s record reads `want` and that nothing was raised, each
    /// failure headed by `context` (the offset, what the board showed) and the dump.
    pub fn assert_read_quietly(&self, b: BoardId, want: &[&str], context: &str) {
        assert_eq!(self.sans(b), want, "{context}\n{}", self.dump());
        assert!(self.raised.is_empty(), "{context}\n{}", self.dump());
    }

    /// Alerts raised as (kind, square), in order.
    pub fn alerts(&self) -> Vec<(AlertKind, Option<String>)> {
        self.raised
            .iter()
            .map(|a| (a.kind, a.square.map(|s| s.to_string())))
            .collect()
    }

    /// Were all the alerts raised of this kind (or none raised)?
    pub fn raised_only(&self, kind: AlertKind) -> bool {
        self.raised.iter().all(|a| a.kind == kind)
    }

    pub fn dump(&self) -> String {
        let mut s = format!(
            "A: {:?}\nB: {:?}\n",
            self.sans(BoardId::A),
            self.sans(BoardId::B)
        );
        for a in &self.raised {
            s.push_str(&a.json_line());
            s.push('\n');
        }
        s
    }

    pub fn open(&self, kind: AlertKind) -> usize {
        self.arb.alerts().open().filter(|a| a.kind == kind).count()
    }

    /// The pair questions raised about the move at `ply`: their options.
    pub fn pair_questions(&self, ply: PlyRef) -> Vec<Vec<String>> {
        self.raised
            .iter()
            .filter_map(|a| match &a.subject {
                Subject::Pairs {
                    ply: p, options, ..
                } if *p == ply => Some(options.clone()),
                _ => None,
            })
            .collect()
    }
}

/// The offsets `0..n` a scene is played at, or only the one `TANDEM_OFFSET` names (to
/// study one run).
pub fn offsets(n: Millis) -> impl Iterator<Item = Millis> {
    (0..n).filter(|o| std::env::var("TANDEM_OFFSET").map_or(true, |v| v == o.to_string()))
}

/// Asserts that the physical situation a scene is about (`what`) happened at `least` of
/// its offsets at the least, so a scene whose timing drifted away from that situation
/// fails instead of passing. Skipped when `TANDEM_OFFSET` runs a single offset.
pub fn assert_happened(count: usize, least: usize, what: &str) {
    if std::env::var("TANDEM_OFFSET").is_err() {
        assert!(count >= least, "{what} only {count} times");
    }
}

pub fn k(kind: AlertKind, square: Option<&str>) -> (AlertKind, Option<String>) {
    (kind, square.map(str::to_owned))
}
