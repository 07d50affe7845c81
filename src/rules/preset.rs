//! Rule presets: the options on which the rule texts in `shared/rules/` differ, as data.
//!
//! Each preset lives in `assets/rules/<name>.ron` with comments citing the articles it
//! encodes; the binary carries copies of them, so a preset can be named (`uscf-bughouse`)
//! or given as a path to a RON file of the same shape.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use shakmaty::{Color, Role};

/// Every option on which the rule texts differ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesPreset {
    /// Short name, as given to `--rules` (`uscf-bughouse`).
    pub name: String,
    /// Human title shown to the TD and written into the BPGN.
    pub title: String,
    /// The rule text this preset encodes.
    pub source: String,
    /// Two boards (bughouse, captures passed to the partner) or one board of ordinary chess.
    pub boards: BoardCount,
    pub time_control: TimeControl,
    pub promotion: Promotion,
    /// Pieces a pawn may be promoted to (upgrade rules only).
    #[serde(with = "role_names")]
    pub promotion_roles: Vec<Role>,
    /// How a promoted pawn is marked on the board by these rules (a hint for the TD and
    /// the sensing; the sensing copes with every marking).
    pub promoted_pawn_marking: PromotedPawnMarking,
    /// Ranks, counted from the dropping player's own side (1 = own back rank), on which a
    /// pawn may be dropped.
    pub pawn_drop_ranks: RankRange,
    /// Absolute ranks (1..=8) on which a colour may drop no piece at all.
    pub no_drop_ranks: NoDropRanks,
    pub drop_mate: DropMate,
    pub mate: MateRule,
    pub stalemate: StalemateRule,
    pub illegal_move: IllegalMoveRule,
    /// Both flags down (on one board, or no claim made in time): a draw under every text.
    pub both_flags: BothFlagsRule,
    /// Mates on both boards at the same time (within `simultaneous_window_ms`).
    pub simultaneous_mates: SimultaneousMatesRule,
    /// How close (ms of match time) two mates must be to count as simultaneous.
    pub simultaneous_window_ms: u64,
    /// A flag-fall claim needs mating material (US Chess blitz 9a3, 9c, 10a4).
    pub flag_needs_mating_material: bool,
    pub scoring: Scoring,
    pub penalties: Penalties,
    /// How an event is played under this text: team size, games a pairing, colours,
    /// tiebreaks. Journals written before events existed have none: the default (two
    /// players, one game a pairing, the team decides who plays White).
    #[serde(default)]
    pub event: EventRules,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardCount {
    /// Two boards; every capture goes to the capturer's partner.
    Bughouse,
    /// A single board of ordinary chess (blitz): captures leave the game.
    Single,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
    pub delay_ms: u64,
}

impl TimeControl {
    /// FICS/BPGN form `300+0` (seconds; a delay is written `300d2`).
    #[must_use]
    pub fn bpgn(&self) -> String {
        let base = self.base_ms / 1000;
        if self.delay_ms > 0 {
            format!("{base}d{}", self.delay_ms / 1000)
        } else {
            format!("{base}+{}", self.increment_ms / 1000)
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Promotion {
    /// The pawn becomes a piece; if captured it goes to the partner as a pawn.
    Upgrade,
    /// Transfer Chess 4c: no promotion. A pawn reaching the last rank is removed and
    /// passed on as if captured, to the mover's diagonal opponent.
    Removal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PromotedPawnMarking {
    /// The pawn stays on the board laid on its side (US Chess bughouse 10c).
    PawnOnItsSide,
    /// A spare piece of the chosen kind replaces the pawn (ordinary chess, blitz 19).
    SparePiece,
    /// Not applicable (no promotion).
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankRange {
    pub min: u8,
    pub max: u8,
}

impl RankRange {
    #[must_use]
    pub fn contains(&self, relative_rank: u8) -> bool {
        (self.min..=self.max).contains(&relative_rank)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoDropRanks {
    pub white: Vec<u8>,
    pub black: Vec<u8>,
}

impl NoDropRanks {
    #[must_use]
    pub fn forbids(&self, color: Color, absolute_rank: u8) -> bool {
        match color {
            Color::White => self.white.contains(&absolute_rank),
            Color::Black => self.black.contains(&absolute_rank),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DropMate {
    Allowed,
    /// A drop that gives mate (by the preset's mate definition) is an illegal move.
    Forbidden,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MateRule {
    /// True (bughouse) mate: a check that a drop could block is not mate, even with an
    /// empty reserve: the player may wait for a piece.
    TrueMate,
    /// Ordinary chess mate.
    ChessMate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StalemateRule {
    /// The player without a move waits (clock running) for a piece from the partner.
    Wait,
    /// Stalemate ends the game in a draw.
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IllegalMoveRule {
    /// An illegal move stands unless the opponent claims it before completing their own
    /// move; a claim loses the game for the offender.
    LossOnClaim,
    /// An illegal move is corrected on the offender's time; it never loses by itself.
    Corrected,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BothFlagsRule {
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SimultaneousMatesRule {
    /// Transfer Chess 7d: a draw.
    Draw,
    /// The texts are silent: the mate recorded first decides.
    FirstRecorded,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scoring {
    pub win: f32,
    pub draw: f32,
    pub loss: f32,
}

/// What a text says about an event of several teams (the `event` of a preset file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventRules {
    /// Players a team, fixed for the event (no substitutions). One for a game of one board.
    pub team_size: u8,
    /// Games (matches) each pairing of teams plays.
    pub games_per_pairing: u8,
    /// Who of a team plays White in a pairing's first game.
    pub white: WhiteRule,
    /// Colours in a pairing's later games.
    pub next_game: NextGameRule,
    /// How teams level on game points are ordered, in turn.
    pub tiebreaks: Vec<Tiebreak>,
}

impl Default for EventRules {
    fn default() -> EventRules {
        EventRules {
            team_size: 2,
            games_per_pairing: 1,
            white: WhiteRule::TeamDecides,
            next_game: NextGameRule::SameRule,
            tiebreaks: vec![
                Tiebreak::HeadToHead,
                Tiebreak::SonnebornBerger,
                Tiebreak::Wins,
            ],
        }
    }
}

/// Who of a team plays White. Each team always has one player of each colour in a
/// bughouse match (its player on board A has the colour of its side, its partner the
/// other), so the pairing's side says which board each colour is on, and this rule says
/// which player takes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhiteRule {
    /// The team decides which player plays White in each game: the TD enters it (until
    /// then the team's first player is shown).
    TeamDecides,
    /// The side decides: a team's first player keeps board A for the whole event (a fixed
    /// team order, or a team of one), so the side the pairing gives is the colour.
    BySide,
}

/// Colours in a pairing's second and later games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NextGameRule {
    /// As in the first game ([`WhiteRule`] again, sides unchanged).
    SameRule,
    /// The sides change over: who had White has Black.
    SidesSwap,
    /// The team that won the game before switches colours (its White player plays Black);
    /// the team that lost chooses whether to switch (the TD is asked). After a draw both
    /// teams choose.
    WinnerSwitchesLoserChooses,
}

/// One way to order teams level on game points (the README defines each).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tiebreak {
    /// Game points in the games among the level teams, when each has met each other
    /// equally often.
    HeadToHead,
    /// For each game, the points scored in it times the opponent's game points; summed.
    SonnebornBerger,
    /// Games won (over the board or by forfeit).
    Wins,
}

/// Penalties a TD applies, as the texts prescribe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Penalties {
    /// Time added to the opponent's clock for a time penalty.
    pub time_penalty_ms: u64,
    /// Knocking the clock over: time to the opponent (US Chess 14a, club 14b, blitz 8b).
    pub knocked_clock: Penalty,
    /// The escalation for displaced pieces / knocking pieces then pressing: the n-th
    /// offence gets the n-th entry, the last one repeating.
    pub displaced_pieces: Vec<Penalty>,
    /// The escalation for a clock pressed with the other hand (US Chess 13).
    pub wrong_hand: Vec<Penalty>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Penalty {
    Warning,
    /// `time_penalty_ms` added to the opponent's clock.
    TimeToOpponent,
    /// The offender loses the game (forfeit).
    Forfeit,
    /// The opponent may claim an immediate win (Transfer Chess 7c).
    OpponentMayClaimWin,
    /// The texts say nothing: the TD decides.
    TdDecides,
}

impl Penalties {
    /// The penalty for the `offence`-th offence (1-based).
    #[must_use]
    pub fn displaced(&self, offence: usize) -> Penalty {
        escalate(&self.displaced_pieces, offence)
    }

    #[must_use]
    pub fn wrong_hand(&self, offence: usize) -> Penalty {
        escalate(&self.wrong_hand, offence)
    }
}

fn escalate(ladder: &[Penalty], offence: usize) -> Penalty {
    let i = offence.saturating_sub(1);
    ladder
        .get(i)
        .or_else(|| ladder.last())
        .copied()
        .unwrap_or(Penalty::TdDecides)
}

#[derive(Debug, thiserror::Error)]
pub enum PresetError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("no rules preset named {0:?} (known: {known})", known = RulesPreset::BUILT_IN_NAMES.join(", "))]
    UnknownName(String),
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

const BUILT_IN: [(&str, &str); 5] = [
    (
        "uscf-bughouse",
        include_str!("../../assets/rules/uscf-bughouse.ron"),
    ),
    (
        "club-bughouse",
        include_str!("../../assets/rules/club-bughouse.ron"),
    ),
    (
        "club-bughouse-corrected",
        include_str!("../../assets/rules/club-bughouse-corrected.ron"),
    ),
    (
        "transfer-chess",
        include_str!("../../assets/rules/transfer-chess.ron"),
    ),
    (
        "uscf-blitz",
        include_str!("../../assets/rules/uscf-blitz.ron"),
    ),
];

impl RulesPreset {
    pub const BUILT_IN_NAMES: [&'static str; 5] = [
        "uscf-bughouse",
        "club-bughouse",
        "club-bughouse-corrected",
        "transfer-chess",
        "uscf-blitz",
    ];
    pub const DEFAULT_NAME: &'static str = "uscf-bughouse";

    /// A preset by built-in name, or else a path to a RON file.
    pub fn load(name_or_path: &str) -> Result<RulesPreset, PresetError> {
        if let Some((name, text)) = BUILT_IN.iter().find(|(n, _)| *n == name_or_path) {
            return Self::parse(text, Path::new(&format!("assets/rules/{name}.ron")));
        }
        let path = Path::new(name_or_path);
        if path.extension().is_some() || path.exists() {
            let text = std::fs::read_to_string(path).map_err(|source| PresetError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            return Self::parse(&text, path);
        }
        Err(PresetError::UnknownName(name_or_path.to_owned()))
    }

    /// The built-in preset of that name.
    ///
    /// # Panics
    /// Only if a built-in preset file is broken, which the tests rule out.
    #[must_use]
    pub fn built_in(name: &str) -> RulesPreset {
        match Self::load(name) {
            Ok(p) => p,
            Err(e) => panic!("built-in preset {name}: {e}"),
        }
    }

    /// Parses preset RON text; errors name `path`, line and column.
    pub fn parse(text: &str, path: &Path) -> Result<RulesPreset, PresetError> {
        let preset: RulesPreset = ron::from_str(text).map_err(|e| PresetError::Parse {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })?;
        preset.validate().map_err(|message| PresetError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
        Ok(preset)
    }

    fn validate(&self) -> Result<(), String> {
        let r = self.pawn_drop_ranks;
        if !(1..=8).contains(&r.min) || !(1..=8).contains(&r.max) || r.min > r.max {
            return Err(format!(
                "pawn_drop_ranks {}..={} is not within 1..=8",
                r.min, r.max
            ));
        }
        if r.min < 2 || r.max > 7 {
            return Err("pawns can never be dropped on the first or last rank".into());
        }
        for rank in self
            .no_drop_ranks
            .white
            .iter()
            .chain(&self.no_drop_ranks.black)
        {
            if !(1..=8).contains(rank) {
                return Err(format!("no_drop_ranks: rank {rank} is not within 1..=8"));
            }
        }
        let e = &self.event;
        let seats = if self.is_bughouse() { 2 } else { 1 };
        if e.team_size != seats {
            return Err(format!(
                "event.team_size {} does not fit {} board(s): a team has one player a board",
                e.team_size, seats
            ));
        }
        if e.games_per_pairing == 0 {
            return Err("event.games_per_pairing must be at least 1".into());
        }
        if self.promotion == Promotion::Upgrade
            && (self.promotion_roles.is_empty()
                || self
                    .promotion_roles
                    .iter()
                    .any(|r| matches!(r, Role::Pawn | Role::King)))
        {
            return Err(
                "promotion_roles must list pieces among Queen, Rook, Bishop, Knight".into(),
            );
        }
        Ok(())
    }

    #[must_use]
    pub fn is_bughouse(&self) -> bool {
        self.boards == BoardCount::Bughouse
    }

    /// May `color` drop a `role` on a square of `absolute_rank` (1..=8) by the drop rules
    /// of this preset (reserve and occupancy aside)?
    #[must_use]
    pub fn drop_rank_allowed(&self, color: Color, role: Role, absolute_rank: u8) -> bool {
        if self.no_drop_ranks.forbids(color, absolute_rank) {
            return false;
        }
        if role == Role::Pawn {
            let relative = match color {
                Color::White => absolute_rank,
                Color::Black => 9 - absolute_rank,
            };
            return self.pawn_drop_ranks.contains(relative);
        }
        true
    }
}

/// `Role` as its English name in RON files (`Queen`), since shakmaty's roles carry no serde.
mod role_names {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use shakmaty::Role;

    #[derive(Serialize, Deserialize)]
    enum Name {
        Pawn,
        Knight,
        Bishop,
        Rook,
        Queen,
        King,
    }

    fn to_name(r: Role) -> Name {
        match r {
            Role::Pawn => Name::Pawn,
            Role::Knight => Name::Knight,
            Role::Bishop => Name::Bishop,
            Role::Rook => Name::Rook,
            Role::Queen => Name::Queen,
            Role::King => Name::King,
        }
    }

    fn to_role(n: Name) -> Role {
        match n {
            Name::Pawn => Role::Pawn,
            Name::Knight => Role::Knight,
            Name::Bishop => Role::Bishop,
            Name::Rook => Role::Rook,
            Name::Queen => Role::Queen,
            Name::King => Role::King,
        }
    }

    pub fn serialize<S: Serializer>(roles: &[Role], s: S) -> Result<S::Ok, S::Error> {
        roles
            .iter()
            .map(|&r| to_name(r))
            .collect::<Vec<_>>()
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Role>, D::Error> {
        Ok(Vec::<Name>::deserialize(d)?
            .into_iter()
            .map(to_role)
            .collect())
    }
}
