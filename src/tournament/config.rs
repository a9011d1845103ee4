//! A tournament's settings: what the command line or a TOML file gives, and what `config.toml` keeps so that a
//! run can be rerun or resumed. [`TournamentConfig::load`] turns them into a [`Tournament`]: the compiled
//! variants and the bots' factories.
//!
//! A TOML file has the command line's keys (`game`, `variants`, `format`, `games`, `seed`, `max_plies`,
//! `opening_plies`, `move_timeout_ms`, `sprt`, `allow_missing_rules`, `extensions`) and a list of `bots`, each a name as on the command line
//! (`"mcts-1k"`, `"alphabeta:depth=2"`) or a table with `kind` and the keys of that kind (`bots/*.toml`).

use crate::bot::{Bot, BotSpec};
use crate::compile::Game;
use crate::lang;
use crate::load::{compile_selected_with, VariantSel};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The game played when none is named: Breakthrough, embedded so that `dagaz tournament` runs anywhere.
pub const BUILTIN_PREFIX: &str = "builtin:";
/// The embedded games, by name.
pub const BUILTIN_GAMES: [(&str, &str); 1] =
    [("breakthrough", include_str!("../../games/breakthrough.zrf"))];

/// How bots meet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every group of bots (every pair, for two-player games) meets.
    #[default]
    RoundRobin,
    /// The first bot meets every group of the others; the others do not meet among themselves.
    Gauntlet,
}

/// A `--format` (or `format =`) that names no format: the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError(pub String);

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown format `{}`; formats are round-robin, gauntlet",
            self.0
        )
    }
}

impl std::error::Error for FormatError {}

impl std::str::FromStr for Format {
    type Err = FormatError;
    fn from_str(s: &str) -> Result<Self, FormatError> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(FormatError(s.to_string())),
        }
    }
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        }
    }
}

/// A sequential probability ratio test: H0 Elo = `elo0` against H1 Elo = `elo1` (of the first bot over the
/// second), with error rates `alpha` (accepting H1 wrongly) and `beta` (accepting H0 wrongly).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// An SPRT that cannot be run: `--sprt` text that is not four numbers, or bounds out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    /// The `--sprt` text given.
    NotFourNumbers(String),
    /// elo0 is not below elo1 (or either is not finite).
    EloOrder,
    /// alpha or beta out of (0, 1), or their sum not below 1.
    ErrorRates,
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtError::NotFourNumbers(s) => {
                write!(
                    f,
                    "--sprt `{s}`: expected four numbers elo0,elo1,alpha,beta"
                )
            }
            SprtError::EloOrder => f.write_str("sprt: elo0 must be below elo1"),
            SprtError::ErrorRates => {
                f.write_str("sprt: alpha and beta must be above 0 with alpha + beta below 1")
            }
        }
    }
}

impl std::error::Error for SprtError {}

impl From<SprtError> for String {
    fn from(e: SprtError) -> String {
        e.to_string()
    }
}

impl std::str::FromStr for SprtConfig {
    type Err = SprtError;
    /// `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    fn from_str(s: &str) -> Result<Self, SprtError> {
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| SprtError::NotFourNumbers(s.to_string()))?;
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err(SprtError::NotFourNumbers(s.to_string()));
        };
        let c = SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
        };
        c.validate()?;
        Ok(c)
    }
}

impl SprtConfig {
    pub fn validate(&self) -> Result<(), SprtError> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(SprtError::EloOrder);
        }
        if crate::tournament::stats::sprt_bounds(self.alpha, self.beta).is_none() {
            return Err(SprtError::ErrorRates);
        }
        Ok(())
    }
}

/// One machine's share of a run (`--shard K/N`): the games whose id is K-1 modulo N. `dagaz merge` puts the N
/// shards together into the run a single machine would have played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Shard {
    /// 1-based.
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Whether the game with this id is in the shard.
    pub fn contains(&self, game_id: u64) -> bool {
        game_id % self.n == self.k - 1
    }

    /// The number of the first `games` game ids in the shard.
    pub fn count(&self, games: u64) -> u64 {
        if games < self.k {
            0
        } else {
            (games - self.k) / self.n + 1
        }
    }

    /// The shard's `j`-th game id.
    pub fn game(&self, j: u64) -> Option<u64> {
        j.checked_mul(self.n)?.checked_add(self.k - 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// A `--shard` (or `shard =`) that is not `K/N` with 1 <= K <= N: the text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(pub String);

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--shard `{}`: expected K/N with 1 <= K <= N, e.g. 2/4",
            self.0
        )
    }
}

impl std::error::Error for ShardError {}

impl std::str::FromStr for Shard {
    type Err = ShardError;
    /// `K/N` with 1 <= K <= N.
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl TryFrom<String> for Shard {
    type Error = ShardError;
    fn try_from(s: String) -> Result<Shard, ShardError> {
        s.parse()
    }
}

impl From<Shard> for String {
    fn from(s: Shard) -> String {
        s.to_string()
    }
}

/// A bot as a configuration names it: a command-line name (preset or inline) or a full table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BotConfig {
    Name(String),
    Table(toml::Table),
}

impl BotConfig {
    /// The specification it stands for.
    pub fn resolve(&self) -> Result<BotSpec, String> {
        self.resolve_in(&[])
    }

    /// As [`BotConfig::resolve`], with preset folders searched first (`--bots-dir`).
    pub fn resolve_in(&self, dirs: &[PathBuf]) -> Result<BotSpec, String> {
        match self {
            BotConfig::Name(n) => BotSpec::resolve_in(n, dirs),
            BotConfig::Table(t) => {
                let default = t
                    .get("kind")
                    .and_then(|k| k.as_str())
                    .unwrap_or("bot")
                    .to_string();
                let text = toml::to_string(t).map_err(|e| e.to_string())?;
                BotSpec::from_toml(&text, &default)
            }
        }
    }

    /// The full table of a specification (what `config.toml` keeps: no preset file is needed to rerun).
    pub fn from_spec(spec: &BotSpec) -> BotConfig {
        match toml::Table::try_from(spec) {
            Ok(t) => BotConfig::Table(t),
            Err(_) => BotConfig::Name(spec.name()),
        }
    }
}

/// Everything that determines a run's games and statistics (not `--jobs`, which changes neither).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentConfig {
    /// The dagaz version that wrote the configuration.
    #[serde(default)]
    pub version: String,
    /// A game file, or `builtin:NAME` for an embedded game.
    #[serde(default = "default_game")]
    pub game: String,
    /// FNV-1a hash of the game file's bytes when the run started: a resumed run refuses a changed file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_hash: Option<String>,
    /// Variants by number or title; `["all"]` for every game of the file; empty for the first.
    #[serde(default)]
    pub variants: Vec<String>,
    #[serde(default)]
    pub format: Format,
    /// Games per encounter (each pair of bots, or each group for more players), rounded up to whole pairs.
    #[serde(default = "default_games")]
    pub games: u64,
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// A game still going after this many plies is a draw of type `move-limit`.
    #[serde(default = "default_max_plies")]
    pub max_plies: u32,
    /// Random plies played from the start before the bots take over (the same for both games of a pair).
    #[serde(default = "default_opening_plies")]
    pub opening_plies: u32,
    /// A bot that takes longer than this for one move loses the game (`bot-error`, `timeout`).
    #[serde(default = "default_move_timeout_ms")]
    pub move_timeout_ms: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtConfig>,
    /// Play a game whose file asks for rules the engine does not apply (`--allow-missing-rules`); without it
    /// such a game is refused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_missing_rules: bool,
    /// Record each position's evaluation and Ludii's measures from them (`--record-evals`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub record_evals: bool,
    /// This machine's share of the run (`--shard K/N`); `dagaz merge` puts the shards together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// What the run plays without, for the reader of `config.toml`: one line per rule and variant. Written by
    /// the run and recomputed from the game whenever the configuration is loaded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_rules: Vec<String>,
    /// Rust extension modules added to the game (`--extension`), as if its file named them; part of the
    /// run's fingerprint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
    /// Opening book (`--openings FILE`): positions or move lines the pairs start from; relative to `base_dir`
    /// like `game`. See [`super::openings`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Its format (`--openings-format`); by default the one its extension names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_format: Option<super::openings::OpeningsFormat>,
    /// The order pairs take the openings in (`--openings-order`; sequential when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_order: Option<super::openings::OpeningsOrder>,
    /// Moves of each line played (`--openings-plies`; all when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings_plies: Option<u32>,
    /// Draw adjudication from the bots' scores (`--draw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<super::adjudicate::DrawRule>,
    /// Resign adjudication from the bots' scores (`--resign`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<super::adjudicate::ResignRule>,
    /// Every bot's clock, unless it has its own (`--tc 40/60+0.6`, `--st SECONDS`, `--timemargin MS`; see
    /// `tournament::clock`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub st: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timemargin: Option<u64>,
    pub bots: Vec<BotConfig>,
    /// The folder a relative `game` path is read from: the folder of the TOML file it came from (`--config`,
    /// a run's `config.toml`); `None`, the current directory (a path from the command line).
    #[serde(skip)]
    pub base_dir: Option<PathBuf>,
    /// Folders searched for bot presets by name before `./bots/` and the built-in ones (`--bots-dir`).
    #[serde(skip)]
    pub bots_dirs: Vec<PathBuf>,
}

fn default_game() -> String {
    format!("{BUILTIN_PREFIX}breakthrough")
}
fn default_games() -> u64 {
    20
}
fn default_seed() -> u64 {
    1
}
fn default_max_plies() -> u32 {
    500
}
fn default_opening_plies() -> u32 {
    4
}
fn default_move_timeout_ms() -> u64 {
    60_000
}

/// The bots of the default tournament (inline, so that no preset file is needed).
pub const DEFAULT_BOTS: [&str; 3] = [
    "random",
    "alphabeta:depth=3,name=alphabeta-3",
    "mcts:iterations=500,playout_plies=100,name=mcts-500",
];

impl Default for TournamentConfig {
    /// The embedded default tournament.
    fn default() -> Self {
        TournamentConfig {
            version: env!("CARGO_PKG_VERSION").into(),
            game: default_game(),
            game_hash: None,
            variants: vec![],
            format: Format::RoundRobin,
            games: 20,
            seed: default_seed(),
            max_plies: default_max_plies(),
            opening_plies: default_opening_plies(),
            move_timeout_ms: default_move_timeout_ms(),
            sprt: None,
            allow_missing_rules: false,
            shard: None,
            record_evals: false,
            missing_rules: vec![],
            extensions: vec![],
            openings: None,
            openings_format: None,
            openings_order: None,
            openings_plies: None,
            draw: None,
            resign: None,
            tc: None,
            st: None,
            timemargin: None,
            bots: DEFAULT_BOTS
                .iter()
                .map(|b| BotConfig::Name(b.to_string()))
                .collect(),
            base_dir: None,
            bots_dirs: vec![],
        }
    }
}

/// A variant ready to play.
pub struct Variant {
    /// Its title (unique within the run).
    pub title: String,
    pub game: Arc<Game>,
    /// The game with its engine, built once here and shared by every game of the run.
    pub rules: Arc<super::rules::Rules>,
    /// The hashes of the bytes this variant was compiled from (the game file's, and its included files'),
    /// taken when the file was read, so that the fingerprint does not read it again.
    pub(crate) source: Arc<SourceHashes>,
}

/// What [`Tournament::fingerprint`] records of the game's files.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SourceHashes {
    /// FNV-1a of the game file's bytes.
    pub hash: String,
    /// FNV-1a of the included files' paths and texts, or `none`.
    pub includes: String,
}

impl SourceHashes {
    /// The hashes of a file as read from `bytes` in `dir` (its included files from `file`'s sources).
    fn of(bytes: &[u8], file: &lang::ReadFile, dir: &Path) -> SourceHashes {
        let mut all = vec![];
        for f in file.sources.files().iter().skip(1) {
            // Relative to the game's folder: the same wherever the run is resumed from.
            let path = f.path.strip_prefix(dir).unwrap_or(&f.path);
            all.extend_from_slice(path.to_string_lossy().as_bytes());
            all.push(0);
            all.extend_from_slice(f.text.as_bytes());
            all.push(0);
        }
        SourceHashes {
            hash: fnv1a(bytes),
            includes: if all.is_empty() {
                "none".to_string()
            } else {
                fnv1a(&all)
            },
        }
    }
}

impl Variant {
    /// Seats: the players that are not random (`?`), ordered by their first turn.
    pub fn seats(&self) -> Vec<usize> {
        seats_of(&self.game)
    }
}

/// The non-random players of a game, ordered by their first turn in the turn order (seat 0 moves first).
pub fn seats_of(game: &Game) -> Vec<usize> {
    let mut seats: Vec<usize> = vec![];
    let order = game
        .turn_order
        .entries
        .iter()
        .map(|e| e.player.idx())
        .chain(0..game.players.len());
    for p in order {
        if !game.players[p].random && !seats.contains(&p) {
            seats.push(p);
        }
    }
    seats
}

/// Builds a bot for one game.
pub type BotFactory = Arc<dyn Fn() -> Result<Box<dyn Bot>, String> + Send + Sync>;

/// A bot of the tournament: its name, how it was specified, and how to build a fresh one for each game.
#[derive(Clone)]
pub struct BotEntry {
    pub name: String,
    /// What `config.toml` records; `None` for bots made in code (tests), which a resume cannot rebuild.
    pub config: Option<BotConfig>,
    pub make: BotFactory,
    /// The bot's own time limit for a move, if it has one: the runner's watchdog waits at least this (plus a
    /// second) so that the bot's own timeout, with its own message, comes first.
    pub own_time_limit: Option<std::time::Duration>,
    /// Whether the bot's moves are bounded by a count (depth, nodes, iterations), not by the clock: such a bot
    /// plays the same moves on any machine under any load, so the move timeout does not apply to it. Only a
    /// safety limit does, and a move over it is an engine fault, not a loss (see the runner).
    pub fixed_budget: bool,
    /// The bot's clock (its own `tc`/`st`, else the tournament's): kept by the runner, a flag fall loses.
    pub clock: Option<super::clock::ClockSpec>,
}

impl BotEntry {
    /// A bot from its specification.
    pub fn from_spec(spec: BotSpec) -> BotEntry {
        let config = BotConfig::from_spec(&spec);
        let name = spec.name();
        let fixed_budget = match &spec {
            BotSpec::Random(_) => true,
            BotSpec::Alphabeta(c) => c.time_ms.is_none(),
            BotSpec::Mcts(c) => c.time_ms.is_none(),
            BotSpec::External(_)
            | BotSpec::Uci(_)
            | BotSpec::Usi(_)
            | BotSpec::Ucci(_)
            | BotSpec::Gtp(_)
            | BotSpec::Xboard(_) => false,
            BotSpec::Auto(c) => c.time_ms.is_none(),
        };
        let own_ms = match &spec {
            BotSpec::Random(_) => None,
            BotSpec::Alphabeta(c) => c.time_ms,
            BotSpec::Mcts(c) => c.time_ms,
            // The first answer of a new process gets the startup time too.
            BotSpec::External(c) => Some(c.time_ms + c.startup_ms),
            BotSpec::Uci(c) | BotSpec::Usi(c) | BotSpec::Ucci(c) => Some(c.time_ms + c.startup_ms),
            BotSpec::Gtp(c) => Some(c.time_ms + c.startup_ms),
            BotSpec::Xboard(c) => Some(c.time_ms + c.startup_ms + c.protover_ms),
            BotSpec::Auto(c) => c.time_ms,
        };
        BotEntry {
            name,
            config: Some(config),
            // A spec that was built has valid keys.
            clock: spec.clock().ok().flatten(),
            make: Arc::new(move || spec.build()),
            own_time_limit: own_ms.map(std::time::Duration::from_millis),
            fixed_budget,
        }
        .with_clock(None)
    }

    /// A bot made by code (for tests and embedding programs).
    pub fn custom(
        name: impl Into<String>,
        make: impl Fn() -> Result<Box<dyn Bot>, String> + Send + Sync + 'static,
    ) -> BotEntry {
        BotEntry {
            name: name.into(),
            config: None,
            make: Arc::new(make),
            own_time_limit: None,
            fixed_budget: false,
            clock: None,
        }
    }

    /// Plays the bot on `clock` unless it has a clock of its own. A bot on a clock depends on the machine: it
    /// has no fixed budget.
    pub fn with_clock(mut self, clock: Option<super::clock::ClockSpec>) -> BotEntry {
        if self.clock.is_none() {
            self.clock = clock;
        }
        if self.clock.is_some() {
            self.fixed_budget = false;
        }
        self
    }

    /// Marks a bot made by code as bounded by a count, not by the clock (see [`BotEntry::fixed_budget`]).
    pub fn with_fixed_budget(mut self) -> BotEntry {
        self.fixed_budget = true;
        self
    }
}

/// A configuration with its game compiled and its bots resolved.
pub struct Tournament {
    pub config: TournamentConfig,
    pub variants: Vec<Variant>,
    pub bots: Vec<BotEntry>,
    /// The opening book, read and checked against every variant (`--openings`).
    pub book: Option<Arc<super::openings::Book>>,
    /// FNV-1a of the openings file's bytes (for the fingerprint).
    pub book_hash: Option<String>,
}

/// A path with `.` and `..` folded away, without asking the file system.
pub(crate) fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// `path` as seen from the folder `from` (both absolute and normalized).
pub(crate) fn relative_path(path: &Path, from: &Path) -> PathBuf {
    let (a, b): (Vec<_>, Vec<_>) = (path.components().collect(), from.components().collect());
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return path.to_path_buf(); // another root (a Windows drive): keep it absolute
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &a[common..] {
        out.push(c);
    }
    out
}

/// FNV-1a, 64 bits: a stable fingerprint of a game file.
pub fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl TournamentConfig {
    /// Reads a TOML configuration (a file given with `--config`, or a run's `config.toml`).
    pub fn from_toml(text: &str) -> Result<TournamentConfig, String> {
        let mut c: TournamentConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        // With an opening book, random opening plies are played only when asked for.
        if c.openings.is_some() {
            let t: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
            if !t.contains_key("opening_plies") {
                c.opening_plies = 0;
            }
        }
        Ok(c)
    }

    /// Reads a TOML file: a relative `game` path in it is relative to the file's folder.
    pub fn read_file(path: &Path) -> Result<TournamentConfig, String> {
        let text = lang::read_settings(path)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let mut c = Self::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        c.base_dir = Some(dir.unwrap_or(Path::new(".")).to_path_buf());
        Ok(c)
    }

    /// Where the openings file is read from: `openings` itself, or under `base_dir` when relative.
    pub fn openings_path(&self) -> Option<PathBuf> {
        let o = Path::new(self.openings.as_deref()?);
        Some(match &self.base_dir {
            Some(dir) if o.is_relative() => dir.join(o),
            _ => o.to_path_buf(),
        })
    }

    /// Where the game file is read from: `game` itself, or under `base_dir` when relative.
    pub fn game_path(&self) -> PathBuf {
        let g = Path::new(&self.game);
        match &self.base_dir {
            Some(dir) if g.is_relative() => dir.join(g),
            _ => g.to_path_buf(),
        }
    }

    /// Rewrites a relative `game` path to be relative to `dir`, where this configuration is about to be written
    /// (a new run's folder), so that the run's `config.toml` works from any current directory.
    pub fn rebase(&mut self, dir: &Path) -> Result<(), String> {
        if let Some(o) = self.openings.clone().filter(|o| Path::new(o).is_relative()) {
            let p = self.openings_path().unwrap_or_else(|| o.clone().into());
            let abs = std::path::absolute(&p)
                .map(|p| normalize(&p))
                .map_err(|e| format!("cannot resolve `{}`: {e}", p.display()))?;
            let to = std::path::absolute(dir)
                .map(|p| normalize(&p))
                .map_err(|e| format!("cannot resolve `{}`: {e}", dir.display()))?;
            self.openings = Some(
                relative_path(&abs, &to)
                    .to_string_lossy()
                    .replace('\\', "/"),
            );
        }
        if self.game.starts_with(BUILTIN_PREFIX) || Path::new(&self.game).is_absolute() {
            self.base_dir = Some(dir.to_path_buf());
            return Ok(());
        }
        let abs = |p: &Path| {
            std::path::absolute(p)
                .map(|p| normalize(&p))
                .map_err(|e| format!("cannot resolve `{}`: {e}", p.display()))
        };
        let game = abs(&self.game_path())?;
        let to = abs(dir)?;
        self.game = relative_path(&game, &to)
            .to_string_lossy()
            .replace('\\', "/");
        self.base_dir = Some(dir.to_path_buf());
        Ok(())
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| format!("# cannot write the configuration: {e}\n"))
    }

    /// The game file's bytes (or the embedded text), and the folder its includes are read from.
    fn game_bytes(&self) -> Result<(Vec<u8>, std::path::PathBuf), String> {
        if let Some(name) = self.game.strip_prefix(BUILTIN_PREFIX) {
            let (_, text) = BUILTIN_GAMES
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| {
                    format!(
                        "no built-in game `{name}`; built-in games are {}",
                        BUILTIN_GAMES.map(|(n, _)| n).join(", ")
                    )
                })?;
            return Ok((text.as_bytes().to_vec(), ".".into()));
        }
        let path = &self.game_path();
        let bytes = lang::read_capped(path, lang::MAX_FILE_BYTES)
            .map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        Ok((bytes, dir))
    }

    /// The tournament's clock for every bot without one of its own (`tc`, `st`, `timemargin`).
    pub fn clock(&self) -> Result<Option<super::clock::ClockSpec>, String> {
        super::clock::ClockSpec::from_keys(self.tc.as_deref(), self.st, self.timemargin)
            .map_err(|e| format!("the tournament's clock: {e}"))
    }

    /// Checks the settings, compiles the variants and resolves the bots.
    pub fn load(mut self) -> Result<Tournament, String> {
        let mut bots = vec![];
        let mut specs = vec![];
        let clock = self.clock()?;
        for b in &self.bots {
            let spec = b.resolve_in(&self.bots_dirs)?;
            specs.push(spec.clone());
            let entry = BotEntry::from_spec(spec.clone()).with_clock(clock);
            spec.check_limits(entry.clock.is_some())?;
            bots.push(entry);
        }
        let variants = self.load_variants()?;
        // Engines over their own protocols need the game in their notation: refused now, not game by game.
        for spec in &specs {
            for v in &variants {
                spec.check_game(&v.game)?;
            }
        }
        if self.game_hash.is_none() && !self.game.starts_with(BUILTIN_PREFIX) {
            // The hash of the bytes the variants were compiled from: the file is read once.
            self.game_hash = variants.first().map(|v| v.source.hash.clone());
        }
        Tournament::new(self, variants, bots)
    }

    /// Compiles the selected variants of the game.
    pub fn load_variants(&self) -> Result<Vec<Variant>, String> {
        let (bytes, dir) = self.game_bytes()?;
        let hash = fnv1a(&bytes);
        if let Some(h) = &self.game_hash {
            if !self.game.starts_with(BUILTIN_PREFIX) && *h != hash {
                return Err(format!(
                    "`{}` has changed since the run started (its hash was {h}); the run cannot be resumed with it",
                    self.game_path().display()
                ));
            }
        }
        let name = if self.game.starts_with(BUILTIN_PREFIX) {
            self.game.clone()
        } else {
            self.game_path().display().to_string()
        };
        let file = lang::read_bytes(&name, bytes, &dir);
        if file.has_errors() {
            return Err(lang::diag::render_all(&file.diagnostics, &file.sources));
        }
        let mut source = SourceHashes::of(&[], &file, &dir);
        source.hash = hash;
        let source = Arc::new(source);
        let sels: Vec<VariantSel> = match self.variants.as_slice() {
            [] => vec![VariantSel::First],
            [all] if all.eq_ignore_ascii_case("all") => file
                .games
                .iter()
                .map(|g| VariantSel::Number(g.number))
                .collect(),
            list => list.iter().map(|v| VariantSel::parse(v)).collect(),
        };
        let mut variants: Vec<Variant> = vec![];
        for sel in &sels {
            let (game, diags) = compile_selected_with(&file, sel, &self.extensions);
            let Some(mut game) = game else {
                let errors: Vec<_> = diags.into_iter().filter(|d| d.is_error()).collect();
                return Err(lang::diag::render_all(&errors, &file.sources));
            };
            for name in &self.extensions {
                crate::extension::attach(&mut game, name)
                    .map_err(|e| format!("{}: {e}", self.game))?;
            }
            let mut title = game.title.clone();
            if variants.iter().any(|v| v.title == title) {
                title = format!("{title} ({})", game.variant);
            }
            let game = Arc::new(game);
            variants.push(Variant {
                title,
                rules: Arc::new(super::rules::Rules::new(game.clone())),
                game,
                source: source.clone(),
            });
        }
        if variants.is_empty() {
            return Err(format!("`{}` holds no game", self.game));
        }
        Ok(variants)
    }

    fn validate(&self, variants: &[Variant], bots: &[BotEntry]) -> Result<(), String> {
        if bots.len() < 2 {
            return Err("a tournament needs at least two bots".into());
        }
        let mut names: Vec<&str> = bots.iter().map(|b| b.name.as_str()).collect();
        names.sort();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "two bots are named `{}`; give one a `name=...`",
                w[0]
            ));
        }
        for v in variants {
            let seats = v.seats().len();
            if seats == 0 {
                return Err(format!("`{}` has no player for a bot", v.title));
            }
            if seats > bots.len() {
                return Err(format!(
                    "`{}` has {seats} players; give at least {seats} bots",
                    v.title
                ));
            }
        }
        let missing =
            crate::compile::missing::distinct(variants.iter().flat_map(|v| &v.game.missing_rules));
        if !missing.is_empty() && !self.allow_missing_rules {
            return Err(crate::compile::missing::refusal(&self.game, &missing));
        }
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if self.move_timeout_ms == 0 {
            return Err("move_timeout_ms must be at least 1".into());
        }
        if self.opening_plies >= self.max_plies {
            return Err(format!(
                "--opening-plies {} must be below --max-plies {}: the games would be decided in the random \
                 opening, without the bots",
                self.opening_plies, self.max_plies
            ));
        }
        if self.draw.is_some() || self.resign.is_some() {
            if let Some(d) = &self.draw {
                d.validate()?;
            }
            if let Some(r) = &self.resign {
                r.validate()?;
            }
            if let Some(v) = variants.iter().find(|v| v.seats().len() != 2) {
                return Err(format!(
                    "--draw and --resign adjudicate games of two players; `{}` has {}",
                    v.title,
                    v.seats().len()
                ));
            }
        }
        if self.openings.is_none()
            && (self.openings_format.is_some()
                || self.openings_order.is_some()
                || self.openings_plies.is_some())
        {
            return Err(
                "--openings-format, --openings-order and --openings-plies need --openings FILE"
                    .into(),
            );
        }
        if let Some(s) = &self.sprt {
            s.validate()?;
            if bots.len() != 2 || variants.len() != 1 || variants[0].seats().len() != 2 {
                return Err(
                    "--sprt needs a match: exactly two bots, one variant, a two-player game".into(),
                );
            }
        }
        Ok(())
    }
}

impl Tournament {
    /// A tournament from parts (bots made in code are allowed); checks that the parts fit together.
    pub fn new(
        mut config: TournamentConfig,
        variants: Vec<Variant>,
        bots: Vec<BotEntry>,
    ) -> Result<Tournament, String> {
        config.validate(&variants, &bots)?;
        config.missing_rules = variants
            .iter()
            .flat_map(|v| {
                v.game
                    .missing_rules
                    .iter()
                    .map(|r| format!("{}: {} at {}", v.title, r.what_with_value(), r.location))
            })
            .collect();
        if config.version.is_empty() {
            config.version = env!("CARGO_PKG_VERSION").into();
        }
        // What config.toml records: full specifications where known.
        if bots.iter().all(|b| b.config.is_some()) {
            config.bots = bots.iter().filter_map(|b| b.config.clone()).collect();
        } else {
            config.bots = bots
                .iter()
                .map(|b| {
                    b.config
                        .clone()
                        .unwrap_or_else(|| BotConfig::Name(b.name.clone()))
                })
                .collect();
        }
        let (book, book_hash) = match config.openings_path() {
            None => (None, None),
            Some(path) => {
                let (text, format) = super::openings::read_file(&path, config.openings_format)?;
                let engines: Vec<&crate::engine::Engine> =
                    variants.iter().map(|v| v.rules.engine()).collect();
                let per_variant = super::openings::load(
                    &path.display().to_string(),
                    &text,
                    format,
                    config.openings_plies,
                    &engines,
                )?;
                let n = per_variant.first().map_or(0, |v| v.len());
                let order = super::openings::order(
                    n,
                    config.openings_order.unwrap_or_default(),
                    config.seed,
                );
                (
                    Some(Arc::new(super::openings::Book { per_variant, order })),
                    Some(fnv1a(text.as_bytes())),
                )
            }
        };
        Ok(Tournament {
            config,
            variants,
            bots,
            book,
            book_hash,
        })
    }

    /// Everything that shapes the run's games and statistics, field by field (name, value): the dagaz
    /// version running, the game file and the hash of its bytes now (and of the files it includes), the
    /// variants, every setting but
    /// `--jobs`, and each bot's full specification. A run records it when it starts and a resume compares.
    pub fn fingerprint(&self) -> Vec<(String, String)> {
        let c = &self.config;
        // The hashes taken when the variants were read; the file is read again only for variants that did
        // not come from it.
        let read = |c: &TournamentConfig| -> Result<SourceHashes, String> {
            let (bytes, dir) = c.game_bytes()?;
            let file = lang::read_bytes(&c.game, bytes.clone(), &dir);
            Ok(SourceHashes::of(&bytes, &file, &dir))
        };
        let (hash, includes) = match self.variants.first().map(|v| (*v.source).clone()) {
            Some(s) => (s.hash, s.includes),
            None => match read(c) {
                Ok(s) => (s.hash, s.includes),
                Err(e) => (format!("unreadable: {e}"), String::new()),
            },
        };
        let mut f = vec![
            (
                "dagaz version".to_string(),
                env!("CARGO_PKG_VERSION").to_string(),
            ),
            // Which build: shards of two builds are not one run (`dagaz merge` refuses them).
            ("dagaz build".into(), super::shards::build_id()),
            ("game".into(), c.game.clone()),
            ("game file hash".into(), hash),
            ("included files hash".into(), includes),
            (
                "variants".into(),
                self.variants
                    .iter()
                    .map(|v| v.title.as_str())
                    .collect::<Vec<_>>()
                    .join(" / "),
            ),
            ("format".into(), c.format.as_str().into()),
            ("games".into(), c.games.to_string()),
            ("seed".into(), c.seed.to_string()),
            ("max_plies".into(), c.max_plies.to_string()),
            ("opening_plies".into(), c.opening_plies.to_string()),
            ("move_timeout_ms".into(), c.move_timeout_ms.to_string()),
            (
                "sprt".into(),
                c.sprt.map_or("none".into(), |s| {
                    format!("{},{},{},{}", s.elo0, s.elo1, s.alpha, s.beta)
                }),
            ),
            ("bots".into(), self.bots.len().to_string()),
        ];
        if c.record_evals {
            f.push(("record_evals".into(), "true".into()));
        }
        // Recorded only when given, as the modules below.
        if let Ok(Some(clock)) = c.clock() {
            f.push(("clock".into(), clock.describe()));
        }
        // Recorded only when given, so that the fingerprints of runs without modules stay as they were.
        if !c.extensions.is_empty() {
            f.push(("extensions".into(), c.extensions.join(" ")));
        }
        // Recorded only when given, so that the fingerprints of runs without them stay as they were.
        if let Some(o) = &c.openings {
            f.push(("openings".into(), o.clone()));
            f.push((
                "openings file hash".into(),
                self.book_hash.clone().unwrap_or_default(),
            ));
            f.push((
                "openings format".into(),
                c.openings_format
                    .map_or("from the extension".into(), |x| x.to_string()),
            ));
            f.push((
                "openings order".into(),
                c.openings_order.unwrap_or_default().as_str().into(),
            ));
            f.push((
                "openings plies".into(),
                c.openings_plies.map_or("all".into(), |p| p.to_string()),
            ));
        }
        if let Some(d) = &c.draw {
            f.push(("draw adjudication".into(), d.to_string()));
        }
        if let Some(r) = &c.resign {
            f.push(("resign adjudication".into(), r.to_string()));
        }
        if let Some(sh) = c.shard {
            // Only in a shard's fingerprint: a run of one machine has the fields it always had.
            f.push(("shard".into(), sh.to_string()));
        }
        for (i, b) in self.bots.iter().enumerate() {
            let spec = match &b.config {
                Some(BotConfig::Table(t)) => {
                    serde_json::to_string(t).unwrap_or_else(|_| b.name.clone())
                }
                Some(BotConfig::Name(n)) => n.clone(),
                None => format!("(made in code) {}", b.name),
            };
            f.push((format!("bot {}", i + 1), spec));
        }
        f
    }

    /// The most seats of any variant (the width of the per-seat columns).
    pub fn max_seats(&self) -> usize {
        self.variants
            .iter()
            .map(|v| v.seats().len())
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_config_loads_and_round_trips() {
        let t = TournamentConfig::default().load().unwrap();
        assert_eq!(t.variants.len(), 1);
        assert_eq!(t.bots.len(), 3);
        let text = t.config.to_toml();
        let back = TournamentConfig::from_toml(&text).unwrap();
        assert_eq!(back, t.config, "{text}");
        // Resolved specs are kept whole: the rerun needs no preset.
        assert!(text.contains("kind = \"mcts\""), "{text}");
        let again = back.load().unwrap();
        assert_eq!(again.config, t.config);
    }

    #[test]
    fn toml_files_name_bots_either_way() {
        let c = TournamentConfig::from_toml(
            r#"
            game = "builtin:breakthrough"
            games = 4
            bots = ["random", { kind = "alphabeta", depth = 1, name = "ab1" }]
            "#,
        )
        .unwrap();
        let t = c.load().unwrap();
        let names: Vec<_> = t.bots.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["random", "ab1"]);
        assert_eq!(t.config.games, 4);
    }

    fn err(c: &TournamentConfig) -> String {
        match c.clone().load() {
            Ok(_) => panic!("loaded: {c:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn bad_settings_are_errors() {
        let mut c = TournamentConfig {
            bots: vec![BotConfig::Name("random".into())],
            ..Default::default()
        };
        assert!(err(&c).contains("two bots"));
        c.bots.push(BotConfig::Name("random".into()));
        assert!(err(&c).contains("named `random`"));
        c.bots[1] = BotConfig::Name("random:name=r2".into());
        c.game = "builtin:nothing".into();
        assert!(err(&c).contains("built-in"));
        c.game = "builtin:breakthrough".into();
        c.variants = vec!["7".into()];
        assert!(err(&c).contains("no variant number 7"));
        assert!("0,10,0.05".parse::<SprtConfig>().is_err());
        assert!("10,0,0.05,0.05".parse::<SprtConfig>().is_err());
        assert!("0,10,0.05,0.05".parse::<SprtConfig>().is_ok());
        assert_eq!(
            "swiss".parse::<Format>().unwrap_err().to_string(),
            "unknown format `swiss`; formats are round-robin, gauntlet"
        );
    }
}
