//! `tandem decode` as a user runs it.

#![allow(clippy::unwrap_used)] // tests may unwrap

use std::process::Command;

fn tandem() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tandem"))
}

#[test]
fn decodes_a_real_capture() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/fixtures/dgt/real-1.capture"
    );
    let out = tandem().args(["decode", path]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"t_ms":0,"board":"A","msg":"board_dump","placement":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"}"#
    );
    assert!(lines[1].starts_with(r#"{"t_ms":0,"board":"A","msg":"clock","left":"0:03:02","right":"0:03:02","running":null,"#), "{}", lines[1]);
    assert!(lines[2].contains(r#""running":"left""#));
    assert_eq!(
        lines[4],
        r#"{"t_ms":1533,"board":"A","msg":"field_update","square":"e2","field":52,"piece":"."}"#
    );
    assert_eq!(
        lines[5],
        r#"{"t_ms":1866,"board":"A","msg":"field_update","square":"e4","field":36,"piece":"P"}"#
    );
    let mut updates = 0;
    for l in &lines {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_ne!(v["msg"], "garbage");
        if v["msg"] == "field_update" {
            updates += 1;
        }
    }
    assert_eq!(updates, 131);
}

#[test]
fn unknown_codes_and_garbage_are_shown() {
    let dir = std::env::temp_dir().join(format!("tandem-cli-decode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("odd.capture");
    std::fs::write(
        &path,
        "# tandem capture v1\n0 A 01028e0005240d\n3 B 9100083132333435\n",
    )
    .unwrap();
    let out = tandem().arg("decode").arg(&path).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        r#"{"t_ms":0,"board":"A","msg":"garbage","bytes":2}"#
    );
    assert_eq!(
        lines[1],
        r#"{"t_ms":0,"board":"A","msg":"field_update","square":"e4","field":36,"piece":"?","code":13}"#
    );
    assert_eq!(
        lines[2],
        r#"{"t_ms":3,"board":"B","msg":"serial","value":"12345"}"#
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_malformed_capture_exits_1_naming_the_line() {
    let dir = std::env::temp_dir().join(format!("tandem-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.capture");
    std::fs::write(&path, "# tandem capture v1\n0 A 8e00\n7 X 00\n").unwrap();
    let out = tandem().arg("decode").arg(&path).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err.trim(),
        format!("{}:3:3: bad board `X`: expected A or B", path.display())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
