//! The end of a match in BPGN: the Result token (team-relative in Tandem's files), the
//! `Termination` and `Outcome` tags, and reading a termination comment back.

use crate::BoardId;
use crate::rules::{EndReason, MatchResult, Seat, Team};

/// Tandem's Result token: team-relative. `1-0`: WhiteA & BlackB won; `0-1`: BlackA &
/// WhiteB won; `1/2-1/2`: draw; `*`: not finished.
pub(crate) fn result_token(result: Option<&MatchResult>) -> &'static str {
    match result {
        None => "*",
        Some(r) => match r.winner {
            Some(Team::WhiteA) => "1-0",
            Some(Team::BlackA) => "0-1",
            None => "1/2-1/2",
        },
    }
}

/// The winner a team-relative Result token names: `Some(None)` for a draw, `None` for
/// `*` or anything else.
pub(crate) fn token_winner(token: &str) -> Option<Option<Team>> {
    match token {
        "1-0" => Some(Some(Team::WhiteA)),
        "0-1" => Some(Some(Team::BlackA)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// PGN's `Termination` vocabulary.
pub(crate) fn termination_tag(result: Option<&MatchResult>) -> &'static str {
    let Some(r) = result else {
        return "unterminated";
    };
    match r.reason {
        EndReason::Checkmate { .. }
        | EndReason::SimultaneousMates
        | EndReason::Stalemate { .. }
        | EndReason::Resignation { .. }
        | EndReason::DrawAgreed => "normal",
        EndReason::Flag { .. }
        | EndReason::FlagWithoutMatingMaterial { .. }
        | EndReason::BothFlags { .. } => "time forfeit",
        EndReason::IllegalMoveClaimed { .. } => "rules infraction",
        EndReason::Forfeit { .. } => "abandoned",
        EndReason::TdDecision { .. } => "adjudication",
    }
}

/// The team's seats as the Outcome tag names them: `WhiteA & BlackB`.
pub(crate) fn team_words(team: Team) -> &'static str {
    match team {
        Team::WhiteA => "WhiteA & BlackB",
        Team::BlackA => "BlackA & WhiteB",
    }
}

/// `[Outcome "BlackA & WhiteB won: BlackB checkmated"]` or `[Outcome "Draw: ..."]`: the
/// winners and the reason with seats named by their tags, so that it reads back without
/// player names.
pub(crate) fn outcome_tag(result: &MatchResult) -> String {
    let reason = result.describe(&|seat| seat.tag().to_owned());
    match result.winner {
        Some(team) => format!("{} won: {reason}", team_words(team)),
        None => format!("Draw: {reason}"),
    }
}

/// Reads an Outcome tag back.
pub(crate) fn parse_outcome(text: &str) -> Option<MatchResult> {
    let (who, reason) = text.split_once(": ")?;
    let winner = match who {
        "WhiteA & BlackB won" => Some(Team::WhiteA),
        "BlackA & WhiteB won" => Some(Team::BlackA),
        "Draw" => None,
        _ => return None,
    };
    let lookup = |name: &str| seat_by_tag(name);
    let reason = parse_reason(reason, &lookup)
        .map(|(reason, _)| reason)
        .unwrap_or_else(|| EndReason::TdDecision {
            winner_text: reason.to_owned(),
        });
    Some(MatchResult {
        winner,
        reason,
        t_ms: None,
    })
}

/// The seat a tag (`WhiteA`) or Lieven's abbreviation (`WA`) names.
pub(crate) fn seat_by_tag(text: &str) -> Option<Seat> {
    Seat::ALL
        .into_iter()
        .find(|s| s.tag() == text)
        .or(match text {
            "WA" => Some(Seat::ALL[0]),
            "BA" => Some(Seat::ALL[1]),
            "WB" => Some(Seat::ALL[2]),
            "BB" => Some(Seat::ALL[3]),
            _ => None,
        })
}

/// The winner a reason implies: `Some(team)`, `Some(None)` for a draw, `None` when the
/// reason does not say (a TD's decision).
pub(crate) fn implied_winner(reason: &EndReason) -> Option<Option<Team>> {
    match reason {
        EndReason::Checkmate { loser: s }
        | EndReason::Resignation { seat: s }
        | EndReason::Flag { seat: s }
        | EndReason::Forfeit { seat: s, .. }
        | EndReason::IllegalMoveClaimed { seat: s } => Some(Some(s.team().other())),
        EndReason::SimultaneousMates
        | EndReason::Stalemate { .. }
        | EndReason::FlagWithoutMatingMaterial { .. }
        | EndReason::BothFlags { .. }
        | EndReason::DrawAgreed => Some(None),
        EndReason::TdDecision { .. } => None,
    }
}

/// Builds the reason once the seat is known.
type SeatReason = fn(Seat) -> EndReason;

/// Reads a termination text (Tandem's [`MatchResult::describe`] wording, FICS's, Lieven's)
/// with players named as `seat` resolves them. Returns the reason and, for texts that name
/// only a winner (`X's partner won`), that winner.
pub(crate) fn parse_reason(
    text: &str,
    seat: &dyn Fn(&str) -> Option<Seat>,
) -> Option<(EndReason, Option<Team>)> {
    let text = text.trim();
    let fixed = match text {
        "Checkmates on both boards at once: draw" => Some(EndReason::SimultaneousMates),
        "Draw by agreement" | "Game drawn by mutual agreement" => Some(EndReason::DrawAgreed),
        _ => None,
    };
    if let Some(reason) = fixed {
        return Some((reason, None));
    }
    if let Some(board) = text
        .strip_prefix("Stalemate on board ")
        .and_then(|r| r.strip_suffix(": draw"))
        .and_then(board_letter)
    {
        return Some((EndReason::Stalemate { board }, None));
    }
    if let Some(board) = text
        .strip_prefix("Both flags fell on board ")
        .and_then(|r| r.strip_suffix(": draw"))
        .and_then(board_letter)
    {
        return Some((EndReason::BothFlags { board }, None));
    }
    let suffixed: [(&str, SeatReason); 5] = [
        (" checkmated", |s| EndReason::Checkmate { loser: s }),
        (" resigns", |s| EndReason::Resignation { seat: s }),
        (" forfeits on time", |s| EndReason::Flag { seat: s }),
        (" loses by an illegal move, claimed", |s| {
            EndReason::IllegalMoveClaimed { seat: s }
        }),
        (" forfeits by disconnection", |s| EndReason::Forfeit {
            seat: s,
            why: "disconnection".into(),
        }),
    ];
    for (suffix, make) in suffixed {
        if let Some(s) = text.strip_suffix(suffix).and_then(seat) {
            return Some((make(s), None));
        }
    }
    if let Some(rest) = text.strip_suffix(": draw")
        && let Some((name, _)) = rest.split_once(" ran out of time but ")
        && let Some(s) = seat(name)
    {
        return Some((EndReason::FlagWithoutMatingMaterial { seat: s }, None));
    }
    if let Some(rest) = text.strip_suffix(')')
        && let Some((name, why)) = rest.split_once(" forfeits (")
        && let Some(s) = seat(name)
    {
        return Some((
            EndReason::Forfeit {
                seat: s,
                why: why.to_owned(),
            },
            None,
        ));
    }
    if let Some(s) = text.strip_suffix("'s partner won").and_then(seat) {
        return Some((
            EndReason::TdDecision {
                winner_text: text.to_owned(),
            },
            Some(s.team()),
        ));
    }
    None
}

fn board_letter(text: &str) -> Option<BoardId> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ ('A' | 'B')), None) => BoardId::from_letter(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Color;

    #[test]
    fn every_describe_text_reads_back() {
        let a = Seat::new(BoardId::A, Color::White);
        let b = Seat::new(BoardId::B, Color::Black);
        let reasons = [
            EndReason::Checkmate { loser: b },
            EndReason::SimultaneousMates,
            EndReason::Stalemate { board: BoardId::B },
            EndReason::Resignation { seat: a },
            EndReason::Flag { seat: b },
            EndReason::FlagWithoutMatingMaterial { seat: a },
            EndReason::BothFlags { board: BoardId::A },
            EndReason::DrawAgreed,
            EndReason::Forfeit {
                seat: b,
                why: "did not show up".into(),
            },
            EndReason::IllegalMoveClaimed { seat: a },
        ];
        let names = |s: Seat| format!("Player {}", s.letter());
        let lookup = |n: &str| Seat::ALL.into_iter().find(|&s| names(s) == n);
        for reason in reasons {
            let r = MatchResult {
                winner: implied_winner(&reason).flatten(),
                reason: reason.clone(),
                t_ms: None,
            };
            let text = r.describe(&names);
            assert_eq!(parse_reason(&text, &lookup), Some((reason, None)), "{text}");
            assert_eq!(parse_outcome(&outcome_tag(&r)), Some(r.clone()));
        }
    }
}
