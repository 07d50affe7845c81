//! `tandem event`: a club evening from the command line. Create an event, add teams, pair
//! the next round, enter a result (a forfeit, a correction), print the standings; run a
//! round live on this station; or simulate a whole event on simulated boards.
//!
//! An event is a folder (`event.ron`, standings, one match folder a game), named by its
//! path or by its name under `<data folder>/events/`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;

use crate::event::{
    ByeScore, Choice, Event, Format, GameRef, GameResult, Player, ResultKind, Setup, Table,
    TableClocks, Team, TeamId, export,
};
use crate::rules::{RulesPreset, TimeControl};
use crate::station::event::folder::{self as event_folder, EventFolder};
use crate::station::event::simulate::{self, Progress};
use crate::station::event::virtual_tables;
use crate::station::folder::{data_dir, date_and_time_now, stamp_now};
use crate::station::simulated::SimulatedPlay;

#[derive(clap::Args, Debug)]
pub struct EventArgs {
    #[command(subcommand)]
    pub command: EventCommand,
    /// Where events are kept (`<DIR>/events/NAME`; default: the data folder).
    #[arg(long, global = true)]
    pub data_dir: Option<PathBuf>,
}

#[derive(clap::Subcommand, Debug)]
pub enum EventCommand {
    /// Create an event (a folder with its event.ron).
    Create(CreateArgs),
    /// Register a team: its name and players (`Name` or `Name:rating`), in the team's order.
    AddTeam {
        event: String,
        name: String,
        #[arg(required = true)]
        players: Vec<String>,
    },
    /// Add a table: the serial numbers (or ports) of its boards A and B.
    AddTable {
        event: String,
        a: String,
        b: String,
        #[arg(long, default_value = "dgt-usb")]
        profile: String,
        /// `read` (the players run the clocks) or `drive` (Tandem runs both as one).
        #[arg(long, default_value = "read", value_parser = parse_clocks)]
        clocks: TableClocks,
    },
    /// Pair the next round (round robin from its schedule, Swiss from the standings).
    Pair { event: String },
    /// Take back the last round, if none of its games has begun.
    Unpair { event: String },
    /// Swap the tables of two pairings of a round.
    Swap {
        event: String,
        round: u16,
        pairing: u16,
        other: u16,
    },
    /// A team's choice of who plays White in a game (where the text lets the team choose).
    White {
        event: String,
        /// `round.pairing` or `round.pairing.game`.
        game: GameRef,
        /// The team's number.
        team: u16,
        /// The player (number in the team from 1, or name).
        player: String,
    },
    /// Enter or correct a game's result, read for the team on side A (White on board A):
    /// `1-0`, `0-1`, `1/2`, `+-` (side B forfeits), `-+` (side A forfeits), `--` (both).
    Result {
        event: String,
        game: GameRef,
        #[arg(allow_hyphen_values = true)]
        result: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Print the pairings of the current round and the standings.
    Show { event: String },
    /// Print the standings (`--csv`: as standings.csv).
    Standings {
        event: String,
        #[arg(long)]
        csv: bool,
    },
    /// Play the current round live on this station (resuming games in play); with
    /// `--demo`, on virtual boards, round after round.
    Run(super::event_run::RunArgs),
    /// Play a whole event on simulated boards in simulated time.
    Simulate(SimulateArgs),
}

#[derive(clap::Args, Debug)]
pub struct CreateArgs {
    /// The event's name, also its folder's under `<data folder>/events/` (or a path).
    pub event: String,
    /// The rules preset (name or path).
    #[arg(long, default_value = RulesPreset::DEFAULT_NAME)]
    pub rules: String,
    /// The event's title (default: its name).
    #[arg(long)]
    pub title: Option<String>,
    #[arg(long, default_value = "")]
    pub site: String,
    /// Time control, `5+0` (minutes + increment seconds) or `5d2` (delay); default: the
    /// preset's.
    #[arg(long)]
    pub time: Option<String>,
    /// `round-robin`, `double-round-robin` or `swiss`.
    #[arg(long, default_value = "round-robin")]
    pub format: String,
    /// Rounds of a Swiss.
    #[arg(long)]
    pub rounds: Option<u16>,
    /// What a bye scores: `win`, `draw` or `loss` (for each game of a pairing).
    #[arg(long, default_value = "win")]
    pub bye: String,
    /// A table: `A,B` (serial numbers or ports of boards A and B); repeat for more.
    #[arg(long = "table")]
    pub tables: Vec<String>,
    /// Device profile of the tables' boards.
    #[arg(long, default_value = "dgt-usb")]
    pub profile: String,
    /// The tables' clocks: `read` (the players run them) or `drive` (Tandem runs both
    /// clocks of a table as one bughouse clock).
    #[arg(long, default_value = "read", value_parser = parse_clocks)]
    pub clocks: TableClocks,
}

#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// The event's name (default: `simulated-<date-time>`).
    pub event: Option<String>,
    #[arg(long)]
    pub teams: usize,
    #[arg(long, default_value = RulesPreset::DEFAULT_NAME)]
    pub rules: String,
    /// `round-robin`, `double-round-robin` or `swiss`.
    #[arg(long, default_value = "round-robin")]
    pub format: String,
    /// Rounds of a Swiss (default: enough to tell the teams apart, and no more than a
    /// rematch-free pairing allows).
    #[arg(long)]
    pub rounds: Option<u16>,
    #[arg(long, default_value = "win")]
    pub bye: String,
    /// Tables of simulated boards (default: one a pairing).
    #[arg(long)]
    pub tables: Option<usize>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The hands stop each game after this many plies a board (it may end sooner).
    #[arg(long, default_value_t = 60)]
    pub plies: usize,
}

pub fn run(args: EventArgs) -> anyhow::Result<ExitCode> {
    let root = args.data_dir.clone().unwrap_or_else(data_dir);
    // A change is refused while another Tandem has the event open (it would be lost).
    let open = |name: &str, change: bool| -> anyhow::Result<(EventFolder, Event)> {
        let folder = EventFolder::at(&event_folder::resolve(name, &root));
        anyhow::ensure!(
            folder.exists(),
            "no event at {} (tandem event create makes one)",
            folder.dir().display()
        );
        let event = folder.load()?;
        if change {
            folder.check_unlocked()?;
        }
        Ok((folder, event))
    };
    match args.command {
        EventCommand::Create(c) => create(&c, &root),
        EventCommand::AddTeam {
            event,
            name,
            players,
        } => {
            let (folder, mut e) = open(&event, true)?;
            let players = players
                .iter()
                .map(|p| parse_player(p))
                .collect::<anyhow::Result<Vec<_>>>()?;
            let id = e.add_team(Team { name, players })?;
            folder.save(&e)?;
            outln!("team {id}: {}", e.team_name(id));
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::AddTable {
            event,
            a,
            b,
            profile,
            clocks,
        } => {
            let (folder, mut e) = open(&event, true)?;
            e.tables.push(Table {
                a,
                b,
                profile,
                clocks,
            });
            folder.save(&e)?;
            outln!("table {}", e.tables.len());
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Pair { event } => {
            let (folder, mut e) = open(&event, true)?;
            let r = e.pair_next_round()?;
            folder.save(&e)?;
            out!("{}", round_text(&e, r));
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Unpair { event } => {
            let (folder, mut e) = open(&event, true)?;
            let r = e.unpair_last_round()?;
            folder.save(&e)?;
            outln!("round {r} taken back");
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Swap {
            event,
            round,
            pairing,
            other,
        } => {
            let (folder, mut e) = open(&event, true)?;
            e.swap_tables(round, pairing, other)?;
            folder.save(&e)?;
            out!("{}", round_text(&e, round));
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::White {
            event,
            game,
            team,
            player,
        } => {
            let (folder, mut e) = open(&event, true)?;
            let team = TeamId(team);
            let t = e
                .team(team)
                .with_context(|| format!("there is no team {team}"))?;
            let index = match player.parse::<usize>() {
                Ok(n) if n >= 1 => n - 1,
                _ => t
                    .players
                    .iter()
                    .position(|p| p.name.eq_ignore_ascii_case(&player))
                    .with_context(|| format!("{} has no player {player:?}", t.name))?,
            };
            e.choose_white(game, team, index)?;
            folder.save(&e)?;
            out!("{}", round_text(&e, game.round));
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Result {
            event,
            game,
            result,
            note,
        } => {
            let (folder, mut e) = open(&event, true)?;
            let [a, b] = e
                .sides(game)
                .with_context(|| format!("there is no game {game}"))?;
            let mut r = parse_result(&result, a, b)?;
            r.note = if note.is_empty() { r.note } else { note };
            let rec = e.record_result(game, r)?;
            folder.save(&e)?;
            folder.write_bpgn(&e)?;
            if rec.corrected {
                outln!("game {game}: result corrected; standings updated");
            } else {
                outln!("game {game}: {}", export::result_text(&e, game));
            }
            if let Some(next) = rec.next_game {
                outln!("next: game {next} {}", lineup_text(&e, next));
            }
            if let Some(r) = rec.repaired_round {
                outln!("round {r} (not begun) paired again:");
                out!("{}", round_text(&e, r));
            }
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Show { event } => {
            let (_, e) = open(&event, false)?;
            outln!(
                "{} · {} · {} · {}",
                e.setup.name,
                e.preset().title,
                e.setup.format,
                tc_text(e.setup.time_control)
            );
            for (i, t) in e.teams.iter().enumerate() {
                let players: Vec<String> = t.players.iter().map(player_text).collect();
                outln!("  {:>2}. {} ({})", i + 1, t.name, players.join(", "));
            }
            if let Some(r) = e.current_round() {
                out!("{}", round_text(&e, r));
            }
            out!("{}", standings_text(&e));
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Standings { event, csv } => {
            let (_, e) = open(&event, false)?;
            if csv {
                out!("{}", export::standings_csv(&e));
            } else {
                out!("{}", standings_text(&e));
            }
            Ok(ExitCode::SUCCESS)
        }
        EventCommand::Run(r) => super::event_run::run(&r, &root),
        EventCommand::Simulate(s) => simulate_cmd(&s, &root),
    }
}

fn parse_clocks(s: &str) -> Result<TableClocks, String> {
    match s {
        "read" => Ok(TableClocks::Read),
        "drive" => Ok(TableClocks::Drive),
        other => Err(format!("{other:?}: the clocks are `read` or `drive`")),
    }
}

fn create(c: &CreateArgs, root: &std::path::Path) -> anyhow::Result<ExitCode> {
    let preset = RulesPreset::load(&c.rules).map_err(anyhow::Error::msg)?;
    let time_control = match &c.time {
        Some(t) => parse_time_control(t)?,
        None => preset.time_control,
    };
    let setup = Setup {
        name: c.title.clone().unwrap_or_else(|| c.event.clone()),
        site: c.site.clone(),
        date: date_and_time_now().0,
        rules: c.rules.clone(),
        time_control,
        format: parse_format(&c.format, c.rounds)?,
        bye: parse_bye(&c.bye)?,
    };
    let mut event = Event::new(setup, preset);
    for t in &c.tables {
        let (a, b) = t
            .split_once(',')
            .with_context(|| format!("--table {t}: write A,B"))?;
        event.tables.push(Table {
            a: a.trim().to_owned(),
            b: b.trim().to_owned(),
            profile: c.profile.clone(),
            clocks: c.clocks,
        });
    }
    let dir = event_folder::resolve(&c.event, root);
    let folder = EventFolder::create(&dir, &event)?;
    outln!("{}", folder.dir().display());
    Ok(ExitCode::SUCCESS)
}

fn simulate_cmd(s: &SimulateArgs, root: &std::path::Path) -> anyhow::Result<ExitCode> {
    let preset = RulesPreset::load(&s.rules).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(s.teams >= 2, "--teams: an event needs at least two teams");
    let name = s
        .event
        .clone()
        .unwrap_or_else(|| format!("simulated-{}", stamp_now()));
    let format = match (&*s.format, s.rounds) {
        ("swiss", None) => {
            // Rounds enough to tell teams apart: log2(n) + 1, within what avoids rematches.
            let n = s.teams + s.teams % 2;
            let log = usize::BITS - (s.teams.max(2) - 1).leading_zeros();
            let rounds = (log as usize + 1).min(n - 1);
            Format::Swiss {
                rounds: u16::try_from(rounds).unwrap_or(1),
            }
        }
        (f, r) => parse_format(f, r)?,
    };
    let setup = Setup {
        name: name.clone(),
        site: "Tandem simulation".to_owned(),
        date: date_and_time_now().0,
        rules: s.rules.clone(),
        time_control: preset.time_control,
        format,
        bye: parse_bye(&s.bye)?,
    };
    let size = usize::from(preset.event.team_size);
    let mut event = Event::new(setup, preset);
    for team in simulate::simulated_teams(s.teams, size, s.seed) {
        event.add_team(team)?;
    }
    event.tables = virtual_tables(s.tables.unwrap_or(s.teams / 2).max(1));
    let dir = event_folder::resolve(&name, root);
    let folder = EventFolder::create(&dir, &event)?;
    let play = SimulatedPlay::demo(s.seed, s.plies);
    // The progress is printed as it comes; a stdout closed meanwhile ends the command once
    // the event is played (its files are written either way).
    let mut closed: Option<std::io::Error> = None;
    let mut say = |text: String| {
        use std::io::Write as _;
        if closed.is_none()
            && let Err(e) = std::io::stdout().write_all(text.as_bytes())
        {
            closed = Some(e);
        }
    };
    simulate::play_event(&folder, &mut event, &play, |e, p| match p {
        Progress::Paired { round } => say(round_text(e, *round)),
        Progress::Played { game, result } => say(format!(
            "  {}: {} ({result})\n",
            e.game_label(*game),
            export::result_text(e, *game)
        )),
    })?;
    if let Some(e) = closed {
        return Err(e.into());
    }
    out!("{}", standings_text(&event));
    outln!("{}", folder.dir().display());
    Ok(ExitCode::SUCCESS)
}

fn parse_player(s: &str) -> anyhow::Result<Player> {
    match s.rsplit_once(':') {
        Some((name, rating)) if rating.trim().chars().all(|c| c.is_ascii_digit()) => Ok(Player {
            name: name.trim().to_owned(),
            rating: Some(
                rating
                    .trim()
                    .parse()
                    .with_context(|| format!("{s}: a rating is a number up to 65535"))?,
            ),
        }),
        _ => Ok(Player {
            name: s.trim().to_owned(),
            rating: None,
        }),
    }
}

/// `5+3` (minutes + increment seconds) or `5d2` (minutes, delay seconds).
pub fn parse_time_control(s: &str) -> anyhow::Result<TimeControl> {
    let (m, rest, delay) = if let Some((m, d)) = s.split_once('d') {
        (m, d, true)
    } else {
        let (m, i) = s.split_once('+').unwrap_or((s, "0"));
        (m, i, false)
    };
    let minutes: f64 = m
        .trim()
        .parse()
        .with_context(|| format!("time control {s}: bad minutes"))?;
    let secs: u64 = rest
        .trim()
        .parse()
        .with_context(|| format!("time control {s}: bad seconds"))?;
    anyhow::ensure!(
        minutes.is_finite() && minutes > 0.0 && minutes <= 600.0 && secs <= 600,
        "time control {s}: minutes in 0..600, seconds up to 600"
    );
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let base_ms = (minutes * 60_000.0) as u64;
    Ok(TimeControl {
        base_ms,
        increment_ms: if delay { 0 } else { secs * 1000 },
        delay_ms: if delay { secs * 1000 } else { 0 },
    })
}

fn parse_format(s: &str, rounds: Option<u16>) -> anyhow::Result<Format> {
    Ok(match s {
        "round-robin" => Format::RoundRobin { cycles: 1 },
        "double-round-robin" => Format::RoundRobin { cycles: 2 },
        "swiss" => Format::Swiss {
            rounds: rounds.context("a Swiss needs --rounds")?,
        },
        other => anyhow::bail!("format {other:?}: round-robin, double-round-robin or swiss"),
    })
}

fn parse_bye(s: &str) -> anyhow::Result<ByeScore> {
    Ok(match s {
        "win" => ByeScore::Win,
        "draw" => ByeScore::Draw,
        "loss" => ByeScore::Loss,
        other => anyhow::bail!("bye {other:?}: win, draw or loss"),
    })
}

/// A result as the TD types it, read for the team on side A.
fn parse_result(s: &str, a: TeamId, b: TeamId) -> anyhow::Result<GameResult> {
    let by_td = |mut r: GameResult| {
        r.by_td = true;
        r.note = "entered by the TD".to_owned();
        r
    };
    Ok(match s.trim() {
        "1-0" => by_td(GameResult::win(a, "")),
        "0-1" => by_td(GameResult::win(b, "")),
        "1/2" | "1/2-1/2" | "½-½" | "=" => by_td(GameResult::draw("")),
        "+-" | "+/-" => GameResult::forfeit_win(a),
        "-+" | "-/+" => GameResult::forfeit_win(b),
        "--" | "-/-" => GameResult {
            kind: ResultKind::DoubleForfeit,
            ..GameResult::double_forfeit()
        },
        other => anyhow::bail!("result {other:?}: 1-0, 0-1, 1/2, +-, -+ or --"),
    })
}

fn tc_text(tc: TimeControl) -> String {
    let mins = tc.base_ms as f64 / 60_000.0;
    if tc.delay_ms > 0 {
        format!("{mins}d{}", tc.delay_ms / 1000)
    } else {
        format!("{mins}+{}", tc.increment_ms / 1000)
    }
}

fn player_text(p: &Player) -> String {
    match p.rating {
        Some(r) => format!("{} {r}", p.name),
        None => p.name.clone(),
    }
}

/// Who plays where: `Ada (W, A) & Dana vs Boris & Chen`, and open choices.
fn lineup_text(e: &Event, g: GameRef) -> String {
    let players = e.players(g);
    let Some([a, b]) = e.sides(g) else {
        return String::new();
    };
    let seat = |i: usize| players.get(i).cloned().unwrap_or_default();
    let mut text = if e.preset().is_bughouse() {
        format!(
            "{} ({} White A, {} Black B) vs {} ({} Black A, {} White B)",
            e.team_name(a),
            seat(0),
            seat(3),
            e.team_name(b),
            seat(1),
            seat(2)
        )
    } else {
        format!(
            "{} ({} White) vs {} ({} Black)",
            e.team_name(a),
            seat(0),
            e.team_name(b),
            seat(1)
        )
    };
    if let (Some(p), Some(game)) = (e.pairing(g.round, g.pairing), e.game(g)) {
        for (slot, t) in p.teams().into_iter().enumerate() {
            if game.choice[slot] == Choice::Open && game.folder.is_none() {
                text.push_str(&format!("; {} chooses who plays White", e.team_name(t)));
            }
        }
    }
    text
}

/// A round's pairings with tables, colours and results.
fn round_text(e: &Event, r: u16) -> String {
    let mut out = format!("Round {r}\n");
    let Some(round) = e.round(r) else {
        return out;
    };
    for (i, p) in round.pairings.iter().enumerate() {
        let table = match p.table.and_then(|t| e.tables.get(t).map(|x| (t, x))) {
            Some((t, x)) => format!("table {} (boards {} and {})", t + 1, x.a, x.b),
            None => "no table".to_owned(),
        };
        for gi in 0..p.games.len() {
            let g = GameRef {
                round: r,
                pairing: u16::try_from(i + 1).unwrap_or(u16::MAX),
                game: u8::try_from(gi + 1).unwrap_or(u8::MAX),
            };
            let res = export::result_text(e, g);
            out.push_str(&format!(
                "  {:<7} {table}: {}{}\n",
                e.game_label(g),
                lineup_text(e, g),
                if res.is_empty() {
                    String::new()
                } else {
                    format!("  {res}")
                }
            ));
        }
    }
    for bye in &round.byes {
        out.push_str(&format!(
            "  bye: {} ({:?})\n",
            e.team_name(*bye),
            e.setup.bye
        ));
    }
    out
}

/// The standings as a table.
fn standings_text(e: &Event) -> String {
    let tbs: Vec<&str> = e
        .preset()
        .event
        .tiebreaks
        .iter()
        .map(|t| export::tiebreak_name(*t))
        .collect();
    let mut out = format!(
        "Standings\n  {:<5} {:<20} {:>6} {:>5} {:>3} {:>3} {:>3}  {}\n",
        "place",
        "team",
        "points",
        "games",
        "W",
        "D",
        "L",
        tbs.join(" / ")
    );
    for s in e.standings() {
        let tb: Vec<String> = s
            .tiebreaks
            .iter()
            .map(|t| t.map_or_else(|| "-".to_owned(), export::points_text))
            .collect();
        out.push_str(&format!(
            "  {:<5} {:<20} {:>6} {:>5} {:>3} {:>3} {:>3}  {}\n",
            export::place_text(&s),
            e.team_name(s.team),
            export::points_text(s.points),
            s.games,
            s.wins,
            s.draws,
            s.losses,
            tb.join(" / ")
        ));
    }
    out
}
