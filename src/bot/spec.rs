//! Bot specifications: a preset file (`bots/alphabeta-3.toml`) or an inline `kind:key=value,key=value`, both
//! read into one [`BotSpec`] that builds the bot.
//!
//! A preset is TOML with a `kind` and the keys of that kind:
//!
//! ```toml
//! kind = "mcts"
//! iterations = 1000
//! playout_plies = 200
//! ```
//!
//! Inline, the same is `mcts:iterations=1000,playout_plies=200`. Unknown kinds and keys are errors that list the
//! valid ones. A bot's name is its `name` key, else the preset's file stem, else the inline text.

use super::alphabeta::{AlphaBetaBot, AlphaBetaConfig};
use super::auto::{AutoBot, AutoConfig};
use super::external::{ExternalBot, ExternalConfig};
use super::mcts::{MctsBot, MctsConfig};
use super::protocol::gtp::{GtpBot, GtpConfig};
use super::protocol::uci::{UciBot, UciConfig};
use super::protocol::xboard::{XboardBot, XboardConfig};
use super::random::RandomBot;
use super::Bot;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The settings of the random bot.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RandomConfig {
    pub name: Option<String>,
}

/// A bot of one kind with its settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum BotSpec {
    Random(RandomConfig),
    Alphabeta(AlphaBetaConfig),
    Mcts(MctsConfig),
    External(ExternalConfig),
    Uci(UciConfig),
    Usi(UciConfig),
    Ucci(UciConfig),
    Gtp(GtpConfig),
    Xboard(XboardConfig),
    Auto(AutoConfig),
}

/// The kinds, as written in presets and inline specs.
pub const KINDS: [&str; 10] = [
    "random",
    "alphabeta",
    "mcts",
    "external",
    "uci",
    "usi",
    "ucci",
    "gtp",
    "xboard",
    "auto",
];

/// The presets built into the binary, so that `--bots mcts-1k` works from any directory (`dagaz bots` lists
/// them). The files of `bots/` are their source; a file of the same name in `./bots/` or a `--bots-dir` comes
/// first. The external example is not built in: its command names a script of the repository.
pub const BUILTIN_PRESETS: [(&str, &str); 9] = [
    ("random", include_str!("../../bots/random.toml")),
    ("alphabeta-3", include_str!("../../bots/alphabeta-3.toml")),
    ("alphabeta-5", include_str!("../../bots/alphabeta-5.toml")),
    ("mcts-1k", include_str!("../../bots/mcts-1k.toml")),
    ("mcts-1k-eval", include_str!("../../bots/mcts-1k-eval.toml")),
    ("mcts-10k", include_str!("../../bots/mcts-10k.toml")),
    ("mcts-plus", include_str!("../../bots/mcts-plus.toml")),
    ("auto", include_str!("../../bots/auto.toml")),
    ("mcts-auto", include_str!("../../bots/mcts-auto.toml")),
];

/// A bot name that is neither a preset nor a kind: the message names the closest preset, if one is close.
fn unknown_bot(arg: &str, dirs: &[std::path::PathBuf]) -> String {
    let names: Vec<String> = list_presets(dirs).into_iter().map(|p| p.name).collect();
    let closest = names
        .iter()
        .map(|n| {
            let (a, b) = (arg.to_lowercase(), n.to_lowercase());
            // Ties go to the longer common start (`mcts-1kk`: `mcts-1k` before `mcts-10k`).
            let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
            (edit_distance(&a, &b), std::cmp::Reverse(common), n)
        })
        .filter(|(d, _, n)| *d <= 2.max(n.len() / 3))
        .min();
    let hint = match closest {
        Some((_, _, n)) => format!("did you mean `{n}`? "),
        None => String::new(),
    };
    format!(
        "no bot preset or kind `{arg}`: {hint}`dagaz bots` lists the presets; a bot is also written inline as \
         `kind:key=value,...` with kind {}",
        KINDS.join(", ")
    )
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A preset that `dagaz bots` lists: its name, where it comes from, and its settings inline.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetInfo {
    pub name: String,
    /// `built-in`, or the file's path.
    pub source: String,
    /// The settings as an inline spec, or the error reading it.
    pub spec: Result<String, String>,
}

/// Every preset a name can reach, in lookup order, each name once (the one a name resolves to).
pub fn list_presets(dirs: &[std::path::PathBuf]) -> Vec<PresetInfo> {
    let mut out: Vec<PresetInfo> = vec![];
    for dir in dirs.iter().map(|d| d.as_path()).chain([Path::new("bots")]) {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        for f in files {
            let name = f
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            if out.iter().any(|p| p.name == name) {
                continue;
            }
            let spec = BotSpec::load(&f).map(|s| s.inline());
            out.push(PresetInfo {
                name,
                source: f.display().to_string(),
                spec,
            });
        }
    }
    for (name, text) in BUILTIN_PRESETS {
        if out.iter().any(|p| p.name == name) {
            continue;
        }
        out.push(PresetInfo {
            name: name.to_string(),
            source: "built-in".into(),
            spec: BotSpec::from_toml(text, name).map(|s| s.inline()),
        });
    }
    out
}

/// Keys whose inline values are always strings (never read as numbers or booleans).
const STRING_KEYS: [&str; 3] = ["name", "command", "dir"];

/// `key=value` as an inline spec writes it.
fn inline_item(k: &str, v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("{k}={s}"),
        v => format!("{k}={v}"),
    }
}

/// Inline engine options (`option.Hash=16`, one key with a dot) into the `option` table a preset writes
/// (`[option]` / `option.Hash = 16`).
/// The error, with its line and column, of a preset's lists of numbers (`values`, `squares`) that are not
/// numbers: the table the bots are read from has lost the places.
fn locate_numbers(text: &str) -> Option<String> {
    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Numbers {
        values: Option<Vec<f64>>,
        squares: Option<Vec<Vec<f64>>>,
    }
    toml::from_str::<Numbers>(text).err().map(|e| e.to_string())
}

fn fold_options(table: &mut toml::Table) -> Result<(), String> {
    let dotted: Vec<String> = table
        .keys()
        .filter(|k| k.starts_with("option."))
        .cloned()
        .collect();
    for k in dotted {
        let v = table.remove(&k).unwrap_or(toml::Value::Boolean(false));
        let name = &k["option.".len()..];
        if name.is_empty() {
            return Err(format!("`{k}` names no option"));
        }
        let options = table
            .entry("option")
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let toml::Value::Table(options) = options else {
            return Err("`option` must be a table of engine options".into());
        };
        if options.insert(name.to_string(), v).is_some() {
            return Err(format!("option `{name}` is given twice"));
        }
    }
    Ok(())
}

impl BotSpec {
    /// A preset's text; `default_name` is used when it sets no `name`.
    pub fn from_toml(text: &str, default_name: &str) -> Result<BotSpec, String> {
        let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        Self::from_table(table, default_name).map_err(|e| locate_numbers(text).unwrap_or(e))
    }

    fn from_table(mut table: toml::Table, default_name: &str) -> Result<BotSpec, String> {
        fold_options(&mut table)?;
        match table.get("kind") {
            None => {
                return Err(format!(
                    "the bot has no `kind`; kinds are {}",
                    KINDS.join(", ")
                ))
            }
            Some(toml::Value::String(k)) if !KINDS.contains(&k.as_str()) => {
                return Err(format!(
                    "unknown bot kind `{k}`; kinds are {}",
                    KINDS.join(", ")
                ))
            }
            _ => {}
        }
        let mut spec: BotSpec = toml::Value::Table(table)
            .try_into()
            .map_err(|e: toml::de::Error| e.message().to_string())?;
        if spec.name_field().is_none() {
            *spec.name_field() = Some(default_name.to_string());
        }
        spec.validate()?;
        Ok(spec)
    }

    /// Reads a preset file; its name defaults to the file stem.
    pub fn load(path: &Path) -> Result<BotSpec, String> {
        let text = crate::lang::read_settings(path)
            .map_err(|e| format!("cannot read bot preset `{}`: {e}", path.display()))?;
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("bot");
        Self::from_toml(&text, stem).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// An inline spec: `kind` or `kind:key=value,key=value`.
    pub fn parse_inline(text: &str) -> Result<BotSpec, String> {
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let mut table = toml::Table::new();
        table.insert("kind".into(), toml::Value::String(kind.trim().to_string()));
        for item in rest.split(',').filter(|s| !s.trim().is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("bot `{text}`: `{item}` is not key=value"))?;
            let (k, v) = (k.trim(), v.trim());
            let value = if STRING_KEYS.contains(&k) {
                toml::Value::String(v.to_string())
            } else {
                // Numbers, booleans and arrays as TOML; anything else is a string.
                toml::from_str::<toml::Table>(&format!("v = {v}"))
                    .ok()
                    .and_then(|mut t| t.remove("v"))
                    .unwrap_or_else(|| toml::Value::String(v.to_string()))
            };
            if table.insert(k.to_string(), value).is_some() {
                return Err(format!("bot `{text}`: `{k}` is given twice"));
            }
        }
        Self::from_table(table, text).map_err(|e| format!("bot `{text}`: {e}"))
    }

    /// What a command line names: a preset file (`bots/mcts-1k.toml`), a preset by name (`mcts-1k`), or an
    /// inline spec (`mcts:iterations=500`). A name is looked up in `./bots/`, then among the built-in presets.
    pub fn resolve(arg: &str) -> Result<BotSpec, String> {
        Self::resolve_in(arg, &[])
    }

    /// As [`BotSpec::resolve`], with preset folders searched before `./bots/` (`--bots-dir`).
    pub fn resolve_in(arg: &str, dirs: &[std::path::PathBuf]) -> Result<BotSpec, String> {
        let path = Path::new(arg);
        if path.is_file() || arg.ends_with(".toml") {
            return Self::load(path);
        }
        if !arg.contains(':') {
            for dir in dirs.iter().map(|d| d.as_path()).chain([Path::new("bots")]) {
                let preset = dir.join(format!("{arg}.toml"));
                if preset.is_file() {
                    return Self::load(&preset);
                }
            }
            if let Some((name, text)) = BUILTIN_PRESETS.iter().find(|(n, _)| *n == arg) {
                return Self::from_toml(text, name)
                    .map_err(|e| format!("built-in preset `{name}`: {e}"));
            }
            if !KINDS.contains(&arg.trim()) {
                return Err(unknown_bot(arg, dirs));
            }
        }
        Self::parse_inline(arg)
    }

    fn name_field(&mut self) -> &mut Option<String> {
        match self {
            BotSpec::Random(c) => &mut c.name,
            BotSpec::Alphabeta(c) => &mut c.name,
            BotSpec::Mcts(c) => &mut c.name,
            BotSpec::External(c) => &mut c.name,
            BotSpec::Uci(c) | BotSpec::Usi(c) | BotSpec::Ucci(c) => &mut c.name,
            BotSpec::Gtp(c) => &mut c.name,
            BotSpec::Xboard(c) => &mut c.name,
            BotSpec::Auto(c) => &mut c.name,
        }
    }

    /// The settings as an inline spec (`mcts:iterations=1000,playout_plies=200`), without the name.
    pub fn inline(&self) -> String {
        let Ok(table) = toml::Table::try_from(self) else {
            return self.name();
        };
        let kind = table
            .get("kind")
            .and_then(|k| k.as_str())
            .unwrap_or("bot")
            .to_string();
        let items: Vec<String> = table
            .iter()
            .filter(|(k, _)| *k != "kind" && *k != "name")
            .flat_map(|(k, v)| match v {
                // Engine options: `option.Hash=16`.
                toml::Value::Table(t) => t
                    .iter()
                    .map(|(o, v)| inline_item(&format!("{k}.{o}"), v))
                    .collect(),
                v => vec![inline_item(k, v)],
            })
            .collect();
        if items.is_empty() {
            kind
        } else {
            format!("{kind}:{}", items.join(","))
        }
    }

    /// The bot's own clock keys (`tc`, `st`, `timemargin`); the random bot has none.
    pub fn clock_keys(&self) -> crate::tournament::clock::ClockKeys {
        use crate::tournament::clock::ClockKeys;
        let k = |tc: &Option<String>, st: &Option<f64>, m: &Option<u64>| ClockKeys {
            tc: tc.clone(),
            st: *st,
            timemargin: *m,
        };
        match self {
            BotSpec::Random(_) => ClockKeys::default(),
            BotSpec::Alphabeta(c) => k(&c.tc, &c.st, &c.timemargin),
            BotSpec::Mcts(c) => k(&c.tc, &c.st, &c.timemargin),
            BotSpec::External(c) => k(&c.tc, &c.st, &c.timemargin),
            BotSpec::Uci(c) | BotSpec::Usi(c) | BotSpec::Ucci(c) => k(&c.tc, &c.st, &c.timemargin),
            BotSpec::Gtp(c) => k(&c.tc, &c.st, &c.timemargin),
            BotSpec::Xboard(c) => k(&c.tc, &c.st, &c.timemargin),
            BotSpec::Auto(c) => k(&c.tc, &c.st, &c.timemargin),
        }
    }

    /// The bot's own clock, if its keys give one.
    pub fn clock(&self) -> Result<Option<crate::tournament::clock::ClockSpec>, String> {
        crate::tournament::clock::ClockSpec::of(&self.clock_keys())
    }

    /// The bot's name.
    pub fn name(&self) -> String {
        let n = match self {
            BotSpec::Random(c) => &c.name,
            BotSpec::Alphabeta(c) => &c.name,
            BotSpec::Mcts(c) => &c.name,
            BotSpec::External(c) => &c.name,
            BotSpec::Uci(c) | BotSpec::Usi(c) | BotSpec::Ucci(c) => &c.name,
            BotSpec::Gtp(c) => &c.name,
            BotSpec::Xboard(c) => &c.name,
            BotSpec::Auto(c) => &c.name,
        };
        n.clone().unwrap_or_else(|| self.kind().to_string())
    }

    pub fn kind(&self) -> &'static str {
        match self {
            BotSpec::Random(_) => "random",
            BotSpec::Alphabeta(_) => "alphabeta",
            BotSpec::Mcts(_) => "mcts",
            BotSpec::External(_) => "external",
            BotSpec::Uci(_) => "uci",
            BotSpec::Usi(_) => "usi",
            BotSpec::Ucci(_) => "ucci",
            BotSpec::Gtp(_) => "gtp",
            BotSpec::Xboard(_) => "xboard",
            BotSpec::Auto(_) => "auto",
        }
    }

    fn validate(&self) -> Result<(), String> {
        let bad = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        self.clock()?;
        match self {
            BotSpec::Random(_) => Ok(()),
            BotSpec::Alphabeta(c) => {
                bad((1..=64).contains(&c.depth), "`depth` must be from 1 to 64")?;
                bad(c.nodes != Some(0), "`nodes` must be at least 1")?;
                bad(c.time_ms != Some(0), "`time_ms` must be at least 1")?;
                bad(
                    (1..=4096).contains(&c.tt_mb),
                    "`tt_mb` must be from 1 to 4096",
                )?;
                bad(
                    c.material.is_finite() && c.mobility.is_finite(),
                    "weights must be finite numbers",
                )
            }
            BotSpec::Mcts(c) => {
                bad(c.iterations >= 1, "`iterations` must be at least 1")?;
                bad(c.time_ms != Some(0), "`time_ms` must be at least 1")?;
                bad(
                    c.exploration.is_finite() && c.exploration >= 0.0,
                    "`exploration` must be a number >= 0",
                )?;
                bad(
                    (0.0..=1.0).contains(&c.mast_epsilon),
                    "`mast_epsilon` must be from 0 to 1",
                )?;
                bad(
                    c.mast_tau.is_none_or(|t| t.is_finite() && t > 0.0),
                    "`mast_tau` must be a number > 0",
                )?;
                bad((1..=8).contains(&c.nst_n), "`nst_n` must be from 1 to 8")?;
                bad(
                    c.grave_bias.is_finite() && c.grave_bias >= 0.0,
                    "`grave_bias` must be a number >= 0",
                )?;
                bad(
                    c.progressive_history.is_finite() && c.progressive_history >= 0.0,
                    "`progressive_history` must be a number >= 0",
                )?;
                bad(
                    c.progressive_bias.is_finite() && c.progressive_bias >= 0.0,
                    "`progressive_bias` must be a number >= 0",
                )?;
                bad(
                    (1..=256).contains(&c.threads),
                    "`threads` must be from 1 to 256",
                )?;
                bad(
                    c.material.is_finite() && c.mobility.is_finite(),
                    "weights must be finite numbers",
                )
            }
            BotSpec::External(c) => {
                bad(
                    c.command.split_whitespace().next().is_some(),
                    "an external bot needs a `command`, e.g. `python3 bots/examples/random_bot.py`",
                )?;
                bad(c.time_ms >= 1, "`time_ms` must be at least 1")
            }
            BotSpec::Uci(c) | BotSpec::Usi(c) | BotSpec::Ucci(c) => c.validate(),
            BotSpec::Gtp(c) => c.validate(),
            BotSpec::Xboard(c) => c.validate(),
            BotSpec::Auto(c) => {
                bad(c.iterations >= 1, "`iterations` must be at least 1")?;
                bad((1..=64).contains(&c.depth), "`depth` must be from 1 to 64")?;
                bad(c.nodes != Some(0), "`nodes` must be at least 1")?;
                bad(c.time_ms != Some(0), "`time_ms` must be at least 1")?;
                bad(
                    c.ab_max_branching.is_finite() && c.ab_max_branching >= 0.0,
                    "`ab_max_branching` must be a number >= 0",
                )
            }
        }
    }

    /// Whether the bot has a limit for each move: engines over UCI/USI need `nodes`, `depth` or `movetime`
    /// unless they play on a clock (`on_clock`: theirs or the tournament's).
    pub fn check_limits(&self, on_clock: bool) -> Result<(), String> {
        match self {
            BotSpec::Uci(c) | BotSpec::Usi(c) | BotSpec::Ucci(c) if !on_clock => c
                .check_limits()
                .map_err(|e| format!("bot `{}`: {e}, or a clock (`tc`, `st`)", self.name())),
            BotSpec::Xboard(c) if !on_clock => c
                .check_limits()
                .map_err(|e| format!("bot `{}`: {e}, or a clock (`tc`, `st`)", self.name())),
            _ => Ok(()),
        }
    }

    /// A new bot with these settings.
    pub fn build(&self) -> Result<Box<dyn Bot>, String> {
        self.validate()?;
        let name = self.name();
        Ok(match self {
            BotSpec::Random(_) => Box::new(RandomBot::new(name)),
            BotSpec::Alphabeta(c) => Box::new(AlphaBetaBot::new(name, c.clone())),
            BotSpec::Mcts(c) => Box::new(MctsBot::new(name, c.clone())),
            BotSpec::External(c) => Box::new(ExternalBot::new(name, c.clone())?),
            BotSpec::Uci(c) => Box::new(UciBot::new(name, c.clone())?),
            BotSpec::Usi(c) => Box::new(UciBot::usi(name, c.clone())?),
            BotSpec::Ucci(c) => Box::new(UciBot::ucci(name, c.clone())?),
            BotSpec::Gtp(c) => Box::new(GtpBot::new(name, c.clone())?),
            BotSpec::Xboard(c) => Box::new(XboardBot::new(name, c.clone())?),
            BotSpec::Auto(c) => Box::new(AutoBot::new(name, c.clone())),
        })
    }

    /// Whether the bot can play `game`: the protocol adapters need the game in their notation (UCI: FEN and
    /// long algebraic moves; GTP: vertices on a square board). The error names what is missing. Checked
    /// before a run starts, so a bot that cannot play is refused before the first game.
    pub fn check_game(&self, game: &crate::compile::Game) -> Result<(), String> {
        use super::protocol::notation::{ChessNotation, GoNotation, ShogiNotation};
        let r = match self {
            BotSpec::Uci(_) => ChessNotation::of(game).map(|_| ()),
            BotSpec::Usi(_) => ShogiNotation::of(game).map(|_| ()),
            BotSpec::Ucci(_) => ChessNotation::of(game).map(|_| ()),
            BotSpec::Gtp(_) => GoNotation::of(game).map(|_| ()),
            BotSpec::Xboard(_) => super::protocol::xboard::Notation::of(game).map(|_| ()),
            _ => Ok(()),
        };
        r.map_err(|e| format!("bot `{}` ({}) cannot play: {e}", self.name(), self.kind()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_specs() {
        let s =
            BotSpec::parse_inline("mcts:iterations=500,eval_at_cap=true,exploration=0.7").unwrap();
        let BotSpec::Mcts(c) = &s else {
            panic!("{s:?}")
        };
        assert_eq!(
            (c.iterations, c.eval_at_cap, c.exploration),
            (500, true, 0.7)
        );
        assert_eq!(c.playout_plies, MctsConfig::default().playout_plies);
        assert_eq!(
            s.name(),
            "mcts:iterations=500,eval_at_cap=true,exploration=0.7"
        );
        let s = BotSpec::parse_inline("random").unwrap();
        assert_eq!(
            s,
            BotSpec::Random(RandomConfig {
                name: Some("random".into())
            })
        );
        let s = BotSpec::parse_inline("alphabeta:depth=2,name=ab2").unwrap();
        assert_eq!(s.name(), "ab2");
        let s = BotSpec::parse_inline("external:command=python3 x.py,time_ms=50,name=7").unwrap();
        let BotSpec::External(c) = &s else { panic!() };
        assert_eq!((c.command.as_str(), c.time_ms), ("python3 x.py", 50));
        assert_eq!(s.name(), "7");
    }

    /// A misspelled preset used to be reported as an unknown kind; now the message names the closest preset
    /// and `dagaz bots`.
    #[test]
    fn a_misspelled_preset_names_the_closest_one() {
        let e = BotSpec::resolve("mcts-1kk").unwrap_err();
        assert!(
            e.contains("did you mean `mcts-1k`?") && e.contains("dagaz bots"),
            "{e}"
        );
        let e = BotSpec::resolve("alphabeta3").unwrap_err();
        assert!(e.contains("did you mean `alphabeta-3`?"), "{e}");
        let e = BotSpec::resolve("zzzzzzzz").unwrap_err();
        assert!(
            !e.contains("did you mean") && e.contains("dagaz bots"),
            "{e}"
        );
        // A kind alone is still a bot.
        assert!(BotSpec::resolve("mcts").is_ok());
    }

    #[test]
    fn mcts_enhancement_keys() {
        // Defaults are left out of the inline form: existing presets read as before.
        let s = BotSpec::parse_inline("mcts:iterations=500").unwrap();
        assert_eq!(
            s.inline(),
            "mcts:eval_at_cap=false,exploration=1.0,iterations=500,material=1.0,mobility=0.05,playout_plies=200"
        );
        let s = BotSpec::parse_inline(
            "mcts:solver=true,final=max,reuse=true,rollout=mast,mast_epsilon=0.2,mast_tau=0.5,decisive=true",
        )
        .unwrap();
        let BotSpec::Mcts(c) = &s else { panic!() };
        assert!(c.solver && c.reuse && c.decisive);
        assert_eq!(c.final_move, super::super::mcts::FinalMove::Max);
        assert_eq!(c.rollout, super::super::mcts::RolloutPolicy::Mast);
        assert_eq!((c.mast_epsilon, c.mast_tau), (0.2, Some(0.5)));
        let back = BotSpec::parse_inline(&s.inline()).unwrap();
        assert_eq!(back.inline(), s.inline());
        let s = BotSpec::parse_inline(
            "mcts:rollout=nst,nst_n=3,grave=50,grave_bias=0.001,progressive_history=3,progressive_bias=2,playout_cutoff=20,threads=2",
        )
        .unwrap();
        let BotSpec::Mcts(c) = &s else { panic!() };
        assert_eq!(c.rollout, super::super::mcts::RolloutPolicy::Nst);
        assert_eq!(
            (c.nst_n, c.grave, c.playout_cutoff, c.threads),
            (3, 50, 20, 2)
        );
        assert_eq!(
            (c.grave_bias, c.progressive_history, c.progressive_bias),
            (0.001, 3.0, 2.0)
        );
        assert!(c.uses_eval());
        let back = BotSpec::parse_inline(&s.inline()).unwrap();
        assert_eq!(back.inline(), s.inline());
        for (bad, key) in [
            ("mcts:final=best", "final"),
            ("mcts:rollout=ngram", "rollout"),
            ("mcts:nst_n=0", "nst_n"),
            ("mcts:threads=0", "threads"),
            ("mcts:progressive_bias=-1", "progressive_bias"),
            ("mcts:progressive_history=nan", "progressive_history"),
            ("mcts:grave_bias=-1", "grave_bias"),
            ("mcts:mast_epsilon=2", "mast_epsilon"),
            ("mcts:mast_tau=0", "mast_tau"),
        ] {
            let e = BotSpec::parse_inline(bad).unwrap_err();
            assert!(
                e.contains(key) || e.contains("unknown variant"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn errors_name_the_valid_choices() {
        let e = BotSpec::parse_inline("minimax:depth=3").unwrap_err();
        assert!(
            e.contains("unknown bot kind `minimax`") && e.contains("alphabeta, mcts"),
            "{e}"
        );
        let e = BotSpec::parse_inline("alphabeta:dept=3").unwrap_err();
        assert!(
            e.contains("unknown field `dept`") && e.contains("`depth`"),
            "{e}"
        );
        let e = BotSpec::parse_inline("mcts:iterations=lots").unwrap_err();
        assert!(
            e.contains("iterations") || e.contains("invalid type"),
            "{e}"
        );
        let e = BotSpec::parse_inline("alphabeta:depth").unwrap_err();
        assert!(e.contains("not key=value"), "{e}");
        let e = BotSpec::parse_inline("alphabeta:depth=0").unwrap_err();
        assert!(e.contains("depth"), "{e}");
        let e = BotSpec::parse_inline("external").unwrap_err();
        assert!(e.contains("command"), "{e}");
        let e = BotSpec::from_toml("depth = 3", "x").unwrap_err();
        assert!(e.contains("no `kind`"), "{e}");
        let e = BotSpec::resolve("bots/none-such.toml").unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }

    #[test]
    fn every_preset_loads_and_builds() {
        let mut names = vec![];
        for entry in std::fs::read_dir("bots").unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let spec = BotSpec::load(&path).unwrap();
                let bot = spec
                    .build()
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert_eq!(bot.name(), path.file_stem().unwrap().to_str().unwrap());
                names.push(spec.name());
            }
        }
        names.sort();
        for want in [
            "alphabeta-3",
            "alphabeta-5",
            "mcts-10k",
            "mcts-1k",
            "mcts-plus",
            "mcts-auto",
            "random",
        ] {
            assert!(
                names.iter().any(|n| n == want),
                "missing preset {want}: {names:?}"
            );
        }
        // A preset by its name, as the command line allows.
        assert_eq!(
            BotSpec::resolve("alphabeta-3").unwrap().name(),
            "alphabeta-3"
        );
    }
}
