//! Property test: random legal matches under every preset, performed with random physical
//! noise (capture and castling orders, slides, adjustments, corrections, fast replies,
//! timing jitter, boards turned round, clocks on either side, Bluetooth boards, increments)
//! and replayed through the production decoder, link and arbiter: every move and drop comes
//! out exactly, and no alert is raised beyond the promotion question a pawn standing in for
//! a piece must raise (answered by the TD as the player announces it).

use crate::common::{alarms, arbitrate_with_td_timing, describe_alerts, sans};
use proptest::prelude::*;
use tandem::arbiter::Timing;
use tandem::dgt::{ClockSide, Orientation};
use tandem::rules::RulesPreset;
use tandem::sim::emulator::{ClockConfig, EmulatorConfig};
use tandem::sim::performer::{PromotionToken, Style};
use tandem::sim::table::{Chooser, Rehearsal};

#[derive(Clone, Debug)]
struct Setup {
    preset: &'static str,
    rotated: [bool; 2],
    white_right: [bool; 2],
    bluetooth: [bool; 2],
    increment_s: u64,
    promotion: PromotionToken,
    seed: u64,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop::sample::select(vec![
            "uscf-bughouse",
            "club-bughouse",
            "club-bughouse-corrected",
            "transfer-chess",
            "uscf-blitz",
        ]),
        any::<[bool; 2]>(),
        any::<[bool; 2]>(),
        prop::bool::weighted(0.25)
            .prop_flat_map(|a| prop::bool::weighted(0.25).prop_map(move |b| [a, b])),
        prop::sample::select(vec![0u64, 0, 2, 5]),
        prop::sample::select(vec![
            PromotionToken::LaidDown,
            PromotionToken::UprightPawn,
            PromotionToken::SparePiece,
        ]),
        any::<u64>(),
    )
        .prop_map(
            |(preset, rotated, white_right, bluetooth, increment_s, promotion, seed)| Setup {
                preset,
                rotated,
                white_right,
                bluetooth,
                increment_s,
                promotion,
                seed,
            },
        )
}

fn config(s: &Setup, i: usize) -> EmulatorConfig {
    let base = if s.bluetooth[i] {
        EmulatorConfig::bluetooth()
    } else {
        EmulatorConfig::default()
    };
    EmulatorConfig {
        serial: format!("{}", 30000 + i),
        orientation: if s.rotated[i] {
            Orientation::Rotated
        } else {
            Orientation::Normal
        },
        clock: Some(ClockConfig {
            white_side: if s.white_right[i] {
                ClockSide::Right
            } else {
                ClockSide::Left
            },
            base_ms: 300_000,
            increment_ms: s.increment_s * 1000,
            delay_ms: 0,
            ..ClockConfig::default()
        }),
        ..base
    }
}

fn play(s: &Setup) -> Result<(), TestCaseError> {
    let rules = RulesPreset::built_in(s.preset);
    let cfgs = [config(s, 0), config(s, 1)];
    let mut style = Style::blitz();
    style.promotion = s.promotion;
    let mut r = Rehearsal::new(rules.clone(), &cfgs, &style, Chooser::Random, s.seed);
    r.set_max_plies(30);
    let outputs = r.run(5000);
    let timing = [
        Timing::for_scan_period(if s.bluetooth[0] { 500 } else { 250 }),
        Timing::for_scan_period(if s.bluetooth[1] { 500 } else { 250 }),
    ];
    // The moves in the players' hands as a game ended: the TD hears those promotions too.
    let late: Vec<_> = r.after_end.iter().map(|&(b, m, _)| (b, m)).collect();
    let arb = arbitrate_with_td_timing(&rules, &outputs, Some(&r.truth), &late, timing);
    for &b in r.truth.board_ids() {
        let got = sans(arb.game(), b);
        let want = sans(&r.truth, b);
        // A move pressed just after the end on the other board cannot be told from one
        // pressed just before it whose clock message came late: it may be recorded.
        let late = r.after_end.iter().filter(|(x, _, _)| *x == b).count();
        let prefix_ok = got.len() >= want.len()
            && got.len() <= want.len() + late
            && got[..want.len()] == want[..];
        prop_assert!(
            prefix_ok || got == want,
            "{:?} board {}\n  got: {:?}\n want: {:?}\n{}",
            s,
            b,
            got,
            want,
            describe_alerts(&arb)
        );
    }
    let false_alarms = alarms(&arb);
    prop_assert!(
        false_alarms.is_empty(),
        "{:?}: false alarms\n{}",
        s,
        describe_alerts(&arb)
    );
    Ok(())
}

const CASES: u32 = 48;

proptest! {
    #![proptest_config(crate::common::proptest_config(CASES))]

    #[test]
    fn random_matches_with_physical_noise_come_back_exactly(s in setup()) {
        play(&s)?;
    }
}

/// Setups a sweep once failed on, replayed every run.
#[test]
fn setups_that_once_failed() {
    let cases = [
        // Five setups listed as still failing, passing since the session of 2026-12-08
        // from 01:22 UTC: a promoted piece lying on its side, moved unseen, first read as
        // a pawn on its landing after the reply had lifted its victim, that victim taken
        // for a piece gone before the move (the reply ruled out, the move guessed
        // elsewhere, the piece told missing). A lying piece shows when it stands up, not
        // when it lands (`order::gone_before_move`, the arbiter's `landed_at`).
        // The fresh sweep of seed 21100000373 (session of 2026-12-08 from 01:22 UTC) on
        // fbdde3a: on a USB board, a rook promoted on a8 and laid on its side, its `Rc8`
        // pressed with nothing shown read as `Rb8` with no alert (c8 showed a pawn for one
        // pass after), then its `Rxc7` read as `Rb4` with the c-pawn told missing.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 4_186_973_486_826_302_529,
        },
        // The fresh sweep of seed 11900000029 (session of 2026-11-28 from 07:46 UTC) on
        // 6521b75, each failing the same way on 5cee5f0, where it began, each with pawns
        // promoted and laid on their side: a lying knight's `Na6` read as `Nc6`. (The
        // other two pass since, `setups_that_once_failed`: a lying knight's `Nb5` read as
        // `P@b5` since the session of 2026-11-28 from 14:02 UTC, and `Bc1 P@b3 Ne2 Qd8`
        // read with the drop three plies late since the session from 20:23 UTC.)
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 7_501_272_559_596_527_190,
        },
        // The fresh sweep of seed 7745966692 (session of 2026-11-27 from 20:17 UTC) on
        // 7b9a31a, failing the same way on 29f74a0, with a promoted pawn laid on its side:
        // a knight told missing from h6 beside the lying h1 queen. (The other false alarm
        // of that sweep passes since the session of 2026-11-29 from 23:42 UTC:
        // `setups_that_once_failed`.)
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 16_106_194_586_732_007_011,
        },
        // The fresh sweep of seed 2727 (20,000 matches a preset: 1 of 100,000) on the
        // session's final sensing (2e3425b), failing the same way on 1997b76: a
        // promoted piece laid on its side on h8 and a false `missing` pawn on e4.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_949_036_265_561_425_735,
        },
        // The fresh sweep of seed 5353 on a9fff12: two promoted pawns laid on their side,
        // a false `missing` on d2 and an unanswered "where did it go".
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 7_839_335_752_471_387_364,
        },
        // In Transfer Chess on a Bluetooth board turned round whose clock messages came
        // late, White's `P@d5` in front of its own pawn and Black's `exd4` at once: the
        // pass that showed the drop showed e5 empty first, d4 changed only in the next,
        // and White's press, judged then, read as the push `d5` beside the whole reply
        // `e5` to d4, then Black's as `P@d4` with the e-pawn told missing. A pawn goes
        // diagonally only by taking: after the push d4 stood empty. The fresh sweep of
        // seed 21100000373 (session of 2026-12-08 from 01:22 UTC).
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_769_989_499_725_504_680,
        },
        // In Transfer Chess on a Bluetooth board, White's `Nc3+` and Black's `Nb5` under
        // presses the clock never showed, tied with `N@c3 Nxb5` (a desync, "fits several
        // moves"). But b5 showed left 130 ms of scan after the pass had passed c3 still
        // empty: read as the drop, Black's knight took on b5 less than a lever and a
        // glance after White's knight landed, so that reading is ruled out. The fresh
        // sweep of seed 11700000019 (session of 2026-11-28 from 07:46 UTC), listed since
        // (then read as `b3 Nxb5 N@c3`).
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 7_795_872_037_842_725_479,
        },
        // Two Bluetooth boards: Black's `Qg6` stood two passes, its press message 0.8 s
        // late; White dropped a pawn on f6 beside it, and the queen was lifted for `Qg4`
        // before the press was judged, g6 shown left in the pass that showed f6's pawn:
        // read as the queen gone on to f6 and taken there at once (`Qf6 P@g5 Qxg5`, then a
        // desync). Nothing of White's could take on f6: a piece that could only have been
        // dropped there took nothing. The fresh sweep of seed 11001059371 (session of
        // 2026-11-28 from 04:48 UTC), listed since.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 18_305_935_789_336_716_746,
        },
        // Black's queen d8-d7 by way of c8 on a Bluetooth board, shown on c8 for one pass;
        // in that pass, after c8, d1 showed White's queen lifted and e1 the queen (its
        // slide d1-e1-f1), and c8 showed left only in the next. Read as `Qc8` that stood
        // through White's `Qe1`, then `Qd7 Qf1` under Black's next press. But the scan
        // passes c8 before d1: the queen may have left c8 before the lift, so nothing
        // showed it standing there while White moved. The fresh sweep of seed
        // 20100000349 (session of 2026-12-07 from 20:03 UTC), listed since.
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 11_983_516_012_338_200_969,
        },
        // White's `e4` (the pawn from e3) and Black's `Be3` (the bishop from d4), both
        // presses between two polls of the clock and only Black's time gone down: the
        // board fit `P@e4 Bxe3` as well, a desync at Black's press. But e3 showed empty
        // more than a scan before e4 showed the pawn: read as the drop, Black took on e3
        // before White's drop stood, so that reading is ruled out. The fresh sweep of seed
        // 18100000271 (session of 2026-11-29 from 20:29 UTC), listed since.
        Setup {
            preset: "transfer-chess",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 389_287_085_340_811_057,
        },
        // A promoted piece laid on its side moved unseen and pressed, the press held while
        // the reply began, and the presser's own piece lifted for the next move only after
        // the reply was pressed: read as that piece's step, never shown landing (`c3` for
        // the lying queen's `Qa7`, then `c4` as `c3-c4` and the pawn missing from c3).
        // Its lift showed more than two scans after the press message; a piece leaves its
        // square before the lever, so such a reading is ruled out. The fresh sweep of seed
        // 19100000321 (session of 2026-11-30 from 01:59 UTC), failing the same way on
        // 24a1ad0. Two listed since the session of 2026-11-28 from 07:46 UTC and 2026-11-29
        // from 08:42 UTC (a lying queen's `Qd1+` then `Bc5` told a desync; a lying
        // knight's `Ned7` read as `Rh7`) pass since too, and fail without the rule.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 4_181_932_961_978_905_475,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_996_691_863_447_241_925,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_226_450_172_633_898_024,
        },
        // A press whose message came while the press before it still waited for the
        // reply, the opponent's next press queued behind it, never learned that press had
        // answered it: read with the opponent's move and the presser's next one (three
        // plies, `h5 g6 Qc7` for `h5`), the record a ply behind from there, then a desync.
        // The fresh sweep of seed 18900000313 (session of 2026-11-30 from 01:59 UTC),
        // failing the same way on 24a1ad0. Two listed since 2026-11-24 and 2026-11-27
        // (a `Qe7` read as `P@b4 Qxb4`; `h3 Qg8 g4` read as `P@d6 Qxd6 h4` beside a
        // lying queen) pass since as well, and fail without the fix.
        Setup {
            preset: "uscf-blitz",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 3_727_449_609_064_301_805,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 3_982_172_476_904_729_215,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 17_642_500_418_390_248_680,
        },
        // The fresh sweep of seed 7745966692 (session of 2026-11-27 from 20:17 UTC) on
        // 7b9a31a: on board B a press the board fits as two readings of `cxd6`, the
        // pawn's step never shown landing (`d5 cxd6` en passant or `d6 cxd6`), told as a
        // desync. Passes since the two plies tied so are recorded and asked about (the
        // session of 2026-11-29 from 23:42 UTC, with the setup below).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 9_783_574_092_978_249_246,
        },
        // The fresh sweep of seed 18400000283 (session of 2026-11-29 from 23:42 UTC), failing
        // the same way on 64ff07a: on a Bluetooth board White pressed with the b-pawn in
        // hand and Black's c-pawn took it en passant before the board showed it on b4, the
        // two plies read together at Black's press, `b3 cxb3` and `b4 cxb3` tied and a
        // desync raised besides the TD's question. Passes since: the one step is recorded
        // and the TD asked, as when the step is read first.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 942_410_015_765_690_579,
        },
        // The fresh sweep of seed 17800000257 (session of 2026-11-29 from 20:29 UTC) on
        // b2d20c4, where it began: on a Bluetooth board, Black's `d6` pressed, White's
        // `Nf3` and press at once, the clock showing neither press, and `d5`: read as the
        // double step `d5`, the knight's move unexplained, then `Ng1g5` illegal. Passes
        // since: a pawn that stood on its single step while the opponent made a whole move
        // was pushed one step and pressed.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_742_312_440_161_802_532,
        },
        // The same sweep: on a Bluetooth board turned round, Black's queen sliding to f5
        // shown on e6 and White's queen sliding to f6 shown on g6, each stop read as a
        // move: `Qe6 Qg6 Qf5 Qf6` for `Qf5 Qf6`. Passes since, with the rules of the
        // scan's pass below.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_123_676_955_446_730_672,
        },
        // The same sweep: on a Bluetooth board, White's bishop sliding a6-d3, shown on c4
        // for one pass, and Black's queen's step e5-f5 shown in the next pass before c4
        // showed left: read as `Bc4 Qf5 Bd3 Qg5` for `Bd3 Qg5`. Passes since: a stop shown
        // for one pass counts only a lift the scan showed before the piece left it.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 10_710_025_667_894_303_660,
        },
        // The fresh sweep of seed 17700000251 (session of 2026-11-29 from 17:45 UTC) on
        // db446bd, failing the same way on 712668b, where it began: on a Bluetooth board,
        // White's `Bf4` standing on f4 when its press message came, Black's `Qd3` begun
        // and pressed, and the bishop lifted for `Bd2` and shown on e3 on its way, 493 ms
        // after the reply's first report (less than a scan), before White's press was
        // judged: read as `Be3`. Passes since: a landing reported later than the pass that
        // showed the reply could have shown it came after the reply.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 17_352_813_774_571_649_940,
        },
        // The fresh sweep of seed 17600000241 (session of 2026-11-29 from 17:45 UTC) on
        // 40dc342, failing the same way on 712668b, where it began: on a Bluetooth board
        // turned round, White's bishop back g5-c1 (White holding a bishop), c1 reported
        // filled 215 ms before g5 emptied in the same pass (g5 28 fields on in its scan),
        // and Black's queen onto g5 at once: read as `B@c1 Qxg5`. Passes since: a lift
        // shown as many fields after the landing as the scan takes to reach it is the
        // mover's own hand.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 5_188_965_768_844_058_238,
        },
        // The fresh sweep of seed 17100000223 (session of 2026-11-29 from 14:55 UTC) on
        // 6dc0431, failing the same way on 6b0a360: in Transfer Chess on a Bluetooth
        // board, the bishop's `Ba3` shown on b4 on its way and taken at once by `bxa3`
        // before a scan passed a3, the capture's press message late (it came with the
        // reply's): read as `Bb4` and `P@a3`, the bishop told missing from b4 and the pawn
        // from b2. Passes since: the capture alone reads only as a drop taken at once by
        // the bishop and taken back, presses unseen, and the bishop had left b4 when `Bb4`
        // was recorded: the last ply is read again with the capture, `Ba3 bxa3`.
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 1_811_722_265_910_807_019,
        },
        // The fresh sweep of seed 14400000109 (session of 2026-11-29 from 00:01 UTC), failing
        // the same way on e35ac1b: in Transfer Chess on a Bluetooth board, the queen's
        // `Qb6` slid through b5 (reported there) and taken at once by `axb6` before a scan
        // passed b6, read as `Qb5` at the press message (which came 50 ms after the lever),
        // then `P@b6` and the pawn's `a7h5`. Passes since the same change as the one
        // above: `Qb6 axb6`.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 17_552_888_235_254_028_988,
        },
        // The fresh sweep of seed 17000000211 (session of 2026-11-29 from 14:55 UTC) on
        // cacf6b3, failing the same way on 6b0a360: on board B a fast pair the clock never
        // showed (`Qd7 Nh3`), then `Qxd5` taking a knight, the three read one press
        // message at a time; White on A dropped the knight, and its grace ran out 190 ms
        // before board B's pending press recorded the capture: told `unexplained`. A drop
        // now waits while the partner board still judges a press.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 16_697_345_110_918_725_922,
        },
        // The session of 2026-11-29 from 11:52 UTC. The fresh sweep of seed
        // 16300000181's two, each failing the same way on 74d1576, where the session
        // began. One passes once a castling under way stays on the back rank: on a
        // Bluetooth board, `gxh8=N` laid on its side, the rook's square shown empty
        // only after the press message, read as `g8=N` because Black's king, set down a
        // moment on e6 on its way to d7, passed with the rook's lift for castling.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 14_646_388_188_691_884_001,
        },
        // The other passes once the question where a lying piece went names the piece,
        // and the answer does: with a knight and a bishop laid on their side on b1 and
        // a1, the bishop's unseen `Bac3` was recorded as the knight's `Nc3`. Three
        // listed as still failing since earlier sessions pass with it: seed 7272's
        // `Qc2` read as `Bc2`, seed 9539392014's `Rxa2` read as `Nxa2+`, and seed
        // 9191's lying rook's `Re7+` read as the lying bishop's `Be7`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_879_846_946_295_390_046,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 13_746_980_937_529_164_841,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_877_118_498_884_653_550,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 12_368_408_202_403_378_643,
        },
        // And the fresh sweep of seed 16500000191's, failing the same way on 74d1576,
        // passes once another piece of the stepping pawn's side landing on the step's
        // square is no sight of the pawn: in Transfer Chess on a Bluetooth board,
        // Black's `c5` never shown landing, taken at once en passant (`bxc6`), and
        // Black's knight set down on c5 before the capture was judged, read as `c6
        // bxc6` with no question asked.
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 18_233_855_438_972_357_144,
        },
        // The session of 2026-11-29 from 08:42 UTC. The fresh sweep of seed
        // 15800000163's, failing the same way on f7f3c2b, where the session began,
        // passes once a stop on the piece's own way counts like one off it: on a
        // Bluetooth board, `Bf5` (its press message a second late), `g4` and `Bxg4`
        // read as one slide `Bg4`, the g-pawn missing, though the bishop stood on f5
        // while White's pawn was lifted and set down.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 8_733_847_805_496_134_609,
        },
        // And once a lying promoted piece's move taken where it landed, the board
        // having read a pawn there for a pass or two, is asked of the TD against a pawn
        // dropped there and taken (the test TD answers): the fresh sweep of seed
        // 15700000159's `Nc2+` read as `P@c2`, failing the same way on f7f3c2b, and six
        // listed as still failing since earlier sessions, each a lying piece's move
        // read as a pawn drop (`Bd3`, `Rc7+`, `Be7`, `Nf8-d7`, seed 2468's `Nc2+`, and
        // one of seed 3131's).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 11_442_838_542_028_571_948,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 1_459_470_982_181_200_957,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 3_424_918_737_534_874_076,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 1_978_524_881_190_081_980,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 11_696_502_281_993_643_141,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 10_949_124_712_988_799_891,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 17_291_815_108_637_114_877,
        },
        // One that passes since the session of 2026-11-29 from 05:35 UTC, once a
        // promoted pawn's square empty is no pawn laid down while the opponent's press
        // waits to be judged: the fresh sweep of seed 15500000153's knight left upright
        // on g8, lifted at once after Black's press and held for two passes, its `Nf6+`
        // read as `P@f6`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 12_743_124_151_378_826_799,
        },
        // One that passes since the session of 2026-11-29 from 05:35 UTC, once three
        // presses read together rule out a reading whose first move by the player whose
        // first press showed no move left its square more than a scan after that press:
        // the fresh sweep of seed 15000000137's `Q@d2+` on a Bluetooth board, taken at
        // once by the knight from e4, then `Qc5`, read as `Qxe4 Q@c6 Qxc6` (the queen's
        // round trip, shown only by e4 emptied), the knight told unexplained on d2.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 37_025_608_848_159_390,
        },
        // Two that pass since the session of 2026-11-29 from 05:35 UTC, once a reading
        // whose opponent's move left its square more than a scan after that player's
        // press message (a press that showed no move) is no reading: the fresh sweep of
        // seed 15000000137's `B@b3 Qxb3` on a Bluetooth board, read as `gxh4 Qg4` and
        // told a desync, and its `P@f2+ Kxf2`, never shown, Black's king lifted for its
        // next move before White's press was judged: tied with `Kc7 Kf2` and a bishop's
        // drop, told a desync.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 3_433_862_770_645_622_211,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 11_848_438_511_507_840_663,
        },
        // Three that pass since the session of 2026-11-28 from 17:00 UTC. Two once the
        // reply read alone as taking on the last move's landing, with its piece standing
        // beside that square, puts the last move right (the piece shown once short of its
        // landing, and taken there at once): `Qc4+ Kxc4` read as `Qd4+ Kxd4` on a
        // Bluetooth board, the queen's slide shown on d4 (the fresh sweep of seed
        // 13000000067), and `f4 Bxf4` read as `P@g3 Bxg3`, the pawn first set down on g3
        // (seed 7272's). And once an illegal reading whose piece
        // left its square more than a scan after its landing showed is no reading: `B@g5
        // Be7` read as `Bc1-g5` with c1 lifted to be adjusted after Black's press, then
        // `B@c1` (the fresh sweep of seed 13200000073).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 3_682_715_304_615_270_510,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 9_460_129_083_075_479_474,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 15_309_061_511_366_460_769,
        },
        // Six that pass since the session of 2026-11-28 from 14:02 UTC, each with a piece
        // laid on its side, once a pawn read where the lying piece could have gone counts
        // as taken when it emptied as an opponent's piece that could take there was
        // lifted (the reply landing there), and as the lying piece while that piece stands
        // (up to a hand's move) or once it landed elsewhere or the pawn showed again:
        // `P@e7+ Bxe7` beside a lying knight on c8 (the fresh sweep of seed 12500000051)
        // and `P@d3 Rxd3` beside a lying bishop (seed 3838's), each read as the lying
        // piece's move; `P@c6 Nxc6` read as `Qa8-c6` (seed 2718281828's); a lying knight's
        // `Nb5` read as `P@b5` (seed 11900000029's); the lying queen's `Qe6+`, taken at
        // once, read as `P@e6` (seed 10344080432's); a lying knight's `Nb3` read for `b3`
        // (seed 2468's).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 15_037_623_788_722_120_849,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_947_367_952_538_263_714,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 3_851_944_688_063_177_754,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_994_792_436_062_536_604,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 13_998_363_911_974_168_303,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 16_664_549_451_546_853_318,
        },
        // The fresh sweep of seed 12600000053 (session of 2026-11-28 from 10:58 UTC) on
        // 9fb78b4, passing on a0fce72: a regression of e6e0d4a's stop check. On a
        // Bluetooth board the rook stood on h7 a while, went on to g8 and was pressed; the
        // reply's lift was reported just before h7 showed empty (the scan passing d6
        // first), and `Rg8` was read as `Rh7`. The stop counts only if the reply was set
        // down too while the piece still showed on it.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 1_997_240_408_607_297_430,
        },
        // The fresh sweep of seed 12300000043 (session of 2026-11-28 from 10:58 UTC),
        // failing the same way on a0fce72, where it began: a lying queen on b1 read as a
        // pawn for 636 ms (three passes), its token taken for an upright pawn, then told
        // `missing` once Black's king moved, the king's old square in the earlier reports
        // taken for a piece set down since (see
        // `sensing_promoted::a_lying_queen_read_as_a_pawn_for_a_while_is_no_piece_missing_once_it_lies_unread`).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 7_085_566_638_365_497_772,
        },
        // The `TANDEM_RANDOM=1` run of the session of 2026-11-28 from 10:58 UTC, failing
        // the same way on a0fce72, where it began: `Rxa5 Na2 Ra8`, the three presses inside
        // the clock's seconds, read as `Rxa5 Na2 Ra7` (the rook back where it took from
        // showed there before it took; see
        // `sensing_press_timing::a_capture_a_fast_reply_and_the_capturer_back_on_its_square_are_three_moves`).
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 15_100_885_750_182_576_911,
        },
        // The fresh sweep of seed 12100000037 (session of 2026-11-28 from 10:58 UTC),
        // failing the same way on a0fce72, where it began: on a Bluetooth board, `Qa5 Ne5
        // Qxe5` read as `Qe5`, the press message a second late (see
        // `sensing_moved_on::a_queen_stopped_off_its_way_then_taking_the_reply_is_two_moves`).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 5_214_095_616_443_763_230,
        },
        // The fresh sweep of seed 11700000019 (session of 2026-11-28 from 07:46 UTC) on
        // fd90d83, failing the same way on 5cee5f0: `b8=N+ Rxb8`, the knight laid on its
        // side and taken at once, read as `bxa8=N R@b8` (see
        // `sensing_promoted::a_promotion_laid_down_and_taken_at_once_is_no_capture_promotion_beside_it`);
        // and, put right by the same change, `g1=Q+ Rxg1` read as `gxf1=Q R@g1`, listed as
        // still failing since the session of 2026-11-28 from 01:51 UTC.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 17_758_454_932_605_815_382,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 6_133_232_080_332_804_654,
        },
        // The fresh sweep of seed 11600000017 (session of 2026-11-28 from 07:46 UTC),
        // failing the same way on 5cee5f0, where it began: a queen laid on its side, its
        // unseen `Qd6` read as `P@d6` (Black's queen lifted to reply before d6 read as a
        // pawn for a pass, so no reading showed exactly; see
        // `sensing_promoted::a_lying_queen_read_as_a_pawn_only_after_the_reply_began_is_no_pawn_drop`).
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 17_982_318_610_524_617_444,
        },
        // Listed as still failing since the sessions of 2026-11-27 from 20:17 UTC and
        // 2026-11-28 from 01:51 UTC, put right by the same change: a lying bishop's `Be3`
        // read as `P@e3`, and a lying rook's `Rc2+` as `P@c2`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 18_358_088_635_683_289_887,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 2_301_821_781_774_425_012,
        },
        // A fresh `TANDEM_RANDOM=1` run (session of 2026-11-28 from 07:46 UTC): `g3 P@g5
        // Bxg7`, White's hand on the pawn behind the drop at once, read as `g5 Bg7` (the
        // bishop's own capture taken back, so g7 stood empty when the press was read), and
        // a pawn drop on board A later told unexplained (see
        // `sensing_pawns::a_pawn_dropped_in_front_of_its_own_pawn_the_pawn_behind_lifted_at_once`).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 14_711_634_568_731_482_078,
        },
        // The fresh sweep of seed 10816653826 (session of 2026-11-28 from 04:48 UTC): on a
        // Bluetooth board `Ra3 N@h3+ Rxh3`, the rook's press message late, read as one
        // illegal rook move `Ra1h3` (see
        // `sensing_press_timing::a_rook_s_press_late_the_knight_dropped_and_taken_at_once_is_no_rook_jump`).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 3_033_709_512_763_809_698,
        },
        // The fresh sweep of seed 10630145812 (session of 2026-11-28 from 01:51 UTC): in
        // Transfer Chess, `exf8=.` on board A (its press message late), the bishop it took
        // dropped on board B at once and told unexplained: a capture-removal sends two
        // pieces, and only the pawn paid a drop waiting for its capture (see
        // `scenarios::both_pieces_of_a_transfer_removal_capture_pay_drops_seen_before_it`).
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 12_986_522_726_857_394_547,
        },
        // The fresh sweep of seed 10723805294 (session of 2026-11-28 from 04:48 UTC): a
        // lying knight's unseen `Nf2` and the reply `b3`, b2 shown empty just after the
        // press message, read as `Nxb2 P@b3` (see
        // `sensing_promoted::a_pawn_lifted_just_after_a_lying_queen_s_unseen_move_and_pushed_is_no_capture_and_drop`).
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 8_781_095_650_988_050_184,
        },
        // A promotion whose token names no piece, read with the plies after it (presses
        // unseen), those plies legal only if it is no queen (session of 2026-11-27 from
        // 23:09 UTC; see
        // `sensing_promotion_answered::an_upright_pawn_promotion_answered_before_the_clock_showed_it_is_read_as_the_reply_allows`).
        // Seed 2024's sweep: `exf1=N Ra2 Bd6` (an upright pawn on f1) read as `Ba3 Rxa3
        // exf1=Q+`, then a desync.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 11_920_993_448_729_155_752,
        },
        // Seed 2711275's sweep: a laid-down pawn's promotion `cxd1=B` read as `c1=B`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 2_093_983_684_283_601_154,
        },
        // Seed 9327379053's sweep (session of 2026-11-27 from 23:09 UTC, on ca8719d), the
        // same class: failing on b5cbb66 too, passing with the rule below.
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 4_062_924_390_033_234_152,
        },
        // Seed 6262's sweep (2026-11-24 late night), on a Bluetooth board: `b3 b4 Rxc6`,
        // three presses within a second, read as `Rxc6 b4 b3`. White's rook was lifted as
        // Black's reply began and set down on c6 after it, first reported more than a scan
        // after the reply's first report: White's next move, not a correction of b3.
        // Passes since the session of 2026-11-27 from 23:09 UTC (`order::moved_after_reply`
        // looks at the mover's landing too); no scene of its own.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 3_973_772_983_628_709_583,
        },
        // Seed 8544003745's sweep (session of 2026-11-27 from 23:09 UTC, on b5cbb66):
        // `e1=R Qb5`, Black's press unseen, read as `P@b5 Qxb5` and then `e1=R`. The pair
        // was read with the promotion as a queen, which checks the king on f2 and makes
        // `Qb5` illegal; the spare rook on e1 names it (see
        // `sensing_promotion_answered::an_underpromotion_answered_before_the_clock_showed_it_is_read_with_its_piece`).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 11_951_181_143_202_607_691,
        },
        // Two presses unseen, the opponent's piece that stood between lifted again for its
        // next move before the press was judged (session of 2026-11-27 from 23:09 UTC; see
        // `sensing_press_timing::a_bishop_on_past_the_reply_read_after_the_reply_s_pawn_is_lifted_again_is_three_moves`).
        // Seed 1414's sweep: `Bd4 a3 Bc3 a4` read as `Bc3 a4`, a2 then told missing.
        Setup {
            preset: "transfer-chess",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 11_058_760_917_576_338_962,
        },
        // Seed 7272's sweep: `Ke1 Nc6 Kf2 Na5` read as `Kf2 Nb8a5` (illegal), the king's
        // stop on e1 unseen.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 16_914_105_538_463_092_556,
        },
        // Seed 5744562646 (session of 2026-11-27 from 20:17 UTC): `Q@d8+ Kxd8`, the queen
        // never shown, read as the lying bishop's `Bd7+` (its only move the board would not
        // show) and `Kd8`, though the board read the bishop on c8 (a lying pawn, for a pass)
        // after White's press. See
        // `sensing_promoted::a_lying_queen_read_where_it_stood_after_a_press_that_showed_nothing_made_no_move`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 615_846_284_100_051_014,
        },
        // Seed 4795831523 (session of 2026-11-27 from 20:17 UTC): the lying queen's unseen
        // Qf1-e2+, the record guessing d1 and asking the TD; White's Bd2, illegal with the
        // guess, read with Black's ply as `P@d2 Bxd2` (a drop taken at once, the only pair
        // whose landings all show), and the TD's answer refused. See
        // `sensing_promoted::a_lying_queen_s_unseen_move_blocked_by_the_guess_is_no_pawn_dropped_and_taken_at_once`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 6_458_533_660_381_997_287,
        },
        // Seed 2236067977 (session of 2026-11-27 from 17:20 UTC; single board, no promotion
        // involved): `f3 Ne4 f4 Nf6`, the knight out and back with presses the clock never
        // showed, read as `f4 e6`. See
        // `sensing_press_timing::a_knight_out_and_back_behind_presses_the_clock_never_showed_is_four_moves`.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 9_043_273_115_919_886_056,
        },
        // Seed 3141592653 (session of 2026-11-27 from 17:20 UTC): gxf1=B with the pawn left
        // upright, a queen on record mating; White's hand on the h3 bishop before Black's press
        // was judged read as a bishop missing after a mate. See
        // `sensing_promotion_question::a_reply_to_a_promotion_that_mates_only_as_a_queen_is_no_missing_piece`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 17_686_886_827_715_726_253,
        },
        // Seed 2718281828: Nc4 a5 Nxa5, the first two presses unseen by the clock, read as
        // Na3-b5 (never shown) with the a6 pawn lifted to take it. See
        // `sensing_press_timing::a_knight_on_a_fast_pawn_step_and_the_knight_taking_it_are_three_moves`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 4_607_419_887_488_030_525,
        },
        // Seed 2718281828: an upright promoted bishop's Bd8-e7 read as P@e7 on a Bluetooth
        // board. See `sensing_promoted::an_upright_bishop_moved_in_one_movement_on_a_bluetooth_board_is_no_pawn_drop`.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 11_031_269_253_640_342_172,
        },
        // Seed 1414213562: R@e1 with Black's hand on the a1 rook at once, read first as the
        // rook's jump a1-e1 and raised. See
        // `scenarios::a_rook_dropped_and_the_other_rook_taken_at_once_is_no_rook_jumping_a_pawn`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 484_464_467_338_903_777,
        },
        // Seed 1414213562: a5 bxa5 dxc6 before a late press message, the victim's lift taken
        // for Black's own change. See
        // `sensing_press_timing::a_victim_lifted_first_and_the_next_move_begun_before_a_late_press_message`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 6_842_752_219_659_179_068,
        },
        // Seed 7979: `N@f4 Nxf4+ gxf4`, the drop taken at once, and White's press message so
        // late that Black's came close behind it: White's press, no reading explaining it
        // alone, was told at once as a desync while the three plies read together came
        // out right. See `sensing_taken_drops::a_drop_taken_at_once_and_taken_back_at_once_raises_no_desync`.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 17_613_136_041_526_655_569,
        },
        // On a Bluetooth board, a bishop's slide read a square long: its next move, begun
        // through the square beyond once the reply was under way, taken for the end of
        // this one (seed 6161: `Bf4` as `Bg5`; seed 9494: `Bf6` as `Be5`). See
        // `sensing_moved_on::a_bishop_that_stood_as_the_fast_reply_began_then_slid_on_stopped_where_it_stood`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 9_988_340_430_617_653_221,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 17_277_660_358_386_681_139,
        },
        // Seed 4646: `g6 Ng5` (the reply made as the other board's game ended) asked as a
        // pair the board cannot tell from `P@g6 Nxg5`: the test TD answers from the moves
        // made as the match ended too.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 17_932_258_074_781_777_817,
        },
        // Seed 1212, 2026-11-27: `f6 O-O`, both pressed inside the clock's second, and the
        // king two squares from where the record had it alerted as displaced (castling was
        // no move the king "could reach"). See `sensing_press_timing::castling_as_a_fast_reply_never_shown_by_the_clock_raises_no_displaced_king`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 978_794_886_060_918_801,
        },
        // Twins, the same board after both plies and only the reserves telling them apart,
        // each the drop with its neighbour taken read as the move and the reply landing
        // where it stood; asked of the TD since 2026-11-27 (`sensing_twins`). Seed 7171,
        // 2026-11-25: `N@f4 Nxh3` read as `Nf4 Nh3`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 18_163_753_392_913_947_327,
        },
        // Seed 1212, 2026-11-27: `P@a5 Qxa4` read as `a5 Qa4`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 5_289_759_142_456_182_857,
        },
        // A bishop dropped and taken at once, never shown, its press read only with the
        // next two (three presses judged together): the checking knight taken, and no
        // note of the drop kept, so the partner's bishop drop on board A was never told
        // by it (an `unexplained` alarm, and the record wrong): seed 4321's sweep,
        // 2026-11-25.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 2_836_279_534_506_761_243,
        },
        // A check taken back on its landing (Qxd7+ Nxd7), both pressed within one of the
        // clock's seconds, and nothing after: the pair the clock never showed was not
        // recorded (a reply landing where the first move landed was never taken for one):
        // seed 2024's sweep, 2026-11-25. See `sensing_press_timing::a_check_taken_back_on_its_landing_both_pressed_unseen_then_a_long_think_is_recorded`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 8_074_416_688_096_188_628,
        },
        // A queen laid on its side moved unseen with check and taken at once by the
        // knight, the knight's lift reported before the press message: read as the queen
        // taking the knight and a knight dropped, an illegal reply (and three more after
        // it): seed 2024's sweep, 2026-11-25. See `sensing_promotion_question::a_hidden_piece_taken_at_once_where_it_went_is_no_capture_of_the_taker`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 4_428_374_709_561_605_299,
        },
        // A double step scanned on its way (b3) and landed (b4) only after the en passant
        // reply's first lift was reported, read as `b3 axb3`: seed 2024's sweep,
        // 2026-11-25. See `sensing_moved_on::a_double_step_shown_on_its_way_and_landed_only_beside_the_en_passant_lift`.
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 14_555_211_308_821_268_971,
        },
        // A capture with both squares clear for a pass, read as a capture beside it and
        // the recapture (the square never reported changing), the piece "taken" then seen
        // standing, one its owner holds none of: seed 8181's sweep (Qxc7 read as Qxb6
        // cxb6, then Q@c7; 2026-11-24 late night) and seed 8080's (Nxf2 read as Nxg3
        // fxg3; 2026-11-24 evening). The third, seed 8080's axb1=R read as Qxb1, passes
        // with this and the rule for a pawn taken at once where a lying piece could have
        // gone. See `sensing_press_timing::a_capture_with_both_squares_clear_for_a_pass_and_a_fast_reply_is_no_capture_beside_it`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 11_995_360_126_958_257_247,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 4_657_031_778_614_653_464,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 13_705_014_770_787_178_326,
        },
        // Seed 8181's sweep, 2026-11-24 late night: d7-d5 taken at once (cxd5), d5 read as
        // a pawn for under two scans, where Black's promoted queen lying on g2 could have
        // gone: read as the queen's move, though that left d7 missing. See
        // `sensing_promoted::a_pawn_taken_at_once_where_a_lying_queen_could_have_gone_is_the_pawn_s_move`.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 14_765_828_897_323_160_779,
        },
        // Seed 8181's sweep, 2026-11-24 late night: after a mate on board A ended the
        // match, Black on board B moved a promoted bishop laid on its side and pressed;
        // the TD was asked where it went, though nothing of it could be recorded. See
        // `scenarios::a_hidden_move_on_the_other_board_after_the_mate_asks_nothing`.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 10_160_697_983_184_987_406,
        },
        // Seed 8181's sweep, 2026-11-24 late night: a spare queen set on d8 (a Bluetooth
        // board turned round) and taken by the king at once, the king's lift read before
        // her; the press judged from the board with the king on d8 read the promoted piece
        // from the king (a king "token") and asked which piece, then called the queen
        // missing. See `sensing_promotion_answered`.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 2_927_372_978_847_382_181,
        },
        // Seed 6262's sweep, 2026-11-24 late night: bxa8 with the pawn laid on its side,
        // the reply's victim (a knight on a4) lifted before the press message, the pawn's
        // first reading (a lying pawn's flicker) after that: the knight was called missing,
        // as if gone before the promotion landed. See `sensing_promotion_answered`.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_463_327_353_504_285_509,
        },
        // Found by seed 6262's sweep on the first version of the rule that a piece still on
        // its landing at the press keeps the move shown: a slide's stop (Bd4-c5-b6, c5
        // reported well before d4 emptied) counted as seen on c5 when d4 emptied, and the
        // reply begun 54 ms later made b6 the next move. The scan saw the piece on a square
        // when it reported that square, not at every later snapshot still showing it.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 14_298_560_613_294_635_742,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 11_158_717_499_246_626_527,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 15_973_871_347_669_212_379,
        },
        // Rf1-h1 shown on h1 58 ms before the press message; the reply Ng8 and the rook's
        // next move h1-f1, stopping on g1, before the press was judged: read as `Rg1`. The
        // rook stood on h1 at the press (a move on and the lever take longer), so g1 was
        // the next move (`sensing_moved_on`). Seed 3322's sweep, 2026-11-24 night.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 1_475_561_367_324_981_999,
        },
        // En passant twins: a pawn's two-step never shown on its square, taken en passant
        // at once (`g4 fxg3`, `d5 exd6`), looks on the board just like a one-step taken
        // (`g3 fxg3`): read as the one-step, and the TD asked which it was
        // (`sensing_unseen_step`). Seeds 6060 and 2026-11-23's sweeps.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 6_725_011_435_683_955_548,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 2_860_578_552_244_194_251,
        },
        // f3 pressed, its message held back; Nc6 and the queen's slide d2–g2 stopping on
        // e2 both showed before it came: read as three plies, f3 Nc6 Qe2, then the
        // queen's g2 as a desync. The queen gone on from e2 before the judgement makes the
        // three plies wait for the reply's press, which rules them out
        // (`sensing_moved_on`). Seed 1124's sweep, 2026-11-24.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 7_251_891_868_800_122_579,
        },
        // The queen's slide c4–e6 stopping on d5, e6 swept off at once and the bishop set
        // there a second later: `missing d5` a scan after the queen left it, before the
        // capture showed. The mover's own piece gone from where its move showed landing
        // is told only if it stays gone as long as a displaced piece may stand
        // (`sensing_moved_on`). Seed 6060's sweep, 2026-11-24.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 3_635_559_178_776_002_306,
        },
        // A moved piece taken at once (Nf4 exf4, f5 gxf5: never shown on its square) is no
        // pocketed piece held by the opponent's hand; and a mate on board B ends the
        // match while board A's reply axb5 is under way, the victim already replaced:
        // neither is `missing`. Found by seed 4747's sweeps with the rule for a victim held
        // alone, 2026-11-24.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 9_883_110_041_599_482_662,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 926_604_055_582_498_156,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 16_967_910_136_219_618_524,
        },
        // B@a5 stood 2.5 s, Qxa5, the clock showing none of the three presses: the
        // three plies tied on the drop's kind; the bishop the board showed is the drop.
        // Seed 4747's sweep, 2026-11-24.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 6_644_947_233_174_656_089,
        },
        // Be7 shown only after White's knight was off g1, and the bishop lifted again
        // before White's press message came: read as Ba3, the bishop's first square in
        // hand (scenario sensing_moved_on). Seed 6161's sweep, 2026-11-24.
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 11_724_300_744_951_609_713,
        },
        // An upright promoted pawn lifted to move before the opponent's late press was
        // judged, no report having come while it stood: its move read as a pawn drop
        // (scenario sensing_promoted).
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 10_456_012_761_030_008_932,
        },
        // A promoted pawn laid on its side read as a pawn for two passes in a row: taken
        // for an upright pawn, then "missing" when it read as nothing again.
        Setup {
            preset: "uscf-blitz",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 9_532_917_322_956_342_530,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 9_837_259_507_288_564_952,
        },
        // A capture victim lifted a scan after a drop, on Bluetooth boards.
        // A capture victim lifted a scan after a drop, on Bluetooth boards.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 8_466_160_916_662_992_097,
        },
        // On a Bluetooth board, a queen's slide still on its intermediate square when
        // the press is decided.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 6_909_587_615_584_066_077,
        },
        // A deeper reading taking the next move under way, on a Bluetooth board.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 9_040_178_028_040_395_991,
        },
        // Three plies, the presser's last landing on a square a slide of the presser's
        // had passed over before the opponent's move.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 3_863_472_013_696_331_318,
        },
        // On Bluetooth boards, a bishop's slide caught on its first square after the
        // press, where a pawn of the same colour had stood before.
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 5_008_008_658_160_689_845,
        },
        // A promoted pawn left upright, then laid on its side.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_699_992_254_433_769_503,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 13_007_974_364_583_082_574,
        },
        // On Bluetooth boards, a piece gone within a scan of the landing, where an
        // opponent's piece lands much later (the mover's own move, not the reply's victim).
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 8_947_021_726_435_599_100,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 3_300_274_079_861_143_286,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 1_156_863_358_624_803_641,
        },
        // A pawn pushed read as a drop of a pawn (the scan showed the landing a few fields
        // before the origin, and the reply landed on the origin), and the reverse: a drop
        // whose pawn behind was taken, its capturer lifted more than a scan later.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 15_708_460_111_710_572_050,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 16_931_245_901_214_290_947,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 11_894_445_660_764_379_246,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_346_639_747_119_460_712,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 1_842_366_155_284_082_711,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 15_222_378_247_073_947_999,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_945_313_057_486_876_705,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 12_732_689_703_633_967_409,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 13_574_491_982_096_161_033,
        },
        // A promoted piece laid on its side, read as a pawn for one pass where it landed:
        // its move, not a drop of a pawn (the pawn was gone again at the next pass).
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 14_982_474_631_450_829_592,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 3_093_882_519_463_635_622,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 4_708_845_914_189_609_943,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_653_214_258_537_099_210,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_921_213_273_716_921_709,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 1_009_663_003_635_610_277,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 16_981_670_039_651_349_364,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 17_996_151_339_184_399_742,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 8_693_229_020_786_254_152,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 16_737_569_438_397_308_000,
        },
        // A move and its fast reply pressed within one whole second of the clock, which
        // never showed either press, at the end of the match (no later press reads them).
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 7_956_593_198_072_950_341,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_257_463_446_595_353_843,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 2_455_453_047_370_805_961,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 2_891_855_294_978_856_624,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 690_354_882_106_111_251,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_608_513_537_750_737_409,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 3_947_027_621_733_874_299,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 15_843_063_324_861_546_037,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 12_383_255_654_675_451_055,
        },
        // A move and its fast reply never shown by the clock (a drop among them): the reply's
        // piece off its square in the record is no displaced piece.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 509_236_109_738_600_552,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 463_574_450_288_816_949,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 16_742_988_794_171_084_215,
        },
        // A pair the clock never showed, then the next move's piece set down on a wrong square on
        // its way: the reply's piece waits for that press's judgment, not alerted meanwhile.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 10_526_856_860_081_222_172,
        },
        // Transfer Chess: the opponent's move swept the pawn that reached the last rank off its
        // square before the hand that removes it came (the simulated hands then lifted the
        // opponent's piece instead: a king or knight "missing"; fixed in the simulator).
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 14_566_552_482_239_419_167,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 15_337_982_698_018_689_549,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 1_640_189_794_246_433_631,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_207_273_375_573_127_922,
        },
        // A move and a fast reply pressed within one of the clock's seconds, then the presser's next
        // move (often the same piece moved on), the clock showing only the last press: the reply
        // stood before that move's landing showed, so it answered an earlier move (scenario
        // sensing_press_timing).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 18_056_690_470_364_961_825,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 3_982_687_547_928_578_105,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 1_220_964_558_840_803_219,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 17_831_751_334_358_123_239,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 4_365_710_391_041_091_898,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 16_490_818_124_089_743_082,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 11_170_163_714_268_960_019,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 12_368_426_875_181_096_545,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 12_951_567_584_846_806_529,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 17_821_180_138_671_200_237,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 15_675_739_736_451_054_190,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 15_549_205_390_036_327_265,
        },
        // Both presses of a fast pair unseen, then the presser's next move: with the opponent's next
        // move under way too, the readings of three plies touching the differing squares were too
        // many and none was tried (now those of plies the board showed whole are); or the next
        // move's landing showed after its press message, and the opponent's next press took the
        // reading back though the reply had stood long before that press (scenarios
        // sensing_press_timing).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_581_189_832_628_780_960,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 10_178_037_122_603_744_040,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 4_740_591_290_941_172_892,
        },
        // Promoted pieces laid on their side: an opponent's piece lifted to reply (or
        // adjust) after the press read as taken by the unseen piece; the TD's answer to
        // "where did it go?" with two pieces on their side; a move pressed as a game ended.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 3_919_612_321_930_725_832,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 12_548_314_764_726_784_215,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 6_368_351_290_263_583_971,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 15_750_186_887_848_654_641,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_927_220_056_264_522_802,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 13_682_505_695_926_845_533,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 15_597_793_768_250_887_636,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 17_466_535_098_963_309_066,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 15_778_386_831_573_900_143,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_026_837_636_829_060_049,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 18_400_280_938_125_960_452,
        },
        // On Bluetooth boards, a piece's slide taken at once where it ended, before the scan
        // showed it there: shown on its way, then gone (scenario
        // scenarios::move_captured_before_the_scan_saw_it_on_a_bluetooth_board).
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 5_216_607_970_635_300_135,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 10_019_878_994_901_951_665,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 5_078_091_899_275_818_232,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 16_262_428_846_167_717_238,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 12_559_635_397_491_306_732,
        },
        // A pawn's push whose landing the scan reported before its lift, after a drop taken at
        // once: the later moment fits two readings differing only in the kind of the drop the board
        // never showed; the one keeping the earlier reading's plies is the same reading shown
        // further on (P@d4 read for d4 before).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 2_756_590_365_984_063_889,
        },
        // Fixed 2026-11-24: a landing emptied again by its own piece's next move no longer
        // keeps a three-ply reading from being shown exactly (a queen's capture, a fast
        // reply, the queen moved on).
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 17_554_715_003_509_095_334,
        },
        // A move read as a drop of its piece on the landing square: en passant (the landing shown
        // before the victim was lifted, well before), a drop pushed on, a knight retreated and
        // another brought up after a fast reply (three plies, the clock showing the last).
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 4_303_931_178_638_718_158,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 13_000_135_687_559_327_110,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 11_562_447_098_985_655_829,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 6_998_400_375_577_063_270,
        },
        // A pawn pushed on after the reply landed, its first move's press judged late on a
        // Bluetooth board: the next move, not a slide of the first going on.
        Setup {
            preset: "transfer-chess",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 11_629_931_350_636_456_657,
        },
        // Fixed 2026-11-24 with the moves no longer read as drops: a false 'fits several moves (Nxb4, Nc5)'
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 2_115_226_954_993_449_454,
        },
        // Failed in a fresh sweep of 2026-11-24 while a slide's reading waited for a capturer
        // further on (reverted): Rg2 Bxg2 Bxg2 read as Bg2 Bxg2 Rxg2; Be5 fxe5 read as
        // Bxf4 P@e5.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 6_728_691_335_407_777_829,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 2_398_644_120_338_741_198,
        },
        // Three plies whose landings the board showed in order, the opponent's between the
        // presser's two, read though the clock showed no press missed (2026-11-24).
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 15_474_777_513_896_635_685,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 17_336_853_320_998_470_324,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 14_714_942_729_002_938_601,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_390_509_778_787_242_521,
        },
        // A move taken by the fast reply (both pressed between two polls of the clock),
        // then the next move slow: the capturer off its record square is that reply, not a
        // displaced piece.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 10_705_824_451_023_588_608,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 7_500_767_256_574_235_824,
        },
        // The reply's piece gone after the presser's move landed, its press message late
        // (both pressed between two polls, the clock never showed it): the opponent's
        // reply, not a piece gone long before.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 853_972_637_674_867_575,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 14_137_993_396_585_711_415,
        },
        // Transfer 4c: a piece dropped where the promoted pawn awaited removal is the
        // remover's move under way, not the pawn missing.
        Setup {
            preset: "transfer-chess",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 2_528_982_877_427_048_031,
        },
        // A piece moved on once the opponent's reply was under way is the mover's next move,
        // not a correction of the move judged (`order::moved_after_reply`).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 15_805_203_225_323_515_258,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 16_770_711_327_099_677_354,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 17_962_375_521_742_169_260,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 2_650_602_440_114_455_713,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 862_794_082_417_799_555,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 9_873_344_503_367_309_053,
        },
        Setup {
            preset: "uscf-blitz",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_929_122_314_809_342_892,
        },
        // A reading that is the one shown, then the reply and the mover's next move (presses
        // missed), replaces it though the mover moved on after the reply (2026-11-24).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 18_102_437_536_676_153_294,
        },
        // Fresh sweep 4242: passes with order::moved_after_reply (2026-11-24).
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 13_963_832_076_384_934_941,
        },
        // A drop taken at once before the scan saw it: which piece it was is told by the
        // partner's or the dropper's drop, or by a check; a press that showed no move waits
        // for the reply's press still being judged.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 1_106_739_946_295_201_452,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 11_568_101_931_694_438_804,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 11_615_754_627_856_468_688,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_230_483_380_367_953_133,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 6_157_860_293_075_708_677,
        },
        // A move taken at once on its landing square before the board saw it (a slide
        // whose trail showed short of the landing): read again with the reply that took it.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 1_223_769_495_308_889_206,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 3_763_286_154_666_891_420,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 6_252_999_966_099_832_526,
        },
        // Fresh sweeps of 2026-11-24: a press judged from a window that began after its
        // move landed (the press before it judged late) took the landing for a later move: a
        // landing the window's first snapshot shows is no late landing; a move taken back
        // before the scan showed it land is told by the reply's press (alarms3).
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 644_576_633_036_848_977,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 14_389_956_870_274_887_557,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 1_601_959_518_886_557_524,
        },
        // An illegal-move alert that hung on the queen the record guesses for a promoted pawn the
        // TD had not named yet (a knight gives no check): held until the piece is named; a lying
        // promoted pawn read as a pawn for three passes, gone just before its press was judged: no
        // upright pawn gone missing (promo3, scenarios in sensing_promotion_question).
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_659_066_923_581_522_237,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 12_845_912_451_873_224_311,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 12_261_282_169_881_503_430,
        },
        // Fixed 2026-11-24 evening: a slide's trail read as the move, the pawn's capture
        // past it explaining nothing alone, read again with the ply it answers
        // (533865698142972228); a queen that stood two passes and moved on once the fast
        // reply had landed, read as the next move (17942470894711191571); a late press
        // message with the next move under way not read as three plies while the
        // opponent's press shows no move (3722990765596812834); a knight move read as a
        // drop of the same kind (8983668755506535616, fixed along with these).
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 533_865_698_142_972_228,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 17_942_470_894_711_191_571,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::UprightPawn,
            seed: 3_722_990_765_596_812_834,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 8_983_668_755_506_535_616,
        },
        // A promoted bishop laid on its side moved b8-a7 and read as a pawn for two passes
        // on a7, then nothing: the bishop's move, not a pawn drop.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 16_088_768_544_603_865_687,
        },
        // The lying queen b1-b2 unseen, then White's pawn b4-b5 in one quick movement,
        // b4 reported empty after Black's press message: no capture Qxb4 and pawn drop on
        // b5, which could not both come so soon after b4 emptied.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 12_914_619_076_902_304_955,
        },
        // b7-b8=N laid on its side, then Black's bishop c8-b7, c8 reported empty more
        // than a scan after White's press message: no capture bxc8 (and bishop drop on b7).
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 16_390_219_248_622_911_116,
        },
        // c1=R+ laid on its side, Kd2, then the rook c1-c3 unseen: the TD is rightly asked
        // where it went (the board cannot show it); White's Qc6, illegal only against the
        // guessed d1 (check), waits for the answer instead of being told.
        Setup {
            preset: "uscf-blitz",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 18_066_342_705_392_134_286,
        },
        // A pawn lifted and set back before a drop the knight took at once on its square:
        // the lift is no move.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 14_827_411_555_624_477_202,
        },
        // B@d2+ taken at once by the king, then Qb6-c7: the queen left b6 long after the king
        // landed, so no Qa5 or Qd8 with the first press and on to c7.
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 2_074_861_865_227_178_516,
        },
        // Q@h5+ taken at once by Nf6xh5, then d4: d2 emptied long after the knight landed, so
        // d4 was no earlier press.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_455_518_102_918_088_427,
        },
        // Q@e6+ shown, Be7 shown, and Qxe7+ before White's late press message was judged: the
        // queen on e7 took the reply, no Q@e7.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 4_501_772_307_358_861_877,
        },
        // Qb6-c6 shown on c6, then Black's bishop b7 and the queen both in hand: read
        // Qxb7+ (taken at once on b7, never shown there); Black's press that nothing
        // explains reads it again: Qc6 Bxc6.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 11_309_905_398_164_865_674,
        },
        // a4-a5 shown on a5, Black's bishop f5 lifted, then a4 empty, all in one pass:
        // the push (its origin left by the mover's own hand), not P@a5 with a4 missing.
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 15_845_511_528_991_704_403,
        },
        // Drops taken at once, never shown, whose kind nothing later told: recorded as the
        // likeliest (a knight as a pawn twice, a queen as a knight, a queen as a pawn),
        // wrong, with no word to the TD. Now the TD is asked which piece it was, and the
        // answer stands: seeds 2024, 1357 and 6464 (2026-11-25) and 9111 (2026-11-27).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 670_625_369_897_100_572,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 17_079_296_453_266_972_747,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 7_540_160_721_728_486_743,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 7_281_726_003_459_178_485,
        },
        // Seed 3030's sweep, 2026-11-27. A bishop dropped with check and taken at once,
        // then the dropper's knight b8-a6, read as Nc6 Q@b8 Nxb8 (leaving every square as
        // it was, "shown" by the board before anything moved) and Nf4 Na6 after it. See
        // `sensing_taken_drops::a_drop_taken_at_once_is_no_knight_out_and_back_taking_a_queen_dropped_behind_it`.
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 12_896_904_129_260_927_119,
        },
        // Seed 3030's sweep: a promoted pawn laid on its side moved in the second after
        // the mate on the other board (a late press, recorded): the TD asked where it
        // went, which the test TD did not answer for a move made as the match ended.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 15_866_914_884_007_834_401,
        },
        // Seed 3131's sweep, 2026-11-25: a rook dropped with check and taken at once,
        // read as the black rook out to a6, a pawn dropped behind it and the rook back
        // taking it (every square as it was), then Bb2 Ra8: the same null reading as above.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 2_183_752_707_528_393_238,
        },
        // Seed 7171's sweep, 2026-11-25: `B@c6 Qxc6+ bxc6` (a drop taken at once, the
        // taker taken back on its square by a pawn) read as `b5 Qxb5+ P@c6`, the queen
        // missing on b5: the b-pawn shown on c6 was taken for the drop shown after the
        // queen. See `sensing_taken_drops::a_drop_taken_at_once_and_the_taker_taken_back_on_its_square_is_the_drop`.
        Setup {
            preset: "transfer-chess",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 6_222_021_868_243_799_061,
        },
        // Seed 4242's sweep, 2026-11-27: Be2-d3 shown, a queen dropped in reply, and the
        // bishop back through e2 to f1 before the first press was judged, read as B@d3 (the
        // e2 bishop set back) and later a bishop missing from d3. See
        // `sensing_moved_on::a_bishop_moved_on_back_through_its_square_after_a_dropped_reply_is_two_moves`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_297_141_540_228_787_186,
        },
        // Seed 2468's sweep, 2026-11-25: Qg6+ answered by Qxg6, then Qxb1+, read as one
        // capture Qg6xb1+ and a desync; passes since the shown move's residual leaves out
        // the mover's next move (2026-11-27).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 6_830_276_357_575_792_608,
        },
        // Two presses unseen, the presser's first stop off the line its capture then took
        // back through the square it came from, the opponent's piece standing there between:
        // `Qa7 e3 Qxe3+` (seed 9327379053's sweep) read as `Qe3 b3 Qxe2+` and a desync, and
        // `Bd6 b4 Bxb4 P@a6` (seed 9494's) as `Bb4 b2a6`. Pass since the session of
        // 2026-11-28 from 01:51 UTC (`opponent_stood_before_landing` counts a piece of the
        // opponent's that stood on the presser's landing square and was taken there). See
        // `sensing_press_timing::a_queen_back_behind_its_line_a_fast_reply_onto_the_line_and_the_queen_taking_it`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 9_129_100_159_842_765_537,
        },
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 14_957_914_834_411_033_930,
        },
        // Seed 9327379053's sweep: on a Bluetooth board, `c5 h4` pressed unseen, `P@c7`
        // pressed with its message before its landing showed (read as `c5` alone), then
        // `B@h2` pressed, its message late: read as `h4`, the bishop then told as
        // unexplained. Passes since the session of 2026-11-28 from 01:51 UTC
        // (`moved_again_before_the_press`, and landings counted from when the square
        // began to show the moved piece). See
        // `sensing_press_timing::a_late_press_message_after_the_reply_and_the_next_move_is_the_next_move_s_press`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 7_271_339_659_560_288_362,
        },
        // Seed 10148891565's sweep (session of 2026-11-28 from 01:51 UTC), failing the same
        // way on 6e227d1: `Qxc1 P@e3+ Kxe3` pressed inside one clock second, the pawn
        // standing on e3 most of a second, read as `Qxc1` and the king displaced (the
        // three plies tied with a bishop or knight dropped there). Passes since: see
        // `sensing_press_timing::a_drop_shown_standing_then_taken_behind_presses_the_clock_never_showed_is_that_piece`.
        Setup {
            preset: "transfer-chess",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 14_672_274_215_840_355_255,
        },
        // Seed 10440306508's sweep (session of 2026-11-28 from 01:51 UTC), failing the same
        // way on 6e227d1: `dxc1=B` with an upright pawn for its token, standing there three
        // seconds; the bishop lifted for `Bf4` before White's press was read, set down short
        // on e5 and moved on, and in the moment it was in the hand the token was taken for
        // a pawn laid on its side: `Bf4` read as `P@f4`. Passes since. See
        // `sensing_promoted::an_upright_queen_set_down_short_and_moved_on_is_no_pawn_laid_down`.
        // With it, seed 2711272's upright queen's `Qf6` read as `P@f6` (listed since
        // 2026-11-27).
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 1_099_008_604_818_843_829,
        },
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 16_955_342_462_424_954_792,
        },
        // The fresh sweep of seed 13600000087 (session of 2026-11-28 from 17:00 UTC) on
        // 8d588e0, failing the same way on 0248457: on a Bluetooth board, `b4` read as
        // `P@b4` (b3 then told missing), the reply's lift reported between the landing
        // and b3 emptying, and White's next move begun before the press was judged.
        // Passes since the session of 2026-11-28 from 20:23 UTC. See
        // `sensing_moves_not_drops::a_push_shown_with_the_reply_s_lift_between_and_the_next_move_begun_is_no_drop`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 13_685_426_363_690_620_327,
        },
        // The fresh sweep of seed 13100000071 (session of 2026-11-28 from 14:02 UTC) on
        // 9ec5a5d, failing the same way on 2429857, where it began: beside a promoted pawn
        // laid on its side on c8, on a Bluetooth board, a desync naming two readings of
        // White's press (`Bd7`, `P@d7`). Passes since the session of 2026-11-28 from 20:23
        // UTC, with the next one: a lying pawn's token is looked at once its square has
        // stood empty two scans, its owner not to move, not only at the board's next
        // report (`token_settle_due`). See
        // `sensing_promoted::a_lying_pawn_s_square_empty_while_the_opponent_thinks_is_no_spare_piece`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_229_637_158_451_049_870,
        },
        // The fresh sweep of seed 11900000029 (session of 2026-11-28 from 07:46 UTC), failing
        // the same way on 5cee5f0: on two Bluetooth boards, pawns promoted and laid on
        // their side, `Bc1 P@b3 Ne2 Qd8` read with the drop three plies late. Passes since
        // the session of 2026-11-28 from 20:23 UTC, as the one above.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 1_755_588_708_902_794_024,
        },
        // The fresh sweep of seed 13800000093 (session of 2026-11-28 from 20:23 UTC), failing
        // on 2796087, where it began: a knight promoted and laid on its side on g1, two
        // Bluetooth boards, and Black's `R@h3` told a desync with the lying knight's `Nh3`
        // (its token, never settled, taken for a spare rook): g1 read as a pawn now and
        // then, and each time again just before the board's next report. Passes since, as
        // the two above.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 11_491_970_094_508_690_366,
        },
        // Three sweeps' `c1=N` read as `cxd1=N` with White's queen's next move as a drop
        // (`Q@e2`; 13800000093's, session of 2026-11-28 from 20:23 UTC), `c1=B` as
        // `cxd1=B` with `Q@d3` (2711272's), and `c8=R Nc6` as `cxb8=R N@c6` (9111's): a
        // pawn promoted and laid on its side, the board showing the pair as it would its
        // twin. Since the session of 2026-11-29 from 00:01 UTC the TD is asked which pair
        // was played (once the piece is named, where the piece guessed makes either pair
        // illegal), and the answer stands.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 5_584_529_025_150_011_696,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 10_119_556_263_887_312_564,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 9_665_439_841_911_437_197,
        },
        // The fresh sweep of seed 14300000107 (session of 2026-11-29 from 00:01 UTC), failing
        // the same way on e35ac1b, where it began: on a Bluetooth board B, the press
        // message a second late, `Qd6 Ne6 Qc6` read as `Qe6 Nxe6 Q@c6` (the queen taken as
        // gone on from d6 to e6 before the lever and taken there at once, though the
        // knight's lift showed before the queen left d6). Passes since.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 1_624_935_034_673_822_501,
        },
        // The fresh sweep of seed 2711274 (session of 2026-11-27 from 14:20 UTC): a
        // standing queen's `Qa3`, `Nb3` and `Qb4` read as `Qb3 Nxb3 Q@b4` (an unexplained
        // drop), the board having reported `Nb3`'s landing in the pass that showed a3
        // empty. Passes since the session of 2026-11-29 from 00:01 UTC: the reply showed
        // too soon after the queen left a3 for it to have gone on to b3 before the lever
        // and been taken there at once.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 17_277_204_898_608_565_808,
        },
        // The fresh sweep of seed 14600000117 (session of 2026-11-29 from 00:01 UTC), failing
        // the same way on e35ac1b, where it began: Black's `e5`, its press message a second
        // after the lever, White's `N@d7` at once, and Black's knight lifted from b8 to take
        // it before `e5` was judged: b8 told `missing` as the drop was recorded. Passes
        // since the session of 2026-11-29 from 02:42 UTC: a reply shown since the mover's
        // move landed, though gone again, keeps the board from reading quiet.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::SparePiece,
            seed: 3_182_540_914_299_353_975,
        },
        // Seed 10908712114's (promotions laid on their side): a White knight told missing
        // from b5, no move explaining it (lifted to take on a7 after Black's drop on b2
        // showed, before White's `Kg2` was judged). Passes since the session of
        // 2026-11-29 from 02:42 UTC, as the one above.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 5_733_760_610_447_502_162,
        },
        // The fresh sweep of seed 14700000119 (session of 2026-11-29 from 02:42 UTC),
        // failing the same way on ae9c939, where it began: Black's `Nf6` (the knight
        // off h5) and White's `Rh6` (the rook up the h-file through h5) pressed between
        // two polls of the clock, and the next press more than two seconds away: the
        // rook told displaced, its way read on the board before the knight moved.
        // Passes since: the reply's way is read on the board the move left.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 13_551_506_998_794_129_556,
        },
        // The same sweep, the same way: White's `Nf4` (the knight off g6) and Black's
        // `Rg2` (the rook down the g-file through g6), the rook told displaced. Passes
        // since, as the one above.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::UprightPawn,
            seed: 4_446_824_076_124_188_171,
        },
        // The same sweep, failing the same way on ae9c939: on a Bluetooth board,
        // White's `d4` (the pawn from d3, a pawn in hand) reported landed, then Black's
        // queen lifted from b3, then d3 empty, all in one pass, and judged before the
        // queen landed: read as `P@d4` with the queen's `Qxd3` under way. Passes since:
        // the push, its origin left in the pass that showed the landing, replaces the
        // drop beside the reply's first lift.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 10_843_305_416_054_046_145,
        },
        // The fresh sweep of seed 14900000131 (session of 2026-11-29 from 02:42 UTC) on
        // 3900c00, failing the same way on ae9c939: White's `R@e7+` taken at once by
        // `Nxe7`, both presses between two polls of the clock and none after: the
        // knight told displaced from g8, the pair never recorded. Passes since: a drop
        // shown and taken is no displaced piece, and the pair is the piece shown (not a
        // pawn's drop).
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 16_631_343_010_668_017_386,
        },
    ];
    replay_setups(&cases);
}

/// Setups sweeps still fail on (README, known limitations): run by hand to work on them,
/// `cargo test --test integration setups_still_failing -- --ignored`.
#[test]
#[ignore = "known failures, run by hand"]
fn setups_still_failing() {
    let cases = [
        // The fresh sweep of seed 20400000357 (session of 2026-12-07 from 20:03 UTC) on
        // 7c1f9e8, failing the same way on 409bf5b: on a USB board, a bishop promoted on b1
        // and laid on its side (`axb1=B`), then White's `R@a2` read as that bishop's `Ba2`
        // and Black's `Rxc2` as `Bxb3 cxb3 R@c2`; no alert.
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 971_719_821_144_666_111,
        },
        // The fresh sweep of seed 20000000347 (session of 2026-12-07 from 20:03 UTC) on
        // ac8a7e5, failing the same way on 409bf5b: on a USB board, as below, `g8=R+` laid
        // on its side and taken at once by the rook from h8, read as `gxh8=R+` and a rook
        // dropped on g8. Black held a rook, and h8 emptied 80 ms after the press message:
        // neither the capture's two lifts (900 ms apart) nor the drop's timing rules
        // either reading out by the scan's bounds.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 6_537_832_286_186_270_632,
        },
        // The fresh sweep of seed 19900000343 (session of 2026-12-07 from 20:03 UTC) on
        // ac8a7e5, failing the same way on 409bf5b: on a USB board, a promoted knight laid
        // on its side (`bxa8=N`, then `Nxb6`), its unseen `Nbd5+` guessed right at first,
        // then with `Kd6`, `P@b6` and `Rg8` read as `P@d6+ Kxd6 B@g8 Rxg8`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 13_480_103_227_130_363_682,
        },
        // The fresh sweep of seed 19700000339 (session of 2026-12-07 from 20:03 UTC) on
        // 409bf5b, where it began: on a Bluetooth board, White's `b8=R+` laid on its side
        // and Black's rook taking it at once, `Rxb8`, read as `bxa8=R+` (the rook's square
        // a8 emptied a moment after the press message) and a rook dropped on b8; the rook
        // Black then drops on d3 told as unexplained, and Black's next moves as illegal.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 12_477_680_545_789_788_609,
        },
        // The same sweep, failing the same way on 409bf5b: on a USB board, a promoted queen
        // laid on its side on c8, its unseen `Qa6`, Black's `Ne5` and White's `B@d7` read
        // as `B@e5`, `Nxe5` and `Qd7`; a desync three moves later.
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 5_674_053_588_486_919_786,
        },
        // The fresh sweep of seed 18800000311 (session of 2026-11-29 from 23:42 UTC) on
        // 77537ff, failing the same way on 64ff07a: on Bluetooth boards with spare pieces
        // for promotions, Black's `P@c2`, White's `Nf3` and the pawn's `cxd1=N` (a spare
        // knight set on d1) read as `P@f3 Nxf3 Nxd1`: a desync, and the knight that later
        // goes to d3 told as an unexplained drop.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 15_897_068_558_064_772_693,
        },
        // The fresh sweep of seed 18700000301 (session of 2026-11-29 from 23:42 UTC) on
        // 6d3af3b, failing the same way on 64ff07a: on a USB board, Black's rook promoted
        // on c1 and laid on its side (it took on c4 since), then its `Re4` (read as a
        // pawn for one pass) and White's `Rb3` under one clock message: neither recorded.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 15_733_673_435_921_109_401,
        },
        // The fresh sweep of seed 18000000269 (session of 2026-11-29 from 20:29 UTC), failing
        // the same way on b2d20c4, where it began: on a Bluetooth board turned round,
        // White's king `Ke3` read as `Kf3 P@e3 Kxe3`, then a desync at Black's press.
        Setup {
            preset: "transfer-chess",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 17_559_979_810_216_080_254,
        },
        // The fresh sweep of seed 16900000209 (session of 2026-11-29 from 14:55 UTC) on
        // 19b0562, failing the same way on 6b0a360, where it began: on a Bluetooth board,
        // a promoted queen laid on its side, its unseen `Qf3+` taken at once by `exf3`:
        // told as a desync (the board fits several moves), both plies left out of the
        // record, and the knight's `Ng2` then read as taking the queen there.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [false, false],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 12_612_493_928_500_341_704,
        },
        // The fresh sweep of seed 16500000191 (session of 2026-11-29 from 11:52 UTC) on
        // its final sensing, failing the same way on 74d1576, where it began: on a
        // Bluetooth board, `B@g6+` taken at once by the king (`Kxg6`) before a scan
        // showed the bishop, read as a lying knight's unseen `Na7` and the king's
        // `Kg6`.
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 12_808_708_556_776_506_177,
        },
        // The same sweep, failing the same way on f7f3c2b: a pawn promoting with check,
        // `e1=Q+`, laid on its side, and the reply `Nf2` never read: the knight told
        // displaced, the pawn missing from e2.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 18_140_334_261_342_199_018,
        },
        // The fresh sweep of seed 16000000171 (session of 2026-11-29 from 08:42 UTC) on
        // its final sensing, failing the same way on f7f3c2b, where the session began:
        // a promoted queen laid on its side, its `Qb5` read as `P@b5` (b5 read as a
        // pawn for three passes, then nothing, then a pawn again).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 11_629_590_485_422_557_661,
        },
        // The fresh sweep of seed 15400000147 (session of 2026-11-29 from 05:35 UTC) on
        // 4f94c49, failing the same way on 08bef08, where the session began: a promoted
        // knight laid on its side on a8, and White's `P@c7` read as that knight's
        // `Nc7`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 17_353_855_301_417_879_435,
        },
        // The fresh sweep of seed 15100000139 (session of 2026-11-29 from 02:42 UTC) on
        // 3cca64e, the final code, failing the same way on ae9c939, where the session
        // began: on a Bluetooth board, Black's `f5`, its press message a second late,
        // White's `Ba3` pressed before it came and Black's knight lifted from b3 for
        // `Nc1` (the square the bishop left): read as `Nxc1 B@a3 f5`.
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::SparePiece,
            seed: 18_247_688_215_772_581_058,
        },
        // The fresh sweep of seed 14800000127 (session of 2026-11-29 from 02:42 UTC) on
        // bd2d2d7, failing the same way on ae9c939, where the session began: a promoted
        // rook laid on its side on h1, `R@h2` read as the lying rook's `Rh3` and a pawn
        // dropped on h2, then told ambiguous. (The other two, lying pieces' `Rc7+` and
        // `Be7` read as pawn drops, pass since the session of 2026-11-29 from 08:42 UTC:
        // `setups_that_once_failed`.)
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, true],
            white_right: [false, true],
            bluetooth: [true, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 6_164_504_032_717_214_973,
        },
        // The fresh sweep of seed 13200000073 (session of 2026-11-28 from 17:00 UTC) on
        // 0248457, where it began: a knight promoted and laid on its side on f1
        // (`exf1=N`), the TD asked which piece it is, and the match never going on from
        // there (the lying knight's `Nxf7` never read). (The other passes since:
        // `setups_that_once_failed`.)
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 15_788_780_451_134_161_552,
        },
        // The fresh sweep of seed 13000000067 (session of 2026-11-28 from 14:02 UTC) on
        // 287ef27 with the hidden move answered by the board beside it, failing the same
        // way on 2429857, where it began: a bishop promoted and laid on its side, its
        // unseen `Bg3` read as `P@g3` (g3 read as a pawn for three passes, from more than a
        // scan after the lever, and again after the commit). (The other, `Qc4+ Kxc4` read
        // as `Qd4+ Kxd4`, passes since the session of 2026-11-28 from 17:00 UTC:
        // `setups_that_once_failed`.)
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 18_223_995_531_544_773_980,
        },
        // The fresh sweep of seed 12300000043 (session of 2026-11-28 from 10:58 UTC) on
        // e126d59, failing the same way on a0fce72, where it began: which of two lying
        // pieces moved (`Bc7` taken for the rook's unseen move, the TD asked). (Its other
        // failure passes since: `setups_that_once_failed`.)
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 11_333_766_149_989_046_215,
        },
        // The second `TANDEM_RANDOM=1` run of the session of 2026-11-28 from 10:58 UTC, on
        // fd9c60e, failing the same way on a0fce72, where it began: a rook laid on its
        // side, its unseen `Rg8` taken at once (`Rxg8`), read as `Rxh8` (Black's rook
        // lifted to take, reported just before the press message) and then `Ng8`.
        // Waiting for a victim reported empty up to a scan before the message puts it
        // right, but leaves `Qg7 Bxg7` on a board that never reads the lying piece to the
        // TD's question where `Qxf8`'s reread finds it now.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 12_753_505_829_570_648_912,
        },
        // The fresh sweeps of the session of 2026-11-28 from 04:48 UTC, failing the same way
        // on 51a0b3b, where it began. Seed 11200000009's, two. On a Bluetooth board `h6 gxh6`, Black's pawn set down on
        // h5 first and then on h6, taken there before a scan showed it: read as `h5 gxh6`
        // (en passant), which is all the board showed.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::SparePiece,
            seed: 2_534_994_473_109_311_087,
        },
        // And `e8=R+ Qe7`, the rook laid on its side, beside a queen laid on its side on
        // f8: read as the lying queen's `Qe8` and `Qxe7`.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 11_743_977_802_071_070_384,
        },
        // Seed 11100000003's (two Bluetooth boards): after `axb1=N`, the knight laid on its
        // side, `B@c3 Nf3 Bb2` read as `Nc3 Nf3 B@b2`, with a desync told (the board fits
        // the lying knight's `Nc3` and `B@c3`).
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 15_401_802_090_275_392_990,
        },
        // The fresh sweep of seed 10440306508 (session of 2026-11-28 from 01:51 UTC) on
        // 172fd12, failing the same way on 6e227d1: beside a promoted pawn laid on its side
        // on c7, a rook told missing from h8 and the lying piece's unseen move asked of the
        // TD. (The other passes since: `setups_that_once_failed`.)
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 4_769_863_148_596_998_894,
        },
        // The fresh sweep of seed 9949874371 (session of 2026-11-27 from 23:09 UTC) on
        // ef41a23, failing the same way on b5cbb66: beside a piece laid on its side, a
        // desync naming two readings of Black's press (`Rh4`, `Rxh4`).
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [true, false],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 7_172_163_919_302_909_258,
        },
        // The fresh sweep of seed 8544003745 (session of 2026-11-27 from 23:09 UTC), on
        // b5cbb66, with a queen promoted and laid on its side on h1: `Qg3+ Qxg3` (the
        // queen taken at once, never shown) read as `Qxh3 Q@g3`, the pair that ends on the
        // same board.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 7_722_771_985_140_521_942,
        },
        // Fresh sweeps of the session of 2026-11-27 from 17:20 UTC, each failing the same way
        // on 9102098 (where it began), each with a promoted piece laid on its side. (Seed
        // 2718281828's, `P@c6 Nxc6` read as the lying queen's `Qa8-c6`, passes since the
        // session of 2026-11-28 from 14:02 UTC, and seed 1732050807's lying knight's
        // `Nf8-d7`, taken at once and read as `P@d7`, since the session of 2026-11-29 from
        // 08:42 UTC: `setups_that_once_failed`.)
        // Seed 1732050807: the lying bishop's `Bxh6` read as `Bg7`, h6 then missing.
        Setup {
            preset: "club-bughouse",
            rotated: [true, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 1_721_397_157_559_778_356,
        },
        // (Seed 2711275's failure, `cxd1=B` read as `c1=B`, passes since the session of
        // 2026-11-27 from 23:09 UTC: `setups_that_once_failed`.)
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 16_879_215_634_413_220_742,
        },
        // The fresh sweep of seed 9191 (20,000 matches a preset: 2 of 100,000) on e5b8809,
        // 2026-11-27, failing on 17ee9e2 too, with a promoted piece laid on its side: a
        // desync told beside a laid-down queen on a1. (The other, the laid-down rook's
        // `Re7+` read as the laid-down bishop's `Be7` (then `Kf7f6`), passes since the
        // session of 2026-11-29 from 11:52 UTC: `setups_that_once_failed`.)
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, false],
            increment_s: 2,
            promotion: PromotionToken::LaidDown,
            seed: 15_864_608_216_978_743_538,
        },
        // The fresh sweep of seed 8989 (20,000 matches a preset: 1 of 100,000), 2026-11-27,
        // failing the same way on 17ee9e2: a queen promoted and laid on its side on a1,
        // its unseen moves guessed wrong (`Qe3` read as `Qd3`), then a desync of the record.
        Setup {
            preset: "club-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 412_476_295_926_417_423,
        },
        // The fresh sweep of seed 4646 (20,000 matches a preset: 2 of 100,000) on 17ee9e2,
        // where the session of 2026-11-27 (11:10 UTC) began: a knight promoted and laid on
        // its side, its `Nc7` read as `P@c7` (the same squares). The other, a pair question
        // the test TD could not answer, passes since (`setups_that_once_failed`).
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 17_795_384_143_737_363_142,
        },
        // The fresh sweep of seed 3838 (20,000 matches a preset: 2 of 100,000) on the
        // session's final build (7fe8929), both with a promoted piece laid on its side: the
        // hidden knight's `Nxf3+ exf3` read as `Nxe2 Bf4 R@g3 Bxg3`. (The other, `P@d3
        // Rxd3` beside a hidden bishop read as `Bd3 Rxd3`, passes since the session of
        // 2026-11-28 from 14:02 UTC: `setups_that_once_failed`.)
        Setup {
            preset: "club-bughouse",
            rotated: [true, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 14_496_456_929_937_267_659,
        },
        // The fresh sweep of seed 9494 (20,000 matches a preset: 3 of 100,000) on 83afcf5,
        // each failing the same way on 1997b76, where the session of 2026-11-27 (08:00 UTC)
        // began: a queen promoted and laid on its side whose unseen move was guessed onto
        // the square a knight then left (a false `missing`). The other two pass since
        // (`setups_that_once_failed`): a Bluetooth bishop's slide read a square long, and
        // `Bd6 b4 Bxb4 P@a6`.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 197_354_656_871_745_162,
        },
        // The fresh sweep of seed 5511 (20,000 matches a preset: 1 of 100,000), 2026-11-24
        // late night: `Qh4 Nd8` read as `Q@h4 Nxd8`, the drop twin of the move (a
        // Bluetooth board scanned d8 empty just after h4 filled). Only a pair recorded as
        // the move has its twin asked (`sensing_twins`): asking of every drop the board
        // showed this way would ask far more often where the drop is right.
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, false],
            white_right: [true, true],
            bluetooth: [true, false],
            increment_s: 5,
            promotion: PromotionToken::LaidDown,
            seed: 16_520_534_006_514_830_919,
        },
        // The fresh sweep of seed 5959 (20,000 matches a preset: 2 of 100,000), 2026-11-25.
        Setup {
            preset: "uscf-bughouse",
            rotated: [false, true],
            white_right: [true, true],
            bluetooth: [false, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 429_454_135_094_234_706,
        },
        Setup {
            preset: "club-bughouse",
            rotated: [false, false],
            white_right: [false, true],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_526_407_269_998_954_788,
        },
        // The fresh sweep of seed 3131 (20,000 matches a preset: 4 of 100,000), 2026-11-25.
        Setup {
            preset: "uscf-bughouse",
            rotated: [true, true],
            white_right: [true, false],
            bluetooth: [false, true],
            increment_s: 5,
            promotion: PromotionToken::UprightPawn,
            seed: 11_392_809_474_759_016_375,
        },
        Setup {
            preset: "club-bughouse-corrected",
            rotated: [false, true],
            white_right: [true, false],
            bluetooth: [true, true],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 10_386_589_022_187_909_404,
        },
        // The fresh sweep of seed 8181 (20,000 matches a preset: 5 of 100,000) at the end of
        // the session of 2026-11-24 late night.
        Setup {
            preset: "uscf-blitz",
            rotated: [true, false],
            white_right: [false, false],
            bluetooth: [false, false],
            increment_s: 0,
            promotion: PromotionToken::LaidDown,
            seed: 8_302_778_637_742_597_670,
        },
    ];
    replay_setups(&cases);
}

fn replay_setups(cases: &[Setup]) {
    let mut failed = Vec::new();
    for s in cases {
        if let Err(e) = play(s) {
            failed.push(e.to_string());
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// A sweep that goes on past failures: `TANDEM_CASES` random matches for each preset (or
/// the one `TANDEM_PRESET` names), every failing setup printed, then their count asserted.
/// Run it in release: `TANDEM_CASES=20000 cargo test --release --test integration
/// sensing_property::sweep -- --ignored --nocapture`.
#[test]
#[ignore = "a long sweep, run by hand"]
fn sweep() {
    let mut sweep = crate::common::sweep::Sweep::from_env();
    for preset in PRESETS {
        sweep.preset(preset, "matches", |rng| {
            let pick = |rng: &mut tandem::util::SplitMix64| rng.next_u64() % 2 == 1;
            let s = Setup {
                preset,
                rotated: [pick(rng), pick(rng)],
                white_right: [pick(rng), pick(rng)],
                bluetooth: [rng.chance(0.25), rng.chance(0.25)],
                increment_s: [0, 0, 2, 5][(rng.next_u64() % 4) as usize],
                promotion: [
                    PromotionToken::LaidDown,
                    PromotionToken::UprightPawn,
                    PromotionToken::SparePiece,
                ][(rng.next_u64() % 3) as usize],
                seed: rng.next_u64(),
            };
            play(&s).err().map(|e| (format!("{s:?}"), e.to_string()))
        });
    }
    sweep.finish();
}

const PRESETS: [&str; 5] = [
    "uscf-bughouse",
    "club-bughouse",
    "club-bughouse-corrected",
    "transfer-chess",
    "uscf-blitz",
];

/// What happened in one setup, to study a failure: `TANDEM_TRACE='Setup { … }'` (as a
/// failure prints it) and `TANDEM_TRACE_FROM`/`TANDEM_TRACE_TO` (ms) for the window:
/// each ply as played and pressed, each square the board reported and each change of
/// the clock's running side, in time order.
#[test]
#[ignore = "a study aid, run by hand"]
fn trace() {
    let Ok(text) = std::env::var("TANDEM_TRACE") else {
        return;
    };
    let field = |name: &str| -> String {
        let at = text.find(&format!("{name}: ")).expect(name) + name.len() + 2;
        let rest = &text[at..];
        let end = if rest.starts_with('[') {
            rest.find(']').map(|i| i + 1)
        } else {
            rest.find([',', ' ', '}'])
        };
        rest[..end.unwrap_or(rest.len())]
            .trim_matches('"')
            .to_string()
    };
    let pair = |name: &str| -> [bool; 2] {
        let v = field(name);
        [v.starts_with("[true"), v.ends_with("true]")]
    };
    let preset: &'static str = PRESETS
        .iter()
        .find(|p| **p == field("preset"))
        .expect("preset");
    let s = Setup {
        preset,
        rotated: pair("rotated"),
        white_right: pair("white_right"),
        bluetooth: pair("bluetooth"),
        increment_s: field("increment_s").parse().expect("increment"),
        promotion: match field("promotion").as_str() {
            "LaidDown" => PromotionToken::LaidDown,
            "UprightPawn" => PromotionToken::UprightPawn,
            _ => PromotionToken::SparePiece,
        },
        seed: field("seed").parse().expect("seed"),
    };
    let rules = RulesPreset::built_in(s.preset);
    let cfgs = [config(&s, 0), config(&s, 1)];
    let mut style = Style::blitz();
    style.promotion = s.promotion;
    let mut r = Rehearsal::new(rules.clone(), &cfgs, &style, Chooser::Random, s.seed);
    r.set_max_plies(30);
    let outputs = r.run(5000);
    let timing = [
        Timing::for_scan_period(if s.bluetooth[0] { 500 } else { 250 }),
        Timing::for_scan_period(if s.bluetooth[1] { 500 } else { 250 }),
    ];
    let late: Vec<_> = r.after_end.iter().map(|&(b, m, _)| (b, m)).collect();
    let arb = arbitrate_with_td_timing(&rules, &outputs, Some(&r.truth), &late, timing);
    crate::common::trace::print_timeline(&outputs, s.rotated, &r.truth, arb.game());
    println!("{:?}", play(&s));
}
