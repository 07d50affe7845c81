//! The standings as files: `standings.csv` for spreadsheets and a printable
//! `standings.html` (the table, then every round's pairings and results). Pure: text out.

use std::fmt::Write as _;

use crate::rules::Tiebreak;

use super::{Event, GameRef, Outcome, ResultKind, Standing};

/// A tiebreak's column name.
#[must_use]
pub fn tiebreak_name(tb: Tiebreak) -> &'static str {
    match tb {
        Tiebreak::HeadToHead => "head-to-head",
        Tiebreak::SonnebornBerger => "Sonneborn-Berger",
        Tiebreak::Wins => "wins",
    }
}

/// A number of points as people write it: `3`, `2½` (`2.5` in CSV).
#[must_use]
pub fn points_text(p: f64) -> String {
    // No "-0" for a sum of nothing.
    let p = p + 0.0;
    let whole = p.trunc();
    let frac = p - whole;
    if frac.abs() < 1e-9 {
        format!("{whole:.0}")
    } else if (frac - 0.5).abs() < 1e-9 {
        if whole == 0.0 {
            "½".to_owned()
        } else {
            format!("{whole:.0}½")
        }
    } else {
        format!("{p:.2}")
    }
}

fn csv_number(p: f64) -> String {
    if (p - p.round()).abs() < 1e-9 {
        format!("{p:.0}")
    } else {
        format!("{p}")
    }
}

/// `place` as printed: `3` or `3=` when shared.
#[must_use]
pub fn place_text(s: &Standing) -> String {
    if s.shared {
        format!("{}=", s.place)
    } else {
        s.place.to_string()
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// `standings.csv`: a header line, then one line a team in order of the standings.
#[must_use]
pub fn standings_csv(event: &Event) -> String {
    let tiebreaks = &event.preset().event.tiebreaks;
    let mut out = String::from("place,team,number,players,points,games,wins,draws,losses,byes");
    for tb in tiebreaks {
        out.push(',');
        out.push_str(tiebreak_name(*tb));
    }
    out.push('\n');
    for s in event.standings() {
        let team = event.team(s.team);
        let players = team.map_or(String::new(), |t| {
            t.players
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(" & ")
        });
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            place_text(&s),
            csv_field(&event.team_name(s.team)),
            s.team,
            csv_field(&players),
            csv_number(s.points),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.byes
        );
        for tb in &s.tiebreaks {
            out.push(',');
            if let Some(v) = tb {
                out.push_str(&csv_number(*v));
            }
        }
        out.push('\n');
    }
    out
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A game's result for the team on side A (then side B): `1-0`, `½-½`, `+/-` (a
/// forfeit win), `-/-` (double forfeit); `…` in play, blank not begun.
#[must_use]
pub fn result_text(event: &Event, g: GameRef) -> String {
    let Some(game) = event.game(g) else {
        return String::new();
    };
    let Some(r) = &game.result else {
        return if game.folder.is_some() {
            "…".to_owned()
        } else {
            String::new()
        };
    };
    match (r.kind, r.outcome_for(game.side_a)) {
        (ResultKind::DoubleForfeit, _) => "-/-".to_owned(),
        (ResultKind::Forfeit, Outcome::Win) => "+/-".to_owned(),
        (ResultKind::Forfeit, _) => "-/+".to_owned(),
        (_, Outcome::Win) => "1-0".to_owned(),
        (_, Outcome::Loss) => "0-1".to_owned(),
        (_, Outcome::Draw) => "½-½".to_owned(),
    }
}

/// `standings.html`: a page to print (or show) with the standings and every round.
#[must_use]
pub fn standings_html(event: &Event) -> String {
    let e = |s: &str| html_escape(s);
    let tiebreaks = &event.preset().event.tiebreaks;
    let after = match event.current_round() {
        Some(r) if event.round_complete(r) => format!("after round {r}"),
        Some(r) if r > 1 => format!("after round {}", r - 1),
        _ => "before round 1".to_owned(),
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>{} — standings</title>\n<style>\n\
         body {{ font-family: sans-serif; margin: 2em; color: #111; }}\n\
         h1 {{ margin-bottom: 0.2em; }} .sub {{ color: #555; margin-bottom: 1.5em; }}\n\
         table {{ border-collapse: collapse; margin-bottom: 2em; }}\n\
         th, td {{ border: 1px solid #999; padding: 0.3em 0.7em; text-align: left; }}\n\
         th {{ background: #eee; }} td.n {{ text-align: right; }}\n\
         @media print {{ body {{ margin: 0; }} h2 {{ page-break-after: avoid; }} }}\n\
         </style></head><body>\n<h1>{}</h1>\n<div class=\"sub\">{} · {} · {} · {}</div>\n",
        e(&event.setup.name),
        e(&event.setup.name),
        e(&event.setup.date),
        e(&event.preset().title),
        e(&event.setup.format.to_string()),
        after
    );
    out.push_str("<h2>Standings</h2>\n<table>\n<tr><th>Place</th><th>Team</th><th>Players</th><th>Points</th><th>Games</th><th>W</th><th>D</th><th>L</th><th>Byes</th>");
    for tb in tiebreaks {
        let _ = write!(out, "<th>{}</th>", tiebreak_name(*tb));
    }
    out.push_str("</tr>\n");
    for s in event.standings() {
        let players = event.team(s.team).map_or(String::new(), |t| {
            t.players
                .iter()
                .map(|p| match p.rating {
                    Some(r) => format!("{} ({r})", p.name),
                    None => p.name.clone(),
                })
                .collect::<Vec<_>>()
                .join(" &amp; ")
        });
        let _ = write!(
            out,
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            place_text(&s),
            e(&event.team_name(s.team)),
            players.replace('<', "&lt;"),
            points_text(s.points),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.byes
        );
        for tb in &s.tiebreaks {
            let v = tb.map_or_else(|| "–".to_owned(), points_text);
            let _ = write!(out, "<td class=\"n\">{v}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    for (r, round) in event.rounds.iter().enumerate() {
        let rn = u16::try_from(r + 1).unwrap_or(u16::MAX);
        let _ = write!(
            out,
            "<h2>Round {rn}</h2>\n<table>\n<tr><th>Match</th><th>Side A</th><th>Side B</th><th>Result</th><th>How</th></tr>\n"
        );
        for (p, pairing) in round.pairings.iter().enumerate() {
            for (gi, game) in pairing.games.iter().enumerate() {
                let g = GameRef {
                    round: rn,
                    pairing: u16::try_from(p + 1).unwrap_or(u16::MAX),
                    game: u8::try_from(gi + 1).unwrap_or(u8::MAX),
                };
                let sides = event.sides(g).unwrap_or([pairing.first, pairing.second]);
                let players = event.players(g);
                let side = |t: super::TeamId, seats: [usize; 2]| {
                    let names: Vec<String> = seats
                        .iter()
                        .filter_map(|i| players.get(*i))
                        .filter(|n| n.as_str() != "-")
                        .cloned()
                        .collect();
                    format!("{} ({})", e(&event.team_name(t)), e(&names.join(" & ")))
                };
                // Side A: WhiteA and BlackB; side B: BlackA and WhiteB.
                let result = result_text(event, g);
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    event.game_label(g),
                    side(sides[0], [0, 3]),
                    side(sides[1], [1, 2]),
                    e(&result),
                    e(game.result.as_ref().map_or("", |r| r.note.as_str()))
                );
            }
        }
        for bye in &round.byes {
            let _ = writeln!(
                out,
                "<tr><td>bye</td><td>{}</td><td></td><td>{:?}</td><td></td></tr>",
                e(&event.team_name(*bye)),
                event.setup.bye
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</body></html>\n");
    out
}
