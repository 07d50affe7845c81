//! `tandem bpgn check FILE... [--rules PRESET_OR_PATH]`: replays every game of each file
//! through the rules. One line per good game on stdout
//! (`<file>: 55 A plies, 55 B plies, 1-0 {BobBughouse checkmated}`); the first bad move of
//! a file on stderr as `<file>:<line>:<column>: <reason>`. Exit 1 if any file had a problem.
//!
//! `tandem bpgn convert FILE --to bughouse-pro [--rules ...]`: every game of the file (read
//! with the tolerant reader) in bughouse.pro's import dialect on stdout, games separated by
//! a blank line; what did not travel on stderr as `<file>: game N: note: ...`, a game
//! bughouse.pro would refuse as `<file>: game N: ...`. Exit 1 if any game was refused.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use crate::BoardId;
use crate::notation::bpgn::{ReadGame, decode_bpgn, parse_bpgn, replay_game, to_bughouse_pro};
use crate::rules::RulesPreset;

/// The dialects `tandem bpgn convert` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// bughouse.pro's import (amatveiakin/bughouse-chess `pgn::import_from_bpgn`).
    BughousePro,
}

pub fn convert(file: &Path, to: Dialect, rules: &str) -> anyhow::Result<ExitCode> {
    let rules = RulesPreset::load(rules).context("--rules")?;
    let name = file.display();
    let bytes = std::fs::read(file).with_context(|| format!("{name}"))?;
    let games = parse_bpgn(&decode_bpgn(&bytes)).map_err(|e| anyhow::anyhow!("{name}:{e}"))?;
    if games.is_empty() {
        anyhow::bail!("{name}: no BPGN game in the file");
    }
    let mut all_good = true;
    let mut written = 0usize;
    for (n, raw) in games.iter().enumerate() {
        let n = n + 1;
        let game = match replay_game(raw, &rules) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}:{e}");
                all_good = false;
                continue;
            }
        };
        let export = match to {
            Dialect::BughousePro => to_bughouse_pro(&game.game, &game.header),
        };
        match export {
            Ok(export) => {
                for note in &export.notes {
                    eprintln!("{name}: game {n}: note: {note}");
                }
                if written > 0 {
                    outln!();
                }
                out!("{}", export.text);
                written += 1;
            }
            Err(refusal) => {
                eprintln!("{name}: game {n}: {refusal}");
                all_good = false;
            }
        }
    }
    Ok(if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub fn check(files: &[PathBuf], rules: &str) -> anyhow::Result<ExitCode> {
    let rules = RulesPreset::load(rules).context("--rules")?;
    let mut all_good = true;
    for file in files {
        let name = file.display();
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{name}: {e}");
                all_good = false;
                continue;
            }
        };
        let games = match parse_bpgn(&decode_bpgn(&bytes)) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{name}:{e}");
                all_good = false;
                continue;
            }
        };
        if games.is_empty() {
            eprintln!("{name}: no BPGN game in the file");
            all_good = false;
        }
        for raw in &games {
            match replay_game(raw, &rules) {
                Ok(game) => outln!("{name}: {}", summary(&game)),
                Err(e) => {
                    eprintln!("{name}:{e}");
                    all_good = false;
                    break;
                }
            }
        }
    }
    Ok(if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `55 A plies, 55 B plies, 1-0 {BobBughouse checkmated}`.
fn summary(game: &ReadGame) -> String {
    let m = &game.game;
    let mut s = format!(
        "{} A plies, {} B plies, {}",
        m.plies_on(BoardId::A),
        m.plies_on(BoardId::B),
        game.result_token.as_deref().unwrap_or("no result")
    );
    if let Some(t) = &game.termination {
        s.push_str(&format!(" {{{t}}}"));
    } else if let Some(r) = &game.result {
        // No termination comment: say what the result was understood as.
        s.push_str(&format!(
            " {{{}}}",
            r.describe(&|seat| seat.tag().to_owned())
        ));
    }
    s
}
