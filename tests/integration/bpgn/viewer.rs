//! The BughouseDB-style JavaScript viewer (bmacho/bughouse-viewer `hy.js`, the SKA/Fermy
//! viewer, version 2021-05-06) reads our files move for move: notes in its `{C: ...}`
//! form, clocks it takes for times, an Event that keeps it in bughouse mode. The old note
//! form `{Illegal: ...}` still reads in Tandem.

#![allow(clippy::unwrap_used)] // tests may unwrap

use super::*;

/// What the viewer makes of a game: how many moves it shows and the result it found.
#[derive(Debug, PartialEq, Eq)]
struct ViewerRead {
    moves: usize,
    result: Option<String>,
}

/// A model of the viewer's movetext reading, rule for rule from `hy.js`:
/// - `extracttext`: the movetext starts after the last `]` before the first `{`;
/// - `bpgngetfirstnote`: one comment before the first move, read as a note only if it
///   starts `C:` (a note needs at least 3 characters, `bpgnisnote`);
/// - `bpgngetmove`: a `{` where a move number belongs is read as a termination comment
///   and must be followed by a result token, else the game ends there;
/// - `gettoken`: a move is a run of `\w` and `+#=:-@` (`SYMB`); `.` is a token of its own;
/// - `bpgngettime`: the first comment after a move is the mover's time (`Number(...)`);
///   a time that is not a number, or is 0, ends the game and the move is lost
///   (`if (!cTime) break`); no comment at all is an omitted time;
/// - `BPGN_GetBody`/`bpgngetnote`: then up to one note (`C:`) and one annotation (`A:` or
///   `L:`); a comment of another kind must be the termination comment (`{...} 1-0`),
///   else the game ends before this move; a second note or annotation ends it too.
fn viewer_read(text: &str) -> ViewerRead {
    let body = match text.find('{') {
        Some(brace) => &text[text[..brace].rfind(']').map_or(0, |i| i + 1)..],
        None => &text[text.rfind(']').map_or(0, |i| i + 1)..],
    };
    let tokens = viewer_tokens(body);
    let mut at = 0;
    let mut read = ViewerRead {
        moves: 0,
        result: None,
    };
    let is_result = |t: Option<&ViewerToken>| matches!(t, Some(ViewerToken::Word(w)) if ["1-0", "0-1", "1/2-1/2", "*"].contains(&w.as_str()));
    let note_kind = |c: &str| -> Option<char> {
        let mut chars = c.chars();
        match (chars.next(), chars.next()) {
            (Some(k @ ('C' | 'A' | 'L')), Some(':')) if c.chars().count() >= 3 => Some(k),
            _ => None,
        }
    };
    // One note before the first move.
    if let Some(ViewerToken::Comment(c)) = tokens.first() {
        if note_kind(c) != Some('C') {
            return read;
        }
        at = 1;
    }
    loop {
        match tokens.get(at) {
            None => return read,
            Some(ViewerToken::Comment(_)) => {
                if is_result(tokens.get(at + 1)) {
                    read.result = match tokens.get(at + 1) {
                        Some(ViewerToken::Word(w)) => Some(w.clone()),
                        _ => None,
                    };
                }
                return read;
            }
            Some(ViewerToken::Word(w)) if is_result(Some(&ViewerToken::Word(w.clone()))) => {
                return read;
            }
            Some(ViewerToken::Word(number)) => {
                let digits = number
                    .trim_end_matches('.')
                    .trim_end_matches(['A', 'a', 'B', 'b']);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return read;
                }
                let Some(ViewerToken::Word(mv)) = tokens.get(at + 1) else {
                    return read;
                };
                let symbol = |c: char| c.is_alphanumeric() || c == '_' || "+#=:-@".contains(c);
                if !mv.chars().all(symbol) {
                    return read;
                }
                at += 2;
                // The time.
                if let Some(ViewerToken::Comment(t)) = tokens.get(at) {
                    let t = t.trim();
                    let number = if t.is_empty() {
                        Some(0.0)
                    } else {
                        t.parse::<f64>().ok()
                    };
                    match number {
                        Some(n) if n != 0.0 => at += 1,
                        _ => return read,
                    }
                }
                // Notes, or the termination comment.
                let mut kinds: Vec<char> = Vec::new();
                while kinds.len() < 2
                    && let Some(ViewerToken::Comment(c)) = tokens.get(at)
                {
                    match note_kind(c) {
                        // One note (`C:`) and one annotation (`A:`/`L:`) at most.
                        Some(k) if kinds.iter().any(|&seen| (seen == 'C') == (k == 'C')) => {
                            return read;
                        }
                        Some(k) => {
                            kinds.push(k);
                            at += 1;
                        }
                        None if is_result(tokens.get(at + 1)) => {
                            read.moves += 1;
                            read.result = match tokens.get(at + 1) {
                                Some(ViewerToken::Word(w)) => Some(w.clone()),
                                _ => None,
                            };
                            return read;
                        }
                        None => return read,
                    }
                }
                read.moves += 1;
            }
        }
    }
}

#[derive(Debug, PartialEq)]
enum ViewerToken {
    Word(String),
    /// The text between `{` and `}`, untrimmed.
    Comment(String),
}

/// Words split on whitespace and at `{`; a number glued to its move (`1A.e4`) is split
/// after the dot as the viewer's tokenizer does.
fn viewer_tokens(body: &str) -> Vec<ViewerToken> {
    let mut tokens = Vec::new();
    let mut chars = body.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<ViewerToken>| {
        if word.is_empty() {
            return;
        }
        // `12A.e4` → `12A.` `e4`.
        match word.find('.') {
            Some(dot) if dot + 1 < word.len() && word.as_bytes()[0].is_ascii_digit() => {
                tokens.push(ViewerToken::Word(word[..=dot].to_owned()));
                tokens.push(ViewerToken::Word(word[dot + 1..].to_owned()));
            }
            _ => tokens.push(ViewerToken::Word(word.clone())),
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut word, &mut tokens);
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                tokens.push(ViewerToken::Comment(comment));
            }
            c if c.is_whitespace() => flush(&mut word, &mut tokens),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut tokens);
    tokens
}

/// The Event as the viewer reads it (`bpgnheader`: the first `[Event` in the text) and the
/// rules it picks from it (`setcapture`, two-board viewer).
fn viewer_mode(text: &str) -> &'static str {
    let event = text
        .find("[Event")
        .and_then(|i| text[i..].split('"').nth(1))
        .unwrap_or("")
        .to_lowercase();
    for (word, mode) in [
        ("bughouse", "bug"),
        ("crazyhouse", "zh"),
        ("atomic", "atomic"),
        ("chess", "chess"),
    ] {
        if event.contains(word) {
            return mode;
        }
    }
    "bug"
}

#[test]
fn the_viewer_model_reads_the_fics_fixtures_whole() {
    for (name, total) in FIXTURES {
        let text = fixture_text(name);
        let read = viewer_read(&text);
        assert_eq!(read.moves, total, "{name}");
        assert!(
            read.result.is_some(),
            "{name}: the termination comment and result"
        );
        assert_eq!(viewer_mode(&text), "bug");
    }
}

#[test]
fn the_viewer_reads_our_files_whole_notes_and_illegal_moves_included() {
    // Our writes of the fixtures.
    for (name, total) in FIXTURES {
        let g = read_bpgn_file(&fixture(name), &uscf()).unwrap().remove(0);
        let text = write_bpgn(&g.game, &g.header);
        assert_eq!(viewer_read(&text).moves, total, "{name}");
    }
    // A match with illegal moves that stood, notes, an illegal move with a note (the TD let
    // it stand), and a clock at zero.
    let mut m = Match::new(uscf());
    play(&mut m, A, "e4", Some(299_000));
    play(&mut m, A, "e5", Some(298_500));
    play(&mut m, A, "Bc1c3", Some(297_000));
    play(&mut m, B, "d4", Some(296_000));
    play(&mut m, A, "N@c6", Some(296_000));
    play(&mut m, A, "Qd1h5", Some(0));
    m.set_comment(3, Some("TD: move entered by hand".into()))
        .unwrap();
    m.set_comment(
        2,
        Some("TD: illegal move stands (not claimed in time)".into()),
    )
    .unwrap();
    m.declare(MatchResult {
        winner: Some(Team::BlackA),
        reason: EndReason::Resignation {
            seat: seat(A, Color::White),
        },
        t_ms: None,
    });
    let text = write_bpgn(&m, &BpgnHeader::default());
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for written in [
        "2A. Bc1c3{297.000} {C: Illegal: the piece cannot move there; TD: illegal move stands (not claimed in time)}",
        "1B. d4{296.000} {C: TD: move entered by hand}",
        "3A. Qh5{0.0001}",
    ] {
        assert!(flat.contains(written), "{written} not in\n{text}");
    }
    assert_eq!(
        viewer_read(&text),
        ViewerRead {
            moves: 6,
            result: Some("0-1".into())
        },
        "{text}"
    );
    // Everything reads back in Tandem: the marks, the notes, the zero clock.
    let g = read_one(&text, &uscf());
    assert_eq!(plies(&g.game), plies(&m));
    assert_eq!(g.game.record()[5].meta.clock_ms, Some(0));
    assert_eq!(write_bpgn(&g.game, &g.header), text);
}

#[test]
fn the_old_note_form_cut_the_game_in_the_viewer_and_still_reads_in_tandem() {
    // As Tandem wrote it before: `{Illegal: ...}` and bare notes after the clock.
    let old = "[Event \"Club bughouse\"]\n[WhiteA \"Ann\"]\n\n\
               1A. e4{299.000} 1a. e5{298.500} 2A. Bc1c3{297.000} {Illegal: the piece cannot \
               move there} {TD: illegal move stands (not claimed in time)} 1B. d4 {partner was \
               fast} 2a. N@c6{296.000} {Illegal: piece not in reserve}\n{Unfinished} *\n";
    // The viewer stops before 2A: it takes `{Illegal: ...}` for the end of the game.
    assert_eq!(viewer_read(old).moves, 2);
    let g = read_one(old, &uscf());
    let r = g.game.record();
    assert_eq!(r.len(), 5);
    assert_eq!(r[2].san, "Bc1c3");
    assert_eq!(
        r[2].legality,
        Legality::Illegal(IllegalReason::CannotMoveThere),
        "recorded as played"
    );
    assert_eq!(
        r[2].meta.comment.as_deref(),
        Some("TD: illegal move stands (not claimed in time)")
    );
    assert_eq!(r[3].meta.comment.as_deref(), Some("partner was fast"));
    assert_eq!(
        r[4].legality,
        Legality::Illegal(IllegalReason::NotInReserve)
    );
    // Written again, in the new form; the same record reads from it.
    let new = write_bpgn(&g.game, &g.header);
    let flat = new.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("{C: Illegal: the piece cannot move there; TD: illegal move stands"));
    assert!(!new.contains("{Illegal:"));
    let again = read_one(&new, &uscf());
    assert_eq!(plies(&again.game), plies(&g.game));
    // The viewer now reads past the illegal move, up to 1B. d4, which has no clock: it takes
    // the note after it for the time and stops (README: what cannot travel).
    assert_eq!(viewer_read(&new).moves, 3);
    let clocked = old.replace("1B. d4 {partner", "1B. d4{295.000} {partner");
    let new = write_bpgn(&read_one(&clocked, &uscf()).game, &g.header);
    assert_eq!(viewer_read(&new).moves, 5, "{new}");
    // Without a mark, the same move is an error, in either form.
    let bare = old.replace("{Illegal: the piece cannot move there}", "");
    assert!(
        read_err(&bare, &uscf())
            .message
            .contains("illegal move Bc1c3")
    );
}

#[test]
fn an_illegal_note_on_a_legal_move_is_only_a_note() {
    for text in [
        "1A. e4 {C: Illegal: wrong hand on the clock} 1a. e5 *",
        "1A. e4 {Illegal: wrong hand on the clock} 1a. e5 *",
    ] {
        let g = read_one(text, &uscf());
        let first = &g.game.record()[0];
        assert_eq!(first.legality, Legality::Legal);
        assert_eq!(
            first.meta.comment.as_deref(),
            Some("Illegal: wrong hand on the clock"),
            "{text}"
        );
        let written = write_bpgn(&g.game, &g.header);
        assert!(written.contains("1A. e4 {C: Illegal: wrong hand on the clock}"));
        assert_eq!(plies(&read_one(&written, &uscf()).game), plies(&g.game));
    }
    // Notes in the viewer's other forms: annotations and lag stay whole and are never the
    // termination comment.
    let g = read_one(
        "1A. e4{299.1} {C: good} {A: !?} 1a. e5{298} {L: 0.2} *",
        &uscf(),
    );
    let r = g.game.record();
    assert_eq!(r[0].meta.comment.as_deref(), Some("good A: !?"));
    assert_eq!(r[1].meta.comment.as_deref(), Some("L: 0.2"));
    assert!(g.termination.is_none());
}

#[test]
fn the_event_is_the_events_own_name_never_a_file_path() {
    let m = Match::new(uscf());
    let event = |name: &str| {
        let header = BpgnHeader {
            event: name.to_owned(),
            ..BpgnHeader::default()
        };
        let text = write_bpgn(&m, &header);
        let line = text.lines().next().unwrap().to_owned();
        (line, viewer_mode(&text))
    };
    for path_like in [
        "Tandem replay of /home/td/chess/round1.capture",
        "Tandem replay of captures/chess-club.capture",
        "Tandem replay of game.journal",
        "Tandem replay of C:\\Users\\td\\match",
        "Tandem replay of ./m",
        "Tandem replay of ~/bughouse",
    ] {
        assert_eq!(
            event(path_like),
            ("[Event \"?\"]".into(), "bug"),
            "{path_like}"
        );
    }
    // Names stay as typed; one that would switch the viewer into ordinary chess (it picks
    // its rules from the Event) says it is bughouse.
    assert_eq!(
        event("Spring open 2024/25").0,
        "[Event \"Spring open 2024/25\"]"
    );
    assert_eq!(
        event("Bughouse night at the chess club"),
        ("[Event \"Bughouse night at the chess club\"]".into(), "bug")
    );
    assert_eq!(
        event("Springfield Chess Club v1.2"),
        (
            "[Event \"Springfield Chess Club v1.2 (bughouse)\"]".into(),
            "bug"
        )
    );
    assert_eq!(event("  "), ("[Event \"?\"]".into(), "bug"));
    // The mark is added once: the name read back already says bughouse.
    let header = BpgnHeader {
        event: "Chess club".into(),
        ..BpgnHeader::default()
    };
    let text = write_bpgn(&m, &header);
    let again = read_one(&text, &uscf());
    assert_eq!(again.header.event, "Chess club (bughouse)");
    assert_eq!(write_bpgn(&again.game, &again.header), text);
    // A single-board match is not bughouse: its name is kept as it is.
    let blitz = Match::new(RulesPreset::built_in("uscf-blitz"));
    let text = write_bpgn(&blitz, &header);
    assert!(text.starts_with("[Event \"Chess club\"]\n"));
}

#[test]
fn replaying_a_capture_names_no_file_in_the_event() {
    let dir = temp_dir("replay-event");
    let capture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/dgt/real-1.capture");
    let bpgn = dir.join("chess-real-1.bpgn");
    let out = tandem(&[
        "replay",
        &capture.display().to_string(),
        "--bpgn",
        &bpgn.display().to_string(),
        "--alerts",
        &dir.join("alerts.jsonl").display().to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&bpgn).unwrap();
    let event = text.lines().next().unwrap();
    assert!(
        !event.contains("capture") && !event.contains('/'),
        "{event}"
    );
    assert_eq!(viewer_mode(&text), "bug");
    let g = read_one(&text, &uscf());
    assert_eq!(viewer_read(&text).moves, g.game.record().len());
}
