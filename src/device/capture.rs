//! Capture files: the raw bytes each board sent, with their times (`tandem capture v1`).
//!
//! Format (a stable interface):
//! - line 1 is exactly `# tandem capture v1`;
//! - any other line starting with `#` is a comment; empty lines are ignored;
//! - each data line is `<t_ms> <A|B> <hex>`: milliseconds since the start of the capture
//!   (non-decreasing through the file), the board, and the bytes received from that board's
//!   serial port as hex digits without separators (any chunking, at least one byte).
//!   Fields are separated by spaces or tabs; a trailing `\r` is accepted.
//!
//! A last line without its newline is what a power cut leaves behind: if it cannot be read
//! whole, its complete leading bytes are kept (a dangling half byte is dropped), and if not
//! even its time and board can be read it is dropped. That is never an error.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::dgt::hex;
use crate::{BoardId, Millis};

pub const HEADER: &str = "# tandem capture v1";

/// Bytes received from one board in one read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureChunk {
    pub t_ms: Millis,
    pub board: BoardId,
    pub bytes: Vec<u8>,
}

/// Where and why a capture could not be read. Displays as `FILE:LINE:COL: reason`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CaptureError {
    #[error("{}{line}:{col}: {reason}", file.as_deref().map(|f| format!("{f}:")).unwrap_or_default())]
    Syntax {
        file: Option<String>,
        line: usize,
        col: usize,
        reason: String,
    },
    #[error("{file}: {reason}")]
    Io { file: String, reason: String },
}

impl CaptureError {
    fn at(line: usize, col: usize, reason: impl Into<String>) -> Self {
        CaptureError::Syntax {
            file: None,
            line,
            col,
            reason: reason.into(),
        }
    }

    /// The same error, naming the file it was found in.
    #[must_use]
    pub fn in_file(self, path: &Path) -> Self {
        match self {
            CaptureError::Syntax {
                line, col, reason, ..
            } => CaptureError::Syntax {
                file: Some(path.display().to_string()),
                line,
                col,
                reason,
            },
            other => other,
        }
    }

    /// `(line, col)` of a syntax error.
    #[must_use]
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            CaptureError::Syntax { line, col, .. } => Some((*line, *col)),
            CaptureError::Io { .. } => None,
        }
    }
}

/// One whitespace-separated token with its 1-based column.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        let blank = c == ' ' || c == '\t';
        match (blank, start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, line.get(s..i).unwrap_or("")));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.get(s..).unwrap_or("")));
    }
    // Columns count characters, 1-based.
    out.into_iter()
        .map(|(byte_pos, t)| (line.get(..byte_pos).map_or(0, |p| p.chars().count()) + 1, t))
        .collect()
}

/// Parses one data line. `truncated`: the last line, without its newline.
fn parse_line(
    line_no: usize,
    line: &str,
    last_t: Millis,
    truncated: bool,
) -> Result<Option<CaptureChunk>, CaptureError> {
    let toks = tokens(line);
    let end_col = line.chars().count() + 1;
    let (t_col, t_tok) = toks.first().copied().unwrap_or((1, ""));
    let t_ms: Millis = t_tok.parse().map_err(|_| {
        CaptureError::at(
            line_no,
            t_col,
            format!("bad time `{t_tok}`: expected milliseconds"),
        )
    })?;
    if t_ms < last_t {
        return Err(CaptureError::at(
            line_no,
            t_col,
            format!("time goes backwards ({t_ms} after {last_t})"),
        ));
    }
    let Some(&(b_col, b_tok)) = toks.get(1) else {
        return Err(CaptureError::at(
            line_no,
            end_col,
            "missing board letter (A or B)",
        ));
    };
    let board = match b_tok {
        "A" => BoardId::A,
        "B" => BoardId::B,
        other => {
            return Err(CaptureError::at(
                line_no,
                b_col,
                format!("bad board `{other}`: expected A or B"),
            ));
        }
    };
    let Some(&(h_col, h_tok)) = toks.get(2) else {
        return Err(CaptureError::at(line_no, end_col, "missing hex bytes"));
    };
    if let Some(&(x_col, _)) = toks.get(3) {
        return Err(CaptureError::at(
            line_no,
            x_col,
            "unexpected text after the hex bytes",
        ));
    }
    let digits = h_tok.as_bytes();
    let mut bytes = Vec::with_capacity(digits.len() / 2);
    for (pair_index, pair) in digits.chunks(2).enumerate() {
        let col = h_col + pair_index * 2;
        let value = match pair {
            [hi, lo] => match (hex::digit(*hi), hex::digit(*lo)) {
                (Some(h), Some(l)) => Ok(h << 4 | l),
                (None, _) => Err((col, "invalid hex digit")),
                (_, None) => Err((col + 1, "invalid hex digit")),
            },
            _ => Err((col, "odd number of hex digits")),
        };
        match value {
            Ok(v) => bytes.push(v),
            // A power cut keeps the complete bytes before the cut.
            Err(_) if truncated => break,
            Err((c, why)) => return Err(CaptureError::at(line_no, c, why)),
        }
    }
    if bytes.is_empty() {
        return if truncated {
            Ok(None)
        } else {
            Err(CaptureError::at(line_no, h_col, "missing hex bytes"))
        };
    }
    Ok(Some(CaptureChunk { t_ms, board, bytes }))
}

/// Parses a whole capture.
pub fn parse_capture(text: &str) -> Result<Vec<CaptureChunk>, CaptureError> {
    let mut chunks = Vec::new();
    let mut last_t = 0;
    let ends_with_newline = text.ends_with('\n');
    let lines: Vec<&str> = text.split('\n').collect();
    // `split` yields an empty piece after a final newline.
    let count = if ends_with_newline {
        lines.len().saturating_sub(1)
    } else {
        lines.len()
    };
    for (i, raw) in lines.iter().take(count).enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let truncated = !ends_with_newline && line_no == count;
        if line_no == 1 {
            if line.trim_end() != HEADER {
                return Err(CaptureError::at(
                    1,
                    1,
                    format!("bad header: expected `{HEADER}`"),
                ));
            }
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        match parse_line(line_no, line, last_t, truncated) {
            Ok(Some(chunk)) => {
                last_t = chunk.t_ms;
                chunks.push(chunk);
            }
            Ok(None) => {}
            Err(_) if truncated => {}
            Err(e) => return Err(e),
        }
    }
    if count == 0 {
        return Err(CaptureError::at(
            1,
            1,
            format!("bad header: expected `{HEADER}`"),
        ));
    }
    Ok(chunks)
}

/// Reads and parses a capture file; errors name the file.
pub fn read_capture(path: &Path) -> Result<Vec<CaptureChunk>, CaptureError> {
    let text = std::fs::read_to_string(path).map_err(|e| CaptureError::Io {
        file: path.display().to_string(),
        reason: e.to_string(),
    })?;
    parse_capture(&text).map_err(|e| e.in_file(path))
}

/// Writes a capture, one flushed line per chunk so that nothing is lost on a crash. Times
/// are clamped to be non-decreasing (two boards' workers may take the lock in the other
/// order than they timestamped their chunks).
pub struct CaptureWriter {
    out: Box<dyn Write + Send>,
    path: Option<PathBuf>,
    last_t: Millis,
}

impl std::fmt::Debug for CaptureWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaptureWriter")
            .field("path", &self.path)
            .field("last_t", &self.last_t)
            .finish_non_exhaustive()
    }
}

impl CaptureWriter {
    /// Creates (truncates) `path` and writes the header.
    pub fn create(path: &Path) -> io::Result<Self> {
        let file = File::create(path)?;
        let mut w = Self::from_writer(Box::new(BufWriter::new(file)))?;
        w.path = Some(path.to_path_buf());
        Ok(w)
    }

    /// Appends to `path` (creating it with a header if missing or empty). New times never go
    /// below the last time already in the file.
    pub fn append(path: &Path) -> io::Result<Self> {
        let existing = std::fs::read_to_string(path).unwrap_or_default();
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        let last_t = if existing.is_empty() {
            writeln!(file, "{HEADER}")?;
            0
        } else {
            if !existing.ends_with('\n') {
                // Finish a line cut by a power failure before adding ours.
                writeln!(file)?;
            }
            parse_capture(&existing)
                .ok()
                .and_then(|c| c.last().map(|c| c.t_ms))
                .unwrap_or(0)
        };
        file.flush()?;
        Ok(CaptureWriter {
            out: Box::new(BufWriter::new(file)),
            path: Some(path.to_path_buf()),
            last_t,
        })
    }

    /// A capture written to any sink (header written now).
    pub fn from_writer(mut out: Box<dyn Write + Send>) -> io::Result<Self> {
        writeln!(out, "{HEADER}")?;
        out.flush()?;
        Ok(CaptureWriter {
            out,
            path: None,
            last_t: 0,
        })
    }

    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Writes one chunk and flushes. Empty chunks are skipped.
    pub fn write_chunk(&mut self, t_ms: Millis, board: BoardId, bytes: &[u8]) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let t = t_ms.max(self.last_t);
        self.last_t = t;
        writeln!(self.out, "{t} {board} {}", hex::encode(bytes))?;
        self.out.flush()
    }

    /// A `#` comment line (newlines inside are replaced by spaces).
    pub fn write_comment(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "# {}", text.replace(['\n', '\r'], " "))?;
        self.out.flush()
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// A capture writer shared by both boards' workers.
#[derive(Clone, Debug)]
pub struct CaptureSink(Arc<Mutex<CaptureWriter>>);

impl CaptureSink {
    #[must_use]
    pub fn new(writer: CaptureWriter) -> Self {
        CaptureSink(Arc::new(Mutex::new(writer)))
    }

    /// Records raw bytes (flushed before returning).
    pub fn record(&self, t_ms: Millis, board: BoardId, bytes: &[u8]) -> io::Result<()> {
        // A poisoned lock only means another worker panicked mid-write: keep recording.
        let mut w = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        w.write_chunk(t_ms, board, bytes)
    }

    pub fn comment(&self, text: &str) -> io::Result<()> {
        let mut w = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        w.write_comment(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> (usize, usize, String) {
        match parse_capture(text) {
            Err(CaptureError::Syntax {
                line, col, reason, ..
            }) => (line, col, reason),
            other => panic!("expected an error, got {other:?}"),
        }
    }

    fn pos(text: &str) -> (usize, usize) {
        let (l, c, _) = err(text);
        (l, c)
    }

    #[test]
    fn parses_lines_and_comments() {
        let text = "# tandem capture v1\n# note\n\n0 A 8e00053400\r\n5\tB  8d\n5 A 00\n";
        let c = parse_capture(text).unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].bytes, vec![0x8e, 0, 5, 0x34, 0]);
        assert_eq!((c[1].t_ms, c[1].board), (5, BoardId::B));
    }

    #[test]
    fn every_malformed_case_names_line_and_column() {
        let h = "# tandem capture v1\n";
        assert_eq!(err("# tandem capture v2\n").0, 1);
        assert_eq!(err("").0, 1);
        assert_eq!(pos(&format!("{h}x A 00\n")), (2, 1));
        assert_eq!(err(&format!("{h}-1 A 00\n")).1, 1);
        assert_eq!(err(&format!("{h}10 A 00\n5 A 00\n")).0, 3);
        assert!(
            err(&format!("{h}10 A 00\n5 A 00\n"))
                .2
                .contains("backwards")
        );
        assert_eq!(pos(&format!("{h}1 C 00\n")), (2, 3));
        assert_eq!(pos(&format!("{h}1 A 0a0\n")), (2, 7));
        assert_eq!(pos(&format!("{h}1 A 0g\n")), (2, 6));
        assert!(err(&format!("{h}1 A 0g\n")).2.contains("invalid hex"));
        assert_eq!(pos(&format!("{h}1 A\n")), (2, 4));
        assert_eq!(pos(&format!("{h}1 A 00 junk\n")), (2, 8));
        assert_eq!(pos(&format!("{h}1\n")), (2, 2));
    }

    #[test]
    fn truncated_last_line_is_tolerated() {
        let h = "# tandem capture v1\n0 A 8e00053400\n";
        // Cut inside the hex: complete bytes kept.
        let c = parse_capture(&format!("{h}7 B 8e000")).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].bytes, vec![0x8e, 0x00]);
        // Cut before any byte, or inside the time: dropped.
        assert_eq!(parse_capture(&format!("{h}7 B 8")).unwrap().len(), 1);
        assert_eq!(parse_capture(&format!("{h}7")).unwrap().len(), 1);
        assert_eq!(parse_capture(&format!("{h}7 ")).unwrap().len(), 1);
        // The same damage followed by a newline is an error.
        assert!(parse_capture(&format!("{h}7 B 8e000\n")).is_err());
    }

    #[test]
    fn write_then_read() {
        let dir = std::env::temp_dir().join(format!("tandem-capture-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.capture");
        let chunks = vec![
            CaptureChunk {
                t_ms: 0,
                board: BoardId::A,
                bytes: vec![0x86, 0, 0x43],
            },
            CaptureChunk {
                t_ms: 12,
                board: BoardId::B,
                bytes: vec![0x8e, 0, 5, 1, 2],
            },
            CaptureChunk {
                t_ms: 12,
                board: BoardId::A,
                bytes: vec![0xff],
            },
        ];
        {
            let sink = CaptureSink::new(CaptureWriter::create(&path).unwrap());
            sink.comment("test\nrun").unwrap();
            for c in &chunks {
                sink.record(c.t_ms, c.board, &c.bytes).unwrap();
            }
            // Out-of-order time is clamped, never written backwards.
            sink.record(3, BoardId::B, &[1]).unwrap();
        }
        let mut expected = chunks.clone();
        expected.push(CaptureChunk {
            t_ms: 12,
            board: BoardId::B,
            bytes: vec![1],
        });
        assert_eq!(read_capture(&path).unwrap(), expected);
        // Appending keeps the file valid and time non-decreasing.
        {
            let mut w = CaptureWriter::append(&path).unwrap();
            w.write_chunk(1, BoardId::A, &[2]).unwrap();
        }
        let again = read_capture(&path).unwrap();
        assert_eq!(again.last().map(|c| c.t_ms), Some(12));
        assert_eq!(again.len(), 5);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn read_errors_name_the_file() {
        let e = read_capture(Path::new("/nonexistent/x.capture")).unwrap_err();
        assert!(e.to_string().starts_with("/nonexistent/x.capture: "));
        let dir = std::env::temp_dir().join(format!("tandem-capture-err-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.capture");
        std::fs::write(&path, "# tandem capture v1\n1 A zz\n").unwrap();
        let e = read_capture(&path).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}:2:5: invalid hex digit", path.display())
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
