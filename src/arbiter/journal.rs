//! The journal: every input to the arbiter, one JSON line each, written before it is
//! applied. Replaying a journal through a fresh arbiter rebuilds the match exactly (the
//! arbiter is deterministic); `tandem replay` accepts a journal as well as a capture.
//!
//! Format (text, append-only):
//! ```text
//! # tandem journal v1
//! {"header":{...}}          the match set-up: rules, players, timing, event details
//! {"device":{...}}          one input per line (see `Input`)
//! {"tick":{"t_ms":1200}}
//! {"td":{"t_ms":…,"action":{...}}}
//! ```
//! A last line cut short by a power failure (no newline, unparsable) is ignored; any other
//! bad line is an error naming its line and column. This module is pure: the runtime
//! writes the file.

use serde::{Deserialize, Serialize};

use super::ArbiterConfig;
use super::input::Input;

pub const MAGIC: &str = "# tandem journal v1";

/// The set-up of the match, first record of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalHeader {
    pub config: ArbiterConfig,
    /// For the BPGN: event, site, date (`YYYY.MM.DD`) and start time, as the TD set them.
    #[serde(default)]
    pub event: String,
    #[serde(default)]
    pub site: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub time: Option<String>,
    /// The capture file recorded beside the journal, if any.
    #[serde(default)]
    pub capture: Option<String>,
    /// The game's place in an event (`2.3`: round 2, pairing 3), for the BPGN's Round;
    /// empty outside an event (and then not written, so journals read as before).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub round: String,
    /// The teams' names in an event: White A's team (with Black B), Black A's team;
    /// outside an event none (the hall names a team by its players).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<[String; 2]>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    Header(Box<JournalHeader>),
}

/// A journal read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Journal {
    pub header: JournalHeader,
    pub config: ArbiterConfig,
    pub inputs: Vec<Input>,
    /// The last record was cut short and left out.
    pub torn_tail: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct JournalError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Does this text look like a journal (rather than a capture)?
#[must_use]
pub fn is_journal(text: &str) -> bool {
    text.lines().next().is_some_and(|l| l.trim_end() == MAGIC)
}

/// The first two lines of a new journal.
#[must_use]
pub fn header_lines(header: &JournalHeader) -> String {
    let record = Record::Header(Box::new(header.clone()));
    let json = serde_json::to_string(&record).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    format!("{MAGIC}\n{json}\n")
}

/// One input as its journal line (with the newline).
#[must_use]
pub fn input_line(input: &Input) -> String {
    let mut s = serde_json::to_string(input).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// Reads a journal; a torn last record is ignored.
pub fn parse_journal(text: &str) -> Result<Journal, JournalError> {
    let mut lines = text.split_inclusive('\n').enumerate().peekable();
    match lines.next() {
        Some((_, l)) if l.trim_end() == MAGIC => {}
        _ => {
            return Err(JournalError {
                line: 1,
                column: 1,
                message: format!("not a Tandem journal (the first line must be `{MAGIC}`)"),
            });
        }
    }
    let mut header: Option<JournalHeader> = None;
    let mut inputs = Vec::new();
    let mut torn_tail = false;
    while let Some((i, raw)) = lines.next() {
        let line_no = i + 1;
        let is_last = lines.peek().is_none();
        let complete = raw.ends_with('\n');
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if header.is_none() {
            match serde_json::from_str::<Record>(line) {
                Ok(Record::Header(h)) => header = Some(*h),
                Err(e) => {
                    return Err(JournalError {
                        line: line_no,
                        column: e.column(),
                        message: format!("bad journal header: {e}"),
                    });
                }
            }
            continue;
        }
        match serde_json::from_str::<Input>(line) {
            Ok(input) => inputs.push(input),
            Err(_) if is_last && !complete => torn_tail = true,
            Err(e) => {
                return Err(JournalError {
                    line: line_no,
                    column: e.column(),
                    message: format!("bad journal record: {e}"),
                });
            }
        }
    }
    let header = header.ok_or(JournalError {
        line: 2,
        column: 1,
        message: "the journal has no header record".into(),
    })?;
    Ok(Journal {
        config: header.config.clone(),
        header,
        inputs,
        torn_tail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arbiter::TdAction;
    use crate::rules::RulesPreset;

    fn header() -> JournalHeader {
        JournalHeader {
            config: ArbiterConfig::new(RulesPreset::built_in("uscf-bughouse")),
            event: "Club night".into(),
            site: "Here".into(),
            date: "2026.11.21".into(),
            time: None,
            capture: None,
            round: String::new(),
            teams: None,
        }
    }

    #[test]
    fn round_trip_and_torn_tail() {
        let mut text = header_lines(&header());
        let inputs = [Input::Tick { t_ms: 5 }, Input::Tick { t_ms: 9 }];
        for i in &inputs {
            text.push_str(&input_line(i));
        }
        let j = parse_journal(&text).unwrap();
        assert_eq!(j.inputs, inputs);
        assert!(!j.torn_tail);
        let torn = format!("{text}{{\"tick\":{{\"t_");
        let j = parse_journal(&torn).unwrap();
        assert_eq!(j.inputs.len(), 2);
        assert!(j.torn_tail);
    }

    #[test]
    fn a_bad_line_in_the_middle_names_line_and_column() {
        let mut text = header_lines(&header());
        text.push_str("{\"tick\":{\"t_ms\":5}}\n{\"tick\":oops}\n{\"tick\":{\"t_ms\":7}}\n");
        let e = parse_journal(&text).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.column > 1);
        assert!(parse_journal("# tandem capture v1\n").is_err());
    }

    #[test]
    fn td_actions_read_as_journals_have_always_written_them() {
        // Lines as a v1 journal holds them: the piece as its letter, the square as text.
        let mut text = header_lines(&header());
        text.push_str(
            r#"{"td":{"t_ms":9,"action":{"set_promotion":{"ply":{"board":"A","color":"White","number":9},"role":"N"}}}}"#,
        );
        text.push('\n');
        text.push_str(
            r#"{"td":{"t_ms":10,"action":{"choose_hidden_move":{"ply":{"board":"B","color":"Black","number":3},"to":"g7"}}}}"#,
        );
        text.push('\n');
        text.push_str(
            r#"{"td":{"t_ms":11,"action":{"set_dropped_piece":{"ply":{"board":"A","color":"Black","number":2},"role":"Q"}}}}"#,
        );
        text.push('\n');
        text.push_str(
            r#"{"td":{"t_ms":12,"action":{"choose_pair":{"ply":{"board":"A","color":"White","number":2},"moves":"N@f4 Bxh3"}}}}"#,
        );
        text.push('\n');
        // Where two lying pieces could have gone, the TD names the one that went.
        text.push_str(
            r#"{"td":{"t_ms":13,"action":{"choose_hidden_move":{"ply":{"board":"A","color":"White","number":11},"from":"h8","to":"g7"}}}}"#,
        );
        text.push('\n');
        let j = parse_journal(&text).unwrap();
        let actions: Vec<&TdAction> = j
            .inputs
            .iter()
            .filter_map(|i| match i {
                Input::Td { action, .. } => Some(action),
                _ => None,
            })
            .collect();
        assert!(matches!(
            actions[0],
            TdAction::SetPromotion {
                role: shakmaty::Role::Knight,
                ..
            }
        ));
        assert!(matches!(
            actions[1],
            TdAction::ChooseHiddenMove {
                from: None,
                to: shakmaty::Square::G7,
                ..
            }
        ));
        assert!(matches!(
            actions[4],
            TdAction::ChooseHiddenMove {
                from: Some(shakmaty::Square::H8),
                to: shakmaty::Square::G7,
                ..
            }
        ));
        assert!(matches!(
            actions[2],
            TdAction::SetDroppedPiece {
                role: shakmaty::Role::Queen,
                ..
            }
        ));
        assert!(matches!(
            &actions[3],
            TdAction::ChoosePair { moves, .. } if moves == "N@f4 Bxh3"
        ));
        // Written back the same way.
        let again: String = j.inputs.iter().map(input_line).collect();
        assert!(
            again.contains(r#""role":"N""#)
                && again.contains(r#""number":3},"to":"g7""#)
                && again.contains(r#""number":11},"from":"h8","to":"g7""#)
                && again.contains(r#""set_dropped_piece":{"ply":{"board":"A","color":"Black","number":2},"role":"Q"}"#)
                && again.contains(r#""choose_pair":{"ply":{"board":"A","color":"White","number":2},"moves":"N@f4 Bxh3"}"#),
            "{again}"
        );
        // A piece or square that is none is refused with its line and column.
        let bad = text.replace(r#""role":"N""#, r#""role":"X""#);
        let e = parse_journal(&bad).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("no piece"), "{e}");
        let bad = text.replace(r#""to":"g7""#, r#""to":"z9""#);
        let e = parse_journal(&bad).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        assert!(e.message.contains("no square"), "{e}");
        let bad = text.replace(r#""from":"h8""#, r#""from":"h9""#);
        let e = parse_journal(&bad).unwrap_err();
        assert_eq!(e.line, 7, "{e}");
        assert!(e.message.contains("no square"), "{e}");
    }

    #[test]
    fn an_old_header_with_timing_as_a_list_still_reads() {
        // The timing as journals have always held it: a list, board A then board B (here
        // a USB board and a Bluetooth board written before `scan_ms` existed).
        let old_timing = r#"[{"scan_ms":250,"settle_ms":300,"max_wait_ms":3000,"stable_ms":1500,"displaced_ms":2000,"drop_grace_ms":2500,"unexplained_ms":2000},{"settle_ms":550,"max_wait_ms":3500,"stable_ms":2000,"displaced_ms":2500,"drop_grace_ms":2500,"unexplained_ms":2500}]"#;
        let line = serde_json::to_string(&Record::Header(Box::new(header()))).unwrap();
        let start = line.find(r#""timing":"#).unwrap() + r#""timing":"#.len();
        let end = start + line[start..].find(']').unwrap() + 1;
        let old_line = format!("{}{old_timing}{}", &line[..start], &line[end..]);
        let j = parse_journal(&format!("{MAGIC}\n{old_line}\n")).unwrap();
        let timing = &j.config.timing;
        assert_eq!(
            timing[crate::BoardId::A],
            super::super::Timing::for_scan_period(250)
        );
        assert_eq!(timing[crate::BoardId::B].settle_ms, 550);
        // A missing scan period reads as a USB board's, as before.
        assert_eq!(timing[crate::BoardId::B].scan_ms, 250);
        // And it is written back in the same form.
        let again = serde_json::to_string(&j.config.timing).unwrap();
        assert!(
            again.starts_with(r#"[{"scan_ms":250,"settle_ms":300,"#),
            "{again}"
        );
        assert!(
            again.contains(r#"},{"scan_ms":250,"settle_ms":550,"#),
            "{again}"
        );
    }
}
