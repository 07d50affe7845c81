//! The app on a live station, in real time: virtual DGT boards on pseudo-terminals, the
//! production serial workers and arbiter thread, and the console and projector driven by
//! egui_kittest (no GPU, no window).

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::accesskit::Role as A11y;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use shakmaty::{Color, Piece, Role, Square};
use tandem::BoardId;
use tandem::arbiter::ArbiterConfig;
use tandem::arbiter::view::MatchView;
use tandem::rules::RulesPreset;
use tandem::sim::emulator::PhysicalAction;
use tandem::station::Session;
use tandem::station::demo::DemoBoards;
use tandem::ui::{Options, TandemApp};

use crate::common::live::{assert_whole_match_folder, match_folders};
use crate::common::live::{demo_session, header, temp_dir};

/// Steps the app (in real time) until `done` holds for the live view, or panics.
fn wait_for(
    h: &mut Harness<'static, TandemApp>,
    what: &str,
    secs: u64,
    done: impl Fn(&MatchView) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        h.step();
        if let Some(v) = h.state().view()
            && done(&v)
        {
            h.run();
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
fn a_move_on_a_virtual_board_reaches_both_windows_and_an_unplug_is_loud() {
    let dir = temp_dir("ui-live");
    let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    config.players = ["Ada", "Boris", "Chen", "Dana"].map(str::to_owned);
    let (boards, session) = demo_session(&dir, 5, header(config, "UI live test"));
    for b in BoardId::BOTH {
        boards.handle(b).unwrap().act(PhysicalAction::SetUpStart);
    }
    let opts = Options {
        projector: true,
        data_dir: dir.clone(),
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1700.0, 1100.0])
        .build_eframe(move |cc| TandemApp::with_source(&cc.egui_ctx, Box::new(session), opts));
    wait_for(&mut h, "both boards to connect", 10, |v| {
        v.boards.iter().all(|b| b.link.connected && b.started)
    });
    assert_eq!(h.query_all_by_label("connected").count(), 2);
    // Board B is turned 180° with its clock on the right: the console says so.
    h.get_by_label_contains("turned 180°");

    // White plays e4 on board A, by hand, and presses the clock.
    let a = boards.handle(BoardId::A).unwrap();
    a.act(PhysicalAction::PressClock { by: Color::Black });
    std::thread::sleep(Duration::from_millis(700));
    a.act(PhysicalAction::Lift { square: Square::E2 });
    std::thread::sleep(Duration::from_millis(300));
    a.act(PhysicalAction::Place {
        square: Square::E4,
        piece: Piece {
            color: Color::White,
            role: Role::Pawn,
        },
    });
    std::thread::sleep(Duration::from_millis(400));
    a.act(PhysicalAction::PressClock { by: Color::White });
    wait_for(&mut h, "e4 in the record", 10, |v| !v.record.is_empty());
    h.get_by_label("e4");
    projector(&h).get_by_label("Board A  ·  1. e4");

    // The cable of board B is pulled.
    boards.handle(BoardId::B).unwrap().unplug();
    wait_for(&mut h, "board B lost", 10, |v| {
        v.board(BoardId::B).is_some_and(|b| !b.link.connected)
    });
    h.get_by_label_contains("BOARD B NOT CONNECTED");
    assert!(
        projector(&h)
            .query_by_label_contains("NOT CONNECTED")
            .is_none()
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_app_opens_on_a_demo_match_that_plays_by_itself() {
    let dir = temp_dir("ui-demo");
    let opts = Options {
        projector: true,
        data_dir: dir.clone(),
        seed: 11,
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1700.0, 1100.0])
        .build_eframe(move |cc| TandemApp::new(&cc.egui_ctx, opts, Vec::new()));
    wait_for(&mut h, "the demo's first moves", 25, |v| {
        v.boards.iter().all(|b| v.plies_on(b.id).next().is_some())
    });
    h.get_by_label_contains("demo on virtual boards");
    let p = projector(&h);
    p.get_by_label("Ada & Dana");
    p.get_by_label("Boris & Chen");
    // The demo's record is kept in the data folder, apart from real matches.
    assert!(dir.join("demo/matches").is_dir());
    assert!(tandem::station::folder::unfinished(&dir).is_empty());
    drop(h);
    // The window leaves the same match folder as `tandem station`.
    let folders = match_folders(&dir.join("demo"));
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert_whole_match_folder(&folders[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unfinished_match_is_offered_and_resumed_on_its_boards() {
    let dir = temp_dir("ui-resume");
    let registry = dir.join("registry");
    let boards = DemoBoards::spawn(Some(registry.clone()), 9).unwrap();
    for b in BoardId::BOTH {
        boards.handle(b).unwrap().act(PhysicalAction::SetUpStart);
    }
    let mut config = ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse"));
    config.players = ["Eve", "Fay", "Gus", "Hal"].map(str::to_owned);
    let header = header(config, "Interrupted");
    let match_dir = tandem::station::folder::new_match_dir(&dir, "");
    // By path: these boards live in the test's own registry, not where a resume looks.
    let plans: Vec<_> = boards
        .plans()
        .into_iter()
        .map(|mut p| {
            p.port =
                tandem::device::profile::PortSpec::Path(boards.handle(p.board).unwrap().path());
            p
        })
        .collect();
    let session = Session::start(header, &plans, &match_dir, None, Arc::new(|| {})).unwrap();
    // The boards it was played on, as the app keeps them beside the journal.
    let station = tandem::device::profile::Station {
        boards: plans
            .iter()
            .map(|p| tandem::device::profile::StationBoard {
                board: p.board,
                port: p.port.clone(),
                profile: "virtual".into(),
            })
            .collect(),
    };
    std::fs::write(
        match_dir.join(tandem::station::folder::BOARDS),
        ron::to_string(&station).unwrap(),
    )
    .unwrap();
    let a = boards.handle(BoardId::A).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !session.view().boards.iter().all(|b| b.started) {
        assert!(Instant::now() < deadline, "boards never started");
        std::thread::sleep(Duration::from_millis(100));
    }
    a.act(PhysicalAction::PressClock { by: Color::Black });
    std::thread::sleep(Duration::from_millis(700));
    a.act(PhysicalAction::Lift { square: Square::D2 });
    std::thread::sleep(Duration::from_millis(300));
    a.act(PhysicalAction::Place {
        square: Square::D4,
        piece: Piece {
            color: Color::White,
            role: Role::Pawn,
        },
    });
    std::thread::sleep(Duration::from_millis(400));
    a.act(PhysicalAction::PressClock { by: Color::White });
    let deadline = Instant::now() + Duration::from_secs(10);
    while session.view().record.is_empty() {
        assert!(Instant::now() < deadline, "d4 never recorded");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The power goes: the match is left without its `closed` marker.
    drop(session);
    assert_eq!(
        tandem::station::folder::unfinished(&dir),
        vec![match_dir.clone()]
    );

    let opts = Options {
        projector: false,
        data_dir: dir.clone(),
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1700.0, 1100.0])
        .build_eframe(move |cc| TandemApp::new(&cc.egui_ctx, opts, Vec::new()));
    h.run();
    h.get_by_label("An unfinished match was found");
    h.get_by_label_contains("Interrupted");
    h.get_by_role_and_label(A11y::Button, "Resume it").click();
    wait_for(&mut h, "the resumed match on its boards", 10, |v| {
        v.players[0] == "Eve" && v.boards.iter().all(|b| b.link.connected)
    });
    h.get_by_label("d4");
    h.get_by_label_contains("Interrupted");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn real_boards_start_from_the_set_up_screen() {
    let dir = temp_dir("ui-setup");
    let registry = dir.join("registry");
    let boards = DemoBoards::spawn(Some(registry), 13).unwrap();
    for b in BoardId::BOTH {
        boards.handle(b).unwrap().act(PhysicalAction::SetUpStart);
    }
    let opts = Options {
        projector: false,
        data_dir: dir.clone(),
        board_a: Some(boards.handle(BoardId::A).unwrap().path()),
        board_b: Some(boards.handle(BoardId::B).unwrap().path()),
        profile: "virtual".into(),
        ..Options::default()
    };
    let mut h = Harness::builder()
        .with_size([1400.0, 1000.0])
        .build_eframe(move |cc| TandemApp::new(&cc.egui_ctx, opts, Vec::new()));
    h.run();
    h.get_by_role_and_label(A11y::Button, "Start match");
    for (seat, name) in [
        ("White A", "Eve"),
        ("Black A", "Fay"),
        ("White B", "Gus"),
        ("Black B", "Hal"),
    ] {
        let field = h.get_by_label(seat);
        field.focus();
        field.type_text(name);
        h.run();
    }
    h.get_by_role_and_label(A11y::Button, "Start match").click();
    wait_for(&mut h, "both boards on the new match", 10, |v| {
        v.boards.iter().all(|b| b.link.connected && b.started)
    });
    let v = h.state().view().unwrap();
    assert_eq!(v.players, ["Eve", "Fay", "Gus", "Hal"].map(str::to_owned));
    assert!(h.query_all_by_label("Eve").count() >= 2);
    // The boards are kept beside the journal, for a resume.
    let matches: Vec<_> = std::fs::read_dir(dir.join("matches"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(matches.len(), 1);
    assert!(matches[0].join(tandem::station::folder::BOARDS).is_file());
    // A second start must not end this match by accident.
    h.get_by_role_and_label(A11y::Button, "New match").click();
    h.run();
    h.get_by_label_contains("End the match in progress");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn find_boards_on_the_set_up_screen_fills_in_a_board_by_its_serial() {
    use tandem::ui::setup::{BoardsChoice, SetupForm, show};
    let dir = temp_dir("ui-find");
    let registry = dir.join("registry");
    let boards = DemoBoards::spawn(Some(registry.clone()), 17).unwrap();
    let mut form = SetupForm::new("uscf-bughouse");
    form.boards = BoardsChoice::Ports;
    form.profile = "virtual".into();
    form.registry = Some(registry);
    let mut h = Harness::builder()
        .with_size([1000.0, 900.0])
        .build_ui_state(
            |ui, form: &mut SetupForm| {
                show(ui, form, &[], false, None);
            },
            form,
        );
    h.run();
    h.get_by_role_and_label(A11y::Button, "Find boards").click();
    let deadline = Instant::now() + Duration::from_secs(10);
    while h.query_all_by_label_contains(": DGT board").count() < 2 {
        assert!(Instant::now() < deadline, "no board found");
        std::thread::sleep(Duration::from_millis(100));
        h.step();
    }
    h.run();
    // Both virtual boards answered; the first goes to board B by its serial number.
    let a = boards.handle(BoardId::A).unwrap().path();
    h.get_by_label_contains(&format!("{a}: DGT board"));
    let found = h
        .query_all_by_role_and_label(A11y::Button, "Board B")
        .count();
    assert_eq!(found, 2);
    h.query_all_by_role_and_label(A11y::Button, "Board B")
        .next()
        .unwrap()
        .click();
    h.run();
    let serial = h.state().port_b.clone();
    assert!(
        serial.chars().all(|c| c.is_ascii_digit()) && !serial.is_empty(),
        "{serial}"
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}
