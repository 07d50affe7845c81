//! `tandem decode CAPTURE`: every decoded DGT message of a capture file as one JSON object
//! per line, in order, one decoder per board. Squares are the field numbers read with the
//! *normal* orientation (field 0 = a8): orientation is the arbiter's business.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::device::{CaptureError, read_capture};
use crate::dgt::{ClockTimes, Decoder, Message, Orientation, PieceCode, field_to_square};
use crate::{BoardId, Millis};

pub fn run(capture: &Path) -> anyhow::Result<ExitCode> {
    match print(capture) {
        // `tandem decode … | head` closes the pipe early: not an error.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        other => other,
    }
}

fn print(capture: &Path) -> anyhow::Result<ExitCode> {
    let chunks = match read_capture(capture) {
        Ok(c) => c,
        Err(e @ CaptureError::Syntax { .. }) => {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(e.into()),
    };
    let mut decoders = [Decoder::new(), Decoder::new()];
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut last_t = [0; 2];
    for c in &chunks {
        let mut msgs = Vec::new();
        if let Some(d) = decoders.get_mut(c.board.index()) {
            d.push(&c.bytes, &mut msgs);
        }
        if let Some(t) = last_t.get_mut(c.board.index()) {
            *t = c.t_ms;
        }
        for m in &msgs {
            writeln!(out, "{}", message_line(c.t_ms, c.board, m))?;
        }
    }
    // Whatever a board left unfinished at the end.
    for board in BoardId::BOTH {
        let mut msgs = Vec::new();
        if let Some(d) = decoders.get_mut(board.index()) {
            d.finish(&mut msgs);
        }
        let t = last_t.get(board.index()).copied().unwrap_or(0);
        for m in &msgs {
            writeln!(out, "{}", message_line(t, board, m))?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn piece_fields(code: PieceCode, obj: &mut Fields) {
    let c = code.fen_char();
    obj.push(("piece", json!(c.to_string())));
    if c == '?' {
        obj.push(("code", json!(code.0)));
    }
}

fn clock_json(t: &ClockTimes, obj: &mut Fields) {
    obj.push(("left", json!(t.left.hms())));
    obj.push(("right", json!(t.right.hms())));
    obj.push(("running", json!(t.running.map(|s| s.name()))));
    obj.push(("lever", json!(t.lever_high.name())));
    obj.push(("left_flag", json!(t.left.flag())));
    obj.push(("right_flag", json!(t.right.flag())));
    obj.push(("no_clock", json!(t.no_clock)));
    obj.push(("battery_low", json!(t.battery_low)));
    obj.push(("status", json!(t.status)));
}

/// Extra keys of a line, in output order.
type Fields = Vec<(&'static str, Value)>;

/// One message as a JSON line (the `tandem decode` format): `t_ms`, `board` and `msg`
/// first, then the message's own keys.
#[must_use]
pub fn message_line(t_ms: Millis, board: BoardId, m: &Message) -> String {
    let mut o: Fields = Vec::new();
    match m {
        Message::BoardDump(f) => {
            o.push(("placement", json!(f.placement_fen())));
        }
        Message::FieldUpdate { field, code } => {
            let sq = field_to_square(*field, Orientation::Normal).map(|s| s.to_string());
            o.push(("square", json!(sq)));
            o.push(("field", json!(field)));
            piece_fields(*code, &mut o);
        }
        Message::Clock(t) => clock_json(t, &mut o),
        Message::ClockAck(a) => {
            o.push(("ack", json!([a.ack0, a.ack1, a.ack2, a.ack3])));
            o.push(("ok", json!(a.is_ok())));
            o.push(("button", json!(a.button().map(|b| b.name()))));
            o.push(("command", json!(a.acked_command())));
            if let Some((major, minor)) = a.version() {
                o.push(("version", json!(format!("{major}.{minor}"))));
            }
        }
        Message::ClockEmpty => {}
        Message::SerialNumber(s) | Message::LongSerialNumber(s) | Message::Trademark(s) => {
            o.push(("value", json!(s)));
        }
        Message::Version { major, minor } => {
            o.push(("major", json!(major)));
            o.push(("minor", json!(minor)));
        }
        Message::BusAddress(a) => {
            o.push(("value", json!(a)));
        }
        Message::Battery(b) => {
            o.push(("percent", json!(b.percent)));
            o.push(("raw", json!(crate::dgt::hex::encode(&b.raw))));
        }
        Message::EeMoves { bytes } => {
            o.push(("bytes", json!(bytes.len())));
        }
        Message::Malformed { id, payload } => {
            o.push(("id", json!(id)));
            o.push(("payload", json!(crate::dgt::hex::encode(payload))));
        }
        Message::Unknown { id, len } => {
            o.push(("id", json!(id)));
            o.push(("len", json!(len)));
        }
        Message::Garbage { bytes } => {
            o.push(("bytes", json!(bytes)));
        }
    }
    let mut line = format!(
        "{{\"t_ms\":{t_ms},\"board\":\"{board}\",\"msg\":\"{}\"",
        m.kind()
    );
    for (k, v) in o {
        line.push_str(&format!(",{}:{v}", Value::String(k.to_string())));
    }
    line.push('}');
    line
}
