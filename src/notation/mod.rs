//! Notation: SAN for display and the record, the BPGN writer and the tolerant reader.

pub mod san;

/// Parses one move typed by the TD or read from a file (SAN or UCI) on `state`.
/// (Interim: the tolerant BPGN reader brings the full dialect handling.)
pub fn parse_move(
    state: &crate::rules::BoardState,
    rules: &crate::rules::RulesPreset,
    token: &str,
) -> Result<shakmaty::Move, String> {
    let _ = rules;
    let pos = state.analysis().ok_or("the position cannot be analysed")?;
    let token = token.trim().trim_end_matches(['+', '#']);
    if let Ok(san) = token.parse::<shakmaty::san::San>()
        && let Ok(m) = san.to_move(pos)
    {
        return Ok(m);
    }
    if let Ok(uci) = token.parse::<shakmaty::uci::UciMove>()
        && let Ok(m) = uci.to_move(pos)
    {
        return Ok(m);
    }
    Err(format!("cannot read {token:?} as a move here"))
}
