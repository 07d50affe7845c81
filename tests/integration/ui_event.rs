//! An evening on screen: the TD's overview (every match, one alert queue naming each
//! alert's match, a click into a match's console), the projector's grid drawn only from
//! what the hall may see, behind the broadcast delay, and the standings between rounds.

#![allow(clippy::unwrap_used)]

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::accesskit::Role as A11y;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use tandem::BoardId;
use tandem::arbiter::spectator::SpectatorView;
use tandem::arbiter::view::MatchView;
use tandem::arbiter::{Arbiter, ArbiterConfig, BoardEvent, BoardEventKind, Input, TdAction};
use tandem::event::{ByeScore, Event, Format, GameRef, Setup};
use tandem::rules::{EndReason, MatchResult, RulesPreset, Seat, Team};
use tandem::station::Views;
use tandem::station::event::simulate::{play_event, simulated_teams};
use tandem::station::event::{EventFolder, virtual_tables};
use tandem::station::simulated::SimulatedPlay;
use tandem::ui::overview::{self, Overview, OverviewMatch, OverviewRequest};
use tandem::ui::projector_grid::{self, GridTile, HallChoice};
use tandem::ui::{Options, TandemApp};

fn event(teams: usize) -> Event {
    let rules = RulesPreset::built_in("uscf-bughouse");
    let setup = Setup {
        name: "Club night".into(),
        site: String::new(),
        date: String::new(),
        rules: "uscf-bughouse".into(),
        time_control: rules.time_control,
        format: Format::RoundRobin { cycles: 1 },
        bye: ByeScore::Win,
    };
    let mut e = Event::new(setup, rules);
    for t in simulated_teams(teams, 2, 1) {
        e.add_team(t).unwrap();
    }
    e.tables = virtual_tables(teams / 2);
    e
}

fn arbiter(players: [&str; 4]) -> Arbiter {
    let mut cfg = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    cfg.players = players.map(str::to_owned);
    Arbiter::new(cfg)
}

fn connect(arb: &mut Arbiter, board: BoardId, t_ms: u64) {
    arb.handle(&Input::Board(BoardEvent {
        board,
        t_ms,
        kind: BoardEventKind::Connected {
            port: "/dev/pts/9".into(),
            serial: Some("10001".into()),
            version: None,
        },
    }));
}

fn lose_board(arb: &mut Arbiter, board: BoardId, t_ms: u64) {
    connect(arb, board, t_ms);
    arb.handle(&Input::Board(BoardEvent {
        board,
        t_ms: t_ms + 10,
        kind: BoardEventKind::Disconnected {
            reason: "unplugged".into(),
        },
    }));
}

fn play(arb: &mut Arbiter, t_ms: u64, board: BoardId, mv: &str) {
    arb.handle(&Input::Td {
        t_ms,
        action: TdAction::AddMove {
            board,
            mv: mv.into(),
        },
    });
}

/// The overview of `e` drawn on its own, over `matches` (which the test may change between
/// frames), run once; the TD's requests collect in the second.
fn overview_alone(
    e: Event,
    matches: Rc<RefCell<Vec<OverviewMatch>>>,
) -> (Harness<'static>, Rc<RefCell<Vec<OverviewRequest>>>) {
    let asked: Rc<RefCell<Vec<OverviewRequest>>> = Rc::default();
    let out = asked.clone();
    let mut h = Harness::builder()
        .with_size([1600.0, 1000.0])
        .build_ui(move |ui| {
            let r = overview::show(
                ui,
                &Overview {
                    event: &e,
                    matches: &matches.borrow(),
                    pieces: None,
                    hall: HallChoice::Auto,
                    next_round_in: None,
                },
            );
            out.borrow_mut().extend(r);
        });
    h.run();
    (h, asked)
}

#[test]
fn the_overview_has_one_alert_queue_naming_each_match() {
    let mut e = event(4);
    e.pair_next_round().unwrap();
    let g1 = GameRef {
        round: 1,
        pairing: 1,
        game: 1,
    };
    let g2 = GameRef {
        round: 1,
        pairing: 2,
        game: 1,
    };
    e.start_game(g1, "rounds/1/match-1").unwrap();
    e.start_game(g2, "rounds/1/match-2").unwrap();
    let mut a1 = arbiter(["Ada", "Boris", "Chen", "Dana"]);
    lose_board(&mut a1, BoardId::A, 1000);
    let mut a2 = arbiter(["Emil", "Fay", "Gus", "Hana"]);
    connect(&mut a2, BoardId::A, 100);
    play(&mut a2, 500, BoardId::A, "e4");
    lose_board(&mut a2, BoardId::B, 2000);
    let matches = vec![
        OverviewMatch {
            game: g1,
            label: "1.1".into(),
            table: Some(0),
            teams: ["Knights".into(), "Pawnstars".into()],
            view: Arc::new(a1.view()),
            now: 3000,
        },
        OverviewMatch {
            game: g2,
            label: "1.2".into(),
            table: Some(1),
            teams: ["Rooks".into(), "Bishops".into()],
            view: Arc::new(a2.view()),
            now: 3000,
        },
    ];
    let (mut h, asked) = overview_alone(e, Rc::new(RefCell::new(matches)));
    h.get_by_label("Alerts (2)");
    // Each alert names its match.
    h.get_by_label("Knights – Pawnstars");
    h.get_by_label("Rooks – Bishops");
    // Each match's status says which boards are away; each queue entry opens its match.
    h.get_by_label("Boards A and B not connected");
    h.get_by_label("Board B not connected");
    h.get_by_role_and_label(A11y::Button, "Open match 1.1");
    // Four clocks a match, both boards: every player is named.
    for name in ["Ada", "Boris", "Chen", "Dana", "Emil", "Fay", "Gus", "Hana"] {
        assert_eq!(h.query_all_by_label(name).count(), 1, "{name}");
    }
    h.get_by_role_and_label(A11y::Button, "Open match 1.2")
        .click();
    h.run();
    assert_eq!(asked.borrow().as_slice(), &[OverviewRequest::Open(g2)]);
    // The standings are beside it; the round's pairing cannot be followed by another yet.
    h.get_by_label("Standings");
    assert!(
        h.get_by_role_and_label(A11y::Button, "Pair the next round")
            .accesskit_node()
            .is_disabled()
    );
}

#[test]
fn the_grid_shows_the_hall_only_what_it_may_see_behind_the_delay() {
    let mut arb = arbiter(["Ada", "Boris", "Chen", "Dana"]);
    let mut views = Views::new(arb.view());
    play(&mut arb, 60_000, BoardId::A, "e4");
    views.publish(arb.view());
    lose_board(&mut arb, BoardId::B, 70_000);
    views.publish(arb.view());
    arb.handle(&Input::Td {
        t_ms: 120_000,
        action: TdAction::DeclareResult {
            result: MatchResult {
                winner: Some(Team::WhiteA),
                reason: EndReason::Resignation {
                    seat: Seat::new(BoardId::A, shakmaty::Color::Black),
                },
                t_ms: Some(120_000),
            },
        },
    });
    views.publish(arb.view());
    let grid = |view: Arc<SpectatorView>, clock_at: u64| {
        let mut h = Harness::builder()
            .with_size([1920.0, 1080.0])
            .build_ui(move |ui| {
                let tiles = [GridTile {
                    label: "1.1".into(),
                    teams: ["Knights".into(), "Rooks".into()],
                    view: &view,
                    clock_at,
                    earlier: [0.0, 0.0],
                }];
                projector_grid::show_grid(ui, &tiles, "Club night · round 1", None);
            });
        h.run();
        h
    };
    // 30 s of delay at 2:10: the hall sees the match at 1:40, before the result.
    let h = grid(views.for_hall(130_000, 30_000), 100_000);
    h.get_by_label("1.1  Knights");
    h.get_by_label("Rooks");
    h.get_by_label("0 : 0");
    h.get_by_label("Ada");
    assert!(
        h.query_by_label_contains("win").is_none(),
        "no result before the hall's time"
    );
    assert!(h.query_by_label_contains("lost").is_none(), "no alert ever");
    assert!(h.query_by_label_contains("unplugged").is_none());
    // Live: the result and the score.
    let h = grid(views.for_hall(130_000, 0), 130_000);
    h.get_by_label_contains("Knights win");
    h.get_by_label("1 : 0");
}

/// Runs the app's frames until `done`, or fails after `secs`.
fn wait_for(
    h: &mut Harness<'static, TandemApp>,
    what: &str,
    secs: u64,
    done: impl Fn(&Harness<'static, TandemApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        h.run_steps(2);
        if done(h) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn projector<'h>(h: &'h Harness<'static, TandemApp>) -> egui_kittest::Node<'h> {
    h.get_by_role_and_label(A11y::Window, "Tandem — projector")
}

#[test]
fn a_live_evening_in_the_window_overview_console_and_projector_grid() {
    let data = std::env::temp_dir().join(format!("tandem-ui-event-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let opts = Options {
        projector: true,
        data_dir: data.clone(),
        event_demo: Some(4),
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1900.0, 1200.0])
        .build_eframe(move |cc| TandemApp::new(&cc.egui_ctx, opts, Vec::new()));
    wait_for(&mut h, "two matches under way", 60, |h| {
        h.query_by_label("Match 1.1").is_some() && h.query_by_label("Match 1.2").is_some()
    });
    h.get_by_label_contains("Round 1 of 3");
    // The projector shows the round's matches, each tile named by its match.
    wait_for(&mut h, "the grid", 20, |h| {
        projector(h).query_by_label_contains("1.1  ").is_some()
            && projector(h).query_by_label_contains("1.2  ").is_some()
    });
    assert!(projector(&h).query_by_label_contains("Alerts").is_none());
    // A click into a match opens its full console; the top bar leads back. (The
    // projector, an embedded window in tests, is put away first: it covers the overview.)
    h.state_mut().projector.open = false;
    h.run_steps(2);
    h.query_all_by_role_and_label(A11y::Button, "Open console")
        .next()
        .unwrap()
        .click();
    wait_for(&mut h, "the console", 10, |h| {
        h.query_by_label_contains("Alerts (").is_some() && h.query_by_label("Match 1.1").is_none()
    });
    h.get_by_role_and_label(A11y::Button, "Overview").click();
    wait_for(&mut h, "the overview again", 10, |h| {
        h.query_by_label("Match 1.1").is_some()
    });
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn between_rounds_the_projector_shows_the_standings() {
    let data = std::env::temp_dir().join(format!("tandem-ui-standings-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let dir = data.join("events").join("done");
    let mut e = event(4);
    let folder = EventFolder::create(&dir, &e).unwrap();
    play_event(&folder, &mut e, &SimulatedPlay::demo(2, 16), |_, _| {}).unwrap();
    let opts = Options {
        projector: true,
        data_dir: data.clone(),
        event: Some("done".into()),
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1900.0, 1200.0])
        .build_eframe(move |cc| TandemApp::new(&cc.egui_ctx, opts, Vec::new()));
    h.run_steps(4);
    h.get_by_label("The event is over");
    let p = projector(&h);
    p.get_by_label("Club night · standings after round 3");
    let first = e.standings()[0].clone();
    let name = format!("{}  (", e.team_name(first.team));
    p.get_by_label_contains(&name);
    drop(h);
    let _ = std::fs::remove_dir_all(&data);
}

/// The overview's card of a table with driven clocks: "Start clocks" only once both clocks
/// are set up and both boards show the start position, and it asks for that match's start.
#[test]
fn a_match_card_offers_start_clocks_once_both_clocks_are_set_up() {
    use crate::common::clocks::{Rig, configs};
    use tandem::arbiter::ClockPlan;

    let mut e = event(2);
    e.pair_next_round().unwrap();
    let g = GameRef {
        round: 1,
        pairing: 1,
        game: 1,
    };
    e.start_game(g, "rounds/1/match-1").unwrap();
    let rules = RulesPreset::built_in("uscf-bughouse");
    let mut rig = Rig::new(rules.clone(), ClockPlan::Drive, configs(&rules, true));
    let card = |view: MatchView, now: u64| {
        vec![OverviewMatch {
            game: g,
            label: "1.1".into(),
            table: Some(0),
            teams: ["Knights".into(), "Pawnstars".into()],
            view: Arc::new(view),
            now,
        }]
    };
    let shown: Rc<RefCell<Vec<OverviewMatch>>> = Rc::new(RefCell::new(card(rig.view(), 0)));
    let (mut h, asked) = overview_alone(e, shown.clone());
    // Boards not yet connected, clocks not set up: nothing to start.
    assert!(
        h.query_by_role_and_label(A11y::Button, "Start clocks")
            .is_none()
    );
    rig.run(4000);
    *shown.borrow_mut() = card(rig.view(), 4000);
    h.run();
    h.get_by_role_and_label(A11y::Button, "Start clocks")
        .click();
    h.run();
    assert_eq!(
        asked.borrow().as_slice(),
        &[OverviewRequest::StartClocks(g)]
    );
    // Started (as the overview's request does it): the button goes.
    rig.td(5000, TdAction::StartClocks);
    rig.run(7000);
    assert!(rig.view().clocks.started);
    *shown.borrow_mut() = card(rig.view(), 7000);
    h.run();
    assert!(
        h.query_by_role_and_label(A11y::Button, "Start clocks")
            .is_none()
    );
}
