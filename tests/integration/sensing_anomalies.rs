//! Property test: random matches with one anomaly injected at a random ply — a piece
//! pocketed with the move, an extra piece put on the board, a piece knocked onto another
//! square during the opponent's time — raise exactly the right alert, on the right board
//! and square, and nothing else.

use crate::common::{alarms, arbitrate_with_td, describe_alerts};
use proptest::prelude::*;
use tandem::BoardId;
use tandem::arbiter::AlertKind;
use tandem::rules::RulesPreset;
use tandem::sim::SimOutput;
use tandem::sim::emulator::EmulatorConfig;
use tandem::sim::performer::Style;
use tandem::sim::table::{Chooser, Injection, Rehearsal};

fn expected(what: Injection) -> AlertKind {
    match what {
        Injection::Pocket => AlertKind::Missing,
        Injection::ExtraPiece => AlertKind::Unexplained,
        Injection::Knock => AlertKind::Displaced,
    }
}

/// The match a case plays: random moves on two USB boards, `what` injected on `board` at
/// `ply`, the match cut two plies later.
fn rehearse(
    preset: &str,
    board: BoardId,
    ply: usize,
    what: Injection,
    seed: u64,
) -> (RulesPreset, Rehearsal, Vec<SimOutput>) {
    let rules = RulesPreset::built_in(preset);
    let cfgs = [
        EmulatorConfig::default(),
        EmulatorConfig {
            serial: "22222".into(),
            ..EmulatorConfig::default()
        },
    ];
    let mut style = Style::blitz();
    // Calm enough that the knocked piece stays knocked for a few seconds of the reply.
    style.think_ms = (3500, 5000);
    let mut r = Rehearsal::new(rules.clone(), &cfgs, &style, Chooser::Random, seed);
    r.set_max_plies(ply + 2);
    r.inject(board, ply, what);
    let outputs = r.run(8000);
    (rules, r, outputs)
}

fn run(
    preset: &str,
    board: BoardId,
    ply: usize,
    what: Injection,
    seed: u64,
) -> Result<(), TestCaseError> {
    let (rules, r, outputs) = rehearse(preset, board, ply, what, seed);
    let Some(inj) = r.injected else {
        // Nothing to knock or pocket on that ply (rare): nothing to check.
        return Ok(());
    };
    // The truth still has the pocketed piece: a reply that "captures" it explains it away.
    // A reply landing on the knocked piece sweeps it off the board (artifact of the
    // injection: no player does that).
    let taken = r.truth.record().iter().any(|p| {
        p.board == inj.board
            && p.meta.t_ms > Some(inj.at)
            && (p.mv.to() == inj.square
                || Some(p.mv.to()) == inj.landed
                || p.mv.from() == inj.landed)
    });
    // A hand planned before the knock (a correction on a neighbouring square) set a piece
    // down on the knocked one and swept it off the board: it is missing then, truly.
    let swept = inj.landed.is_some_and(|sq| {
        r.table.physical(inj.board, sq).map(|t| t.piece())
            != r.truth.board(inj.board).board().piece_at(inj.square)
    });
    // The match ended (on the other board) before the anomaly: the move it came with was
    // already in hand and is not recorded, and nothing on a finished match is alerted.
    // So too when it ended before the alert came due: a knocked piece is told once it has
    // stood displaced a while after the board reported it (a scan), the match ended by
    // then.
    let timing = tandem::arbiter::Timing::default();
    let due = inj.at + timing.scan_ms + timing.displaced_ms;
    let ended_before = r.truth.is_over()
        && r.log.last().is_some_and(|&(_, _, ended_at)| {
            ended_at <= inj.at || (what == Injection::Knock && ended_at < due)
        });
    // A piece the mover pocketed as the match was ending, the opponent never replying: the
    // piece gone may be the reply's victim being lifted until the reply's press tells, so
    // nobody watching the board can call it missing before the end.
    let replied = r
        .truth
        .record()
        .iter()
        .filter(|p| p.board == inj.board && p.meta.t_ms > Some(inj.at))
        .nth(1)
        .is_some();
    let ended_unreplied = what == Injection::Pocket && r.truth.is_over() && !replied;
    if taken || swept || ended_before || ended_unreplied {
        return Ok(());
    }
    let arb = arbitrate_with_td(&rules, &outputs, Some(&r.truth));
    // The extra knight could have been a knight dropped from the reserve, which a capture
    // on the partner's board had just filled: no observer of the board can tell.
    let could_be_a_drop = what == Injection::ExtraPiece
        && arb.game().record().iter().any(|p| {
            p.board == inj.board
                && matches!(p.mv, shakmaty::Move::Put { role: shakmaty::Role::Knight, to } if to == inj.square)
        });
    // Or the reserve filled after the mover began its turn (a capture on the partner board
    // passed a knight), before its press: the extra knight is then a knight the mover could
    // have dropped, and the two knights are alike. A knight gone from a6, one on b4 and one
    // on e1 is "Nb4, the reserve's knight set on e1 too" or "N@b4, the a6 knight set on
    // e1": each reading leaves one knight wrong, so only the players can tell. The arbiter
    // asks the TD (a desync naming the drop), or takes the drop that showed first and
    // tells the other knight as displaced; what it says next depends on that reading.
    let knight_in_reserve = what == Injection::ExtraPiece && {
        // The truth replayed up to the injected ply (the first on that board pressed after
        // the knight was set down).
        let mut m = tandem::rules::Match::new(rules.clone());
        let mut held = false;
        for p in r.truth.record() {
            if p.board == inj.board && p.meta.t_ms > Some(inj.at) {
                let state = m.board(inj.board);
                held = state.reserve(state.turn()).knight > 0;
                break;
            }
            if m.play(p.board, p.mv, p.meta.clone()).is_err() {
                break;
            }
        }
        held
    };
    // Or a drop read on the knight's own square, asked of the TD (a drop seen before the
    // capture that feeds it, say): what the arbiter says next depends on the answer.
    let asked_about_the_drop = what == Injection::ExtraPiece
        && arb.alerts().all().iter().any(|a| {
            a.kind == AlertKind::Desync
                && a.board == inj.board
                && a.detail.contains(&format!("N@{}", inj.square))
        });
    if could_be_a_drop || knight_in_reserve || asked_about_the_drop {
        return Ok(());
    }
    let alarms: Vec<(AlertKind, BoardId, Option<String>)> = alarms(&arb)
        .into_iter()
        .map(|a| (a.kind, a.board, a.square.map(|s| s.to_string())))
        .collect();
    let want = vec![(expected(what), inj.board, Some(inj.square.to_string()))];
    prop_assert_eq!(
        alarms,
        want,
        "{:?} seed {}\n{}",
        inj,
        seed,
        describe_alerts(&arb)
    );
    Ok(())
}

const CASES: u32 = 36;

proptest! {
    #![proptest_config(crate::common::proptest_config(CASES))]

    #[test]
    fn an_injected_anomaly_raises_exactly_its_alert(
        preset in prop::sample::select(vec!["uscf-bughouse", "transfer-chess", "uscf-blitz"]),
        on_b in any::<bool>(),
        ply in 2usize..14,
        what in prop::sample::select(vec![Injection::Pocket, Injection::ExtraPiece, Injection::Knock]),
        seed in any::<u64>(),
    ) {
        let board = if on_b && preset != "uscf-blitz" { BoardId::B } else { BoardId::A };
        run(preset, board, ply, what, seed)?;
    }
}

/// Injections a sweep once failed on, replayed every run.
#[test]
fn injections_that_once_failed() {
    let cases = [
        // White presses and its hand knocks its own d4 pawn back onto c3; seconds later
        // Black pushes c2-c1 and lays the pawn on its side, a promoted piece. "Black
        // pressed without a move, White's pawn taking en passant on c2" fitted the board
        // more cheaply than the promotion beside a displaced pawn, and the TD heard of a
        // press without a move. A pawn takes en passant only from its fifth rank, beside
        // the victim, landing ahead. Seed 19800000341's sweep (session of 2026-12-07 from
        // 20:03 UTC), failing the same way on 409bf5b.
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Knock,
            16_062_062_567_197_854_942,
        ),
        // White drops a knight on f7 and presses; White's own knight on g1 is knocked
        // onto g2 300 ms after the lever, g1 shown empty in the pass that showed f7, 49
        // fields on. Read as the illegal `Ng1f7`, then the knight on g2 unexplained,
        // until a lift shown in the landing's very pass but too soon after the pass
        // before read it occupied, for a hand to carry the piece, ruled the jump out.
        // Seed 18500000287's sweep (session of 2026-11-29 from 23:42 UTC).
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Knock,
            2_362_128_607_906_783_444,
        ),
        // An opponent's piece knocked onto a square it could move to (Ra8 onto a7, a
        // pawn from d7 to c6 beside a knight's or a pawn's square), seconds before the
        // presser's move, which the scan caught on its way (a pawn's b3 shown on b4 for a
        // pass): taken by a rule tried in the session of 2026-11-29 from 20:29 UTC for the
        // opponent's whole reply made before the scan reached the move's landing, and the
        // pawn's step read as its double step. The rule now holds only a reply first
        // shown no earlier than a scan before the move's first change. Seed 18000000269's
        // sweep, on that build; all eight fail without the time check.
        (
            "uscf-bughouse",
            BoardId::B,
            13,
            Injection::Knock,
            14_816_135_894_871_902_968,
        ),
        (
            "uscf-bughouse",
            BoardId::A,
            5,
            Injection::Knock,
            8_500_073_645_824_798_844,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            11,
            Injection::Knock,
            12_864_068_145_229_703_507,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            5,
            Injection::Knock,
            7_248_780_549_992_496_828,
        ),
        (
            "transfer-chess",
            BoardId::B,
            9,
            Injection::Knock,
            11_593_127_187_519_063_515,
        ),
        (
            "transfer-chess",
            BoardId::A,
            10,
            Injection::Knock,
            2_268_000_478_722_595_042,
        ),
        (
            "transfer-chess",
            BoardId::B,
            9,
            Injection::Knock,
            18_417_995_932_512_821_331,
        ),
        (
            "uscf-blitz",
            BoardId::A,
            13,
            Injection::Knock,
            10_018_507_951_711_984_030,
        ),
        // White's rook knocked from h1 onto g1 as White's press was judged, g1 reported
        // 251 ms after h1 showed empty (the scan had just passed g1; its next report came
        // a few ms past a full scan): told missing as well as displaced, the missing
        // piece rechecked a scan after its square emptied. The fresh sweep of seed
        // 9949874371 (2026-11-27 from 23:09 UTC); passes since the session of 2026-11-29
        // from 14:55 UTC.
        (
            "transfer-chess",
            BoardId::B,
            12,
            Injection::Knock,
            3_107_021_189_175_078_057,
        ),
        // White's knight dropped on g8 and pressed, its landing shown only after the press
        // message (a fast one); White's pawn knocked from h2 onto g3 0.3 s after the
        // lever, h2 shown empty before the press was judged and g3 only after: read as an
        // illegal `h2g8=N`. h2 was shown empty later than a scan after the message, less a
        // lever's reach: left after the press, no part of the move. The fresh sweep of seed
        // 13400000079, 2026-11-28 from 17:00 UTC.
        (
            "uscf-bughouse",
            BoardId::A,
            12,
            Injection::Knock,
            3_094_660_649_383_813_730,
        ),
        // White's lying rook moved h8-h7 unseen and pressed, White's pawn knocked from h4
        // onto g3 just after, shown within the settling time after the press message: read
        // as an illegal move `h4g3`, not a hidden move and a displaced pawn. The fresh
        // sweep of seed 10908712114, 2026-11-28 from 04:48 UTC (see
        // `sensing_promoted::a_pawn_knocked_just_after_a_lying_queen_s_unseen_move_is_displaced_not_an_illegal_move`).
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Knock,
            17_011_500_280_246_126_386,
        ),
        // An extra knight set on g6 as Black pressed Qh4+, first shown after the press was
        // read; the match ended (the rehearsal's last ply) before White's press, which
        // would have told it. A piece set down after the press is told while the opponent
        // thinks now. The fresh sweep of seed 8544003745, 2026-11-27 from 23:09 UTC.
        (
            "transfer-chess",
            BoardId::B,
            7,
            Injection::ExtraPiece,
            13_555_383_933_814_647_587,
        ),
        // White's f2 pawn knocked onto e2 beside a lying knight on d1 (the record's guess a
        // queen), then the knight's unseen Ne3: the record guessed Nxf2, the square the TD
        // was told the pawn stood displaced from, and the pawn on e2 was told again as a
        // piece no move explains. A capture of a displaced piece's square is the last
        // guess now. The fresh sweep of seed 7416198487, 2026-11-27 from 20:17 UTC.
        (
            "uscf-bughouse",
            BoardId::A,
            12,
            Injection::Knock,
            11_568_727_693_455_728_875,
        ),
        // An extra knight set on d1 with a lying bishop's capture, read as a knight dropped
        // out of the reserve (told when the grace ran out), then, with the reply, as the
        // bishop's capture: the knight told again as a piece no move explains. The same
        // piece is told once now. The fresh sweep of seed 7416198487, 2026-11-27 from
        // 20:17 UTC.
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::ExtraPiece,
            15_079_650_159_362_924_829,
        ),
        // A piece knocked beside a promoted piece laid on its side: the lying piece's square
        // read empty taken for its move to where the knocked piece landed, taken there (both
        // presses unseen), so no `displaced`. Seed 8989's sweep, 2026-11-27 (Black's rook
        // knocked from a8 to a7 beside the c8 one); seed 6633249580's, 2026-11-27 from 20:17
        // UTC (White's bishop knocked from c1 to b2 beside a lying knight on d1; Black's
        // pawn from c7 to b6 beside one on a8). See
        // `sensing_promoted::a_piece_knocked_where_a_lying_knight_could_have_gone_is_displaced`.
        (
            "uscf-bughouse",
            BoardId::B,
            13,
            Injection::Knock,
            11_998_086_180_305_288_568,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Knock,
            6_653_492_736_399_656_068,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            13,
            Injection::Knock,
            10_852_214_030_577_491_508,
        ),
        // f4xg5 with the h3 knight pocketed: read as Nxg5 fxg5 fxg5 (two presses missed),
        // the f6 pawn that never left taking on g5, once a landing landed on again by the
        // same colour stopped counting as shown. Seed 6161's sweep, 2026-11-27
        // (`sensing_pocketed::a_knight_pocketed_as_a_pawn_captures_is_missing_not_taken_by_a_pawn_that_never_moved`).
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Pocket,
            7_081_155_658_646_606_574,
        ),
        // e4-e5 pushed with a pawn in hand and an extra knight set on b4 in the same pass:
        // read as P@e5, e4 missing besides the knight. The fresh sweep of seed 4321,
        // 2026-11-25 (`sensing_pawns::a_pawn_pushed_with_an_extra_piece_set_down_in_the_same_pass_is_the_push`).
        (
            "uscf-bughouse",
            BoardId::A,
            12,
            Injection::ExtraPiece,
            7_917_187_665_009_839_233,
        ),
        // h6-h5 with the f7 pawn pocketed, White's pawn on h7: read as the f7 pawn going to
        // h5 "en passant" the h7 pawn, two files across. An irregular en passant is only
        // formed in its own shape now (`sensing_pocketed`). Seed 5511's sweep.
        (
            "uscf-bughouse",
            BoardId::A,
            9,
            Injection::Pocket,
            5_150_946_900_333_645_367,
        ),
        // Nb1-c3 with the c2 pawn pocketed in the same pass of the scan, the knight shown on
        // c3 first: read as N@c3 (White held a knight) with b1 and c2 missing. The move
        // from the square emptied in the landing's pass stands when it leaves only the
        // rest of that pass's gone pieces missing (`sensing_pocketed`). Seed 5511's sweep,
        // 2026-11-24 late night.
        (
            "uscf-bughouse",
            BoardId::A,
            6,
            Injection::Pocket,
            2_764_258_845_460_272_328,
        ),
        // A piece pocketed just before the press where the opponent could take it, then
        // the match over (a mate on board B 2.4 s later, or on this board with the move):
        // no `missing` was raised before the end, the empty square read as a victim the
        // opponent was lifting. Now a victim held alone, nothing else stirring, for as long
        // as a displaced piece may stand, is missing; and a mate has no reply
        // (`sensing_pocketed`). The fresh sweeps of seeds 6060 and 4747, 2026-11-24.
        (
            "uscf-blitz",
            BoardId::A,
            13,
            Injection::Pocket,
            3_023_788_046_271_524_618,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Pocket,
            7_172_242_764_560_584_663,
        ),
        (
            "transfer-chess",
            BoardId::A,
            11,
            Injection::Pocket,
            371_328_349_623_869_432,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            6,
            Injection::Pocket,
            5_417_090_323_217_750_913_u64,
        ),
        // A piece pocketed before its owner's press; then the opponent set a piece down
        // on its square and lifted it again (the square changed, the piece stayed gone).
        (
            "uscf-bughouse",
            BoardId::A,
            6,
            Injection::Pocket,
            1_727_265_311_417_128_776_u64,
        ),
        // A piece set down short of its square and pushed on (or past it and pulled back)
        // while the mover's other hand pocketed a piece: the move shown first is not the
        // one the piece ended on.
        (
            "uscf-blitz",
            BoardId::A,
            7,
            Injection::Pocket,
            3_174_300_176_591_437_757,
        ),
        (
            "uscf-blitz",
            BoardId::A,
            9,
            Injection::Pocket,
            12_985_978_351_876_473_006,
        ),
        (
            "uscf-blitz",
            BoardId::A,
            10,
            Injection::Pocket,
            1_315_153_848_617_234_326,
        ),
        (
            "uscf-blitz",
            BoardId::A,
            7,
            Injection::Pocket,
            11_655_353_007_326_609_870,
        ),
        (
            "uscf-bughouse",
            BoardId::A,
            7,
            Injection::Pocket,
            10_180_584_060_041_689_155,
        ),
        (
            "transfer-chess",
            BoardId::B,
            3,
            Injection::Pocket,
            2_176_529_854_326_192_868,
        ),
        // The match ended on board B while the anomaly's move was in hand.
        (
            "uscf-bughouse",
            BoardId::A,
            7,
            Injection::ExtraPiece,
            9_325_289_810_143_460_998,
        ),
        // A drop, then 300 ms after the press one of the dropper's pawns knocked off its
        // square: the lift after the drop's landing is no move of the pawn to the drop
        // square.
        (
            "transfer-chess",
            BoardId::B,
            13,
            Injection::Knock,
            9_426_024_946_128_922_172,
        ),
        // A piece knocked onto a neighbouring square and left there, the reply pressed, the
        // board still: no pair of moves the clock never showed (a drop taken at once on
        // that square) reads the knocked piece away.
        (
            "uscf-bughouse",
            BoardId::B,
            13,
            Injection::Knock,
            2_591_797_375_718_389_326,
        ),
        (
            "transfer-chess",
            BoardId::A,
            10,
            Injection::Knock,
            18_375_156_941_462_482_409,
        ),
        // A rook pocketed before its owner's press; seconds later the opponent's pawn took
        // a bishop and promoted, laid on its side: the rook's square, empty long before the
        // pawn left its own, is no victim of that capture (`victim_gone_long_before`).
        (
            "uscf-bughouse",
            BoardId::B,
            12,
            Injection::Pocket,
            5_286_832_045_970_496_527,
        ),
        // A pawn pocketed as its owner pressed, its square reported empty less than a scan
        // before the press was committed (too fresh to tell then), and the opponent,
        // in check, waiting for a piece: told a scan on (`recheck_missing`).
        (
            "transfer-chess",
            BoardId::B,
            9,
            Injection::Pocket,
            11_517_378_579_783_639_672,
        ),
        // The extra knight was put on the square the mover's pawn was set down on short
        // of (or past) its square and pushed on from: the hand lifted the knight with the
        // pawn, nothing stood there, no alert was due. The injection now avoids the squares
        // the mover's hand sets pieces on (`sensing_extra_piece`).
        (
            "uscf-bughouse",
            BoardId::B,
            10,
            Injection::ExtraPiece,
            9_856_090_108_813_035_378,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            3,
            Injection::ExtraPiece,
            4_589_357_441_591_868_780,
        ),
        // The extra knight stood on f6 from White's press; Black's queen went d8-g5, slid
        // along e7 and f6, and swept it off before Black's press: the hand now passes over
        // a piece in its way, and the knight still there at Black's press is unexplained.
        (
            "uscf-blitz",
            BoardId::A,
            12,
            Injection::ExtraPiece,
            14_523_298_128_602_152_582,
        ),
        // The mover's reserve got a knight from a capture on the partner board after its
        // turn began and before its press: the extra knight could be that one, dropped, and
        // the moved knight (or rook) set down elsewhere. Asked of the TD, or read as the
        // drop with the other piece displaced: both fair, no longer checked (see `run`).
        (
            "transfer-chess",
            BoardId::B,
            9,
            Injection::ExtraPiece,
            101_805_979_554_131_048,
        ),
        (
            "uscf-bughouse",
            BoardId::B,
            9,
            Injection::ExtraPiece,
            6_669_133_157_655_164_362,
        ),
        (
            "transfer-chess",
            BoardId::B,
            6,
            Injection::ExtraPiece,
            9_954_236_169_641_919_924,
        ),
        (
            "transfer-chess",
            BoardId::A,
            9,
            Injection::ExtraPiece,
            17_463_958_991_230_595_435,
        ),
        // White's rook h2-h1 while the rook on a1 was pocketed, h2 reported empty well
        // before the landing: read as the a1 rook going to h1 (illegal) and Black's knight
        // lifting the h2 rook to take it, though a reply cannot begin so soon; now the
        // move Rh1 and `missing a1` (`sensing_pocketed`).
        (
            "uscf-bughouse",
            BoardId::B,
            6,
            Injection::Pocket,
            14_424_351_590_862_763_392,
        ),
        // The fresh sweep of seed 2711271 (2026-11-27): White's b4xa5 with the a4 pawn
        // pocketed in the same pass of the scan, read as the a-pawn taking straight ahead
        // (illegal) and b4 lifted by the bishop in reply; now held for the reply, which
        // took nothing there: bxa5 and `missing a4` (`sensing_pocketed`).
        (
            "transfer-chess",
            BoardId::B,
            10,
            Injection::Pocket,
            13_479_121_961_078_347_165,
        ),
        // The fresh sweep of seed 7979 (2026-11-27): White drops a pawn on g3 and presses,
        // and a moment later knocks the pawn on e2 to d3, e2 shown empty a pass after g3
        // though the scan passes e2 six fields after g3; read as `e2g3` (illegal), now
        // the drop and a displaced pawn (`scenarios`, the scan's field order).
        (
            "uscf-bughouse",
            BoardId::B,
            8,
            Injection::Knock,
            6_385_756_577_022_351_946,
        ),
    ];
    replay_injections(&cases);
}

/// Injections a sweep failed on that still fail (README, known limitations). Run by hand.
#[test]
#[ignore = "known failures, run by hand"]
fn injections_still_failing() {
    replay_injections(&[
        // The fresh sweep of seed 17600000241 (session of 2026-11-29 from 17:45 UTC) on
        // 40dc342, failing the same way on 712668b, where it began: Black's knight
        // promoted on f1 and laid on its side goes f1-h2 unseen and the lever is pressed;
        // the knight on g8 is knocked onto h7 300 ms later, shown before the press message
        // (which came 660 ms after the lever). Read as Black's illegal `Ng8h7`, nothing
        // told displaced.
        (
            "uscf-bughouse",
            BoardId::A,
            11,
            Injection::Knock,
            12_110_432_052_228_194_454,
        ),
        // The fresh sweep of seed 16000000171 (session of 2026-11-29 from 08:42 UTC) on
        // its final sensing, failing the same way on f7f3c2b, where it began: Black's
        // rook laid on its side goes h1-h2 unseen and the lever is pressed; the queen on
        // d8 is knocked onto c7 before the press message. Read as `Qc7`, the queen's move
        // (a visible move wins over the lying rook's unseen one), nothing told displaced.
        (
            "uscf-bughouse",
            BoardId::B,
            11,
            Injection::Knock,
            11_674_957_634_297_744_056,
        ),
        // The fresh sweep of seed 14800000127 (session of 2026-11-29 from 02:42 UTC) on
        // bd2d2d7, failing the same way on ae9c939: the pawn on g7 knocked onto g6 on
        // board B, a promoted piece laid on its side on f1: told as White's pawn missing
        // from h2, not the pawn displaced.
        (
            "uscf-bughouse",
            BoardId::B,
            13,
            Injection::Knock,
            7_851_560_190_336_321_795,
        ),
        // The fresh sweep of seed 13400000079 (session of 2026-11-28 from 17:00 UTC),
        // failing the same way on 0248457, where it began: White's queen pocketed from a4
        // in the pass of the scan that showed White's `d5` landing before d4 emptied: read
        // as `P@d5`, the d4 pawn told missing besides the queen.
        (
            "uscf-bughouse",
            BoardId::A,
            10,
            Injection::Pocket,
            11_664_162_395_560_613_024,
        ),
        // The fresh sweep of seed 12400000047 (session of 2026-11-28 from 10:58 UTC) on
        // 727d940, failing the same way on a0fce72, where it began: Black's queen laid on
        // its side goes h1-f3 unseen and the lever is pressed; 300 ms later the pawn on g7
        // is knocked onto f6, before the press message. Read as the pawn's illegal `g7f6`
        // (a visible move wins over the lying queen's unseen one), and White's `exf3`,
        // taking the queen, as an illegal `e2f3`.
        (
            "uscf-bughouse",
            BoardId::B,
            11,
            Injection::Knock,
            11_206_619_030_256_220_209,
        ),
        // The fresh sweep of seed 3322 (20,000 injections a preset), 2026-11-24 night; it
        // fails the same way on 08b0f59, where that session began. Black promotes g2-g1
        // to a bishop laid on its side (unseen), and the extra knight set on c1 with it is
        // read as the pawn's promotion there, `g2c1=N`, an illegal move.
        (
            "uscf-bughouse",
            BoardId::B,
            13,
            Injection::ExtraPiece,
            13_150_939_654_751_321_420,
        ),
        // The fresh sweep of seed 7373 (20,000 injections a preset), 2026-11-24 late night.
        (
            "transfer-chess",
            BoardId::A,
            7,
            Injection::Pocket,
            11_790_065_764_676_179_897,
        ),
    ]);
}

fn replay_injections(cases: &[(&str, BoardId, usize, Injection, u64)]) {
    let mut failed = Vec::new();
    for &(preset, board, ply, what, seed) in cases {
        if let Err(e) = run(preset, board, ply, what, seed) {
            failed.push(e.to_string());
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

/// A sweep that goes on past failures: `TANDEM_CASES` random injections for each preset
/// (or the one `TANDEM_PRESET` names), every failing one printed, then their count
/// asserted. Run it in release: `TANDEM_CASES=20000 cargo test --release --test
/// integration sensing_anomalies::sweep -- --ignored --nocapture`.
#[test]
#[ignore = "a long sweep, run by hand"]
fn sweep() {
    let mut sweep = crate::common::sweep::Sweep::from_env();
    for preset in ["uscf-bughouse", "transfer-chess", "uscf-blitz"] {
        sweep.preset(preset, "injections", |rng| {
            let on_b = rng.next_u64() % 2 == 1 && preset != "uscf-blitz";
            let board = if on_b { BoardId::B } else { BoardId::A };
            let ply = 2 + (rng.next_u64() % 12) as usize;
            let what = [Injection::Pocket, Injection::ExtraPiece, Injection::Knock]
                [(rng.next_u64() % 3) as usize];
            let seed = rng.next_u64();
            run(preset, board, ply, what, seed).err().map(|e| {
                (
                    format!("({preset:?}, {board:?}, {ply}, {what:?}, {seed})"),
                    e.to_string(),
                )
            })
        });
    }
    sweep.finish();
}

/// What happened in one case, to study a failure: `TANDEM_TRACE='("uscf-bughouse", A, 6,
/// Pocket, 2764258845460272328)'` (as a failure prints it) and `TANDEM_TRACE_FROM` /
/// `TANDEM_TRACE_TO` (ms) for the window (see `common::trace`).
#[test]
#[ignore = "a study aid, run by hand"]
fn trace() {
    let Ok(text) = std::env::var("TANDEM_TRACE") else {
        return;
    };
    let parts: Vec<&str> = text
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(|p| p.trim().trim_matches('"'))
        .collect();
    let [preset, board, ply, what, seed] = parts[..] else {
        panic!("want (preset, board, ply, injection, seed): {text}");
    };
    let board = if board == "A" { BoardId::A } else { BoardId::B };
    let what = match what {
        "Pocket" => Injection::Pocket,
        "ExtraPiece" => Injection::ExtraPiece,
        _ => Injection::Knock,
    };
    let (ply, seed) = (ply.parse().expect("ply"), seed.parse().expect("seed"));
    let (rules, r, outputs) = rehearse(preset, board, ply, what, seed);
    let arb = arbitrate_with_td(&rules, &outputs, Some(&r.truth));
    crate::common::trace::print_timeline(&outputs, [false, false], &r.truth, arb.game());
    println!("injected {:?}", r.injected);
    println!("{}", describe_alerts(&arb));
    println!("{:?}", run(preset, board, ply, what, seed));
}
