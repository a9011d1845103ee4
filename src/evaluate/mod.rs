//! `dagaz evaluate` and `dagaz sweep`: the rule designer's workbench. Every rule set (a variant of a file) is
//! played by the tournament runner itself, in *batches*: batch b is one tournament run (`sets/<set>/batch-b/`,
//! a run folder like any other) of the stronger bot against a copy of itself (self-play: the balance
//! measures) and against the weaker bot (skill dependence), in gauntlet format, with the seed `seed + b`.
//! After each batch the measures are computed from all batches' games ([`measures::measure`]); the rule set
//! stops once every interval `--precision` names is narrow enough, or at `--max-games` self-play games. A
//! batch's games do not depend on `--jobs`, so neither do the stopping point and the numbers; a stopped
//! evaluation resumes batch by batch (`--resume`), and `--shard K/N` plays the rule sets whose index is K − 1
//! modulo N, which `dagaz merge` puts together.
//!
//! The files: `evaluation.csv` (a row per rule set: [`header`]), `differences.csv` (rule sets of the same file
//! compared two by two), `evaluation.html` ([`html`]), `settings.json` (what shaped the numbers, checked on
//! `--resume` and by the merge) and per rule set `sets/<set>/row.json`.

pub mod html;
pub mod measures;
pub mod sweep;

use crate::tournament::budget::{CpuBudget, Meter};
use crate::tournament::config::{BotConfig, Format, Shard, TournamentConfig};
use crate::tournament::runner::run_limited;
use crate::tournament::writers::RunFiles;
use crate::tournament::{GameRecord, Progress, RunOptions};
use measures::{Est, Measures};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What shapes an evaluation's numbers (`settings.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub version: String,
    /// The rule sets: a file and its variant (`None`: the file could not be read), with the sweep's
    /// parameter values.
    pub sets: Vec<SetSpec>,
    /// The stronger bot (self-play) and the weaker one, as given.
    pub strong: String,
    pub weak: String,
    /// Games per encounter per batch (rounded up to whole pairs by the runner).
    pub batch: u64,
    /// Self-play games at most per rule set.
    pub max_games: u64,
    /// `--precision`: measure name and the widest 95% interval wanted.
    pub precision: Vec<(String, f64)>,
    pub seed: u64,
    pub max_plies: u32,
    pub opening_plies: u32,
    pub allow_missing_rules: bool,
    /// Sweep parameter names (columns of the CSV).
    pub params: Vec<String>,
    /// Set only in a shard's folder.
    pub shard: Option<Shard>,
    /// `--time-limit`: the CPU seconds a rule set may use (`None`: no limit).
    #[serde(default)]
    pub time_limit: Option<f64>,
}

/// One rule set to evaluate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetSpec {
    /// The file as given (or found in a folder).
    pub file: String,
    /// The file played (a sweep's written copy; else the same as `file`).
    pub play: String,
    /// Variant number (1-based), or `None` when the file's variants could not be listed.
    pub variant: Option<String>,
    /// Why the file cannot be played at all (it could not be read), found while listing.
    pub error: Option<String>,
    /// Sweep values, in the order of [`Settings::params`].
    pub values: Vec<String>,
}

/// One rule set's result (`row.json`, and a row of `evaluation.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub index: usize,
    pub file: String,
    pub variant: String,
    pub title: String,
    pub values: Vec<String>,
    /// Why it could not be played, if it could not.
    pub reason: Option<String>,
    /// The CSV cells from `games` on (see [`header`]).
    pub cells: Vec<String>,
    pub flags: Vec<String>,
    /// The tournament measures of its self-play games (for `differences.csv`).
    pub rule_set: Option<crate::tournament::stats::RuleSetMeasures>,
    /// First-player advantage with its interval (for the page's chart).
    pub first_player: Option<(f64, f64, f64)>,
    /// Its first batch's `report.html`, relative to the evaluation's folder.
    pub report: Option<String>,
}

/// The measures with an interval, in CSV column order (`NAME`, `NAME_lo`, `NAME_hi`).
pub const INTERVAL_COLUMNS: [&str; 16] = [
    "first_player",
    "balance",
    "completion",
    "drawishness",
    "timeouts",
    "length",
    "length_q1",
    "length_median",
    "length_q3",
    "branching",
    "decisiveness",
    "drama",
    "lead_change",
    "uniformity",
    "skill",
    "seat_1",
];

/// `evaluation.csv`'s header for the sweep parameters `params`.
pub fn header(params: &[String]) -> Vec<String> {
    let mut h: Vec<String> = ["file", "variant", "title"].map(String::from).to_vec();
    h.extend(params.iter().cloned());
    h.extend(["status", "reason", "games", "skill_games", "seats"].map(String::from));
    for c in &INTERVAL_COLUMNS[..15] {
        h.push(c.to_string());
        h.push(format!("{c}_lo"));
        h.push(format!("{c}_hi"));
    }
    h.extend(
        [
            "seat_scores",
            "ends",
            "balance_test",
            "balance_p",
            "flags",
            "stopped",
            "seeds",
            "report",
        ]
        .map(String::from),
    );
    h
}

fn num(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:.4}")
    }
}

fn est_cells(e: Option<Est>) -> [String; 3] {
    match e {
        Some(e) => [num(e.value), num(e.lo), num(e.hi)],
        None => Default::default(),
    }
}

fn show(e: &Est) -> String {
    format!("{} [{}, {}]", num(e.value), num(e.lo), num(e.hi))
}

/// The flags of a rule set's measures, each with the evidence it rests on.
pub fn flags(m: &Measures) -> Vec<String> {
    let mut f = vec![];
    if m.balance_test.p < 0.05 {
        f.push(format!("unbalanced (p = {:.4})", m.balance_test.p));
    }
    if m.drawishness.lo > 0.5 {
        f.push("drawish".into());
    }
    if m.completion.hi < 0.5 {
        f.push("rarely finishes".into());
    }
    if m.timeouts.lo > 0.1 {
        f.push("too long".into());
    }
    f
}

/// A rule set's cells from `games` to `report` (see [`header`]).
fn cells(m: &Measures, stopped: &str, seeds: &str, report: &str) -> Vec<String> {
    let mut c = vec![
        m.games.to_string(),
        m.skill_games.to_string(),
        m.seats.to_string(),
    ];
    for e in [
        Some(m.first_player()),
        Some(m.balance),
        Some(m.completion),
        Some(m.drawishness),
        Some(m.timeouts),
        Some(m.length),
        Some(m.length_q1),
        Some(m.length_median),
        Some(m.length_q3),
        m.branching,
        m.decisiveness,
        m.drama,
        m.lead_change,
        Some(m.uniformity),
        m.skill,
    ] {
        c.extend(est_cells(e));
    }
    c.push(
        m.seat_scores
            .iter()
            .map(show)
            .collect::<Vec<_>>()
            .join("; "),
    );
    c.push(
        m.ends
            .iter()
            .map(|(l, n, e)| format!("{l}: {n} ({})", show(e)))
            .collect::<Vec<_>>()
            .join("; "),
    );
    c.push(m.balance_test.test.to_string());
    c.push(format!("{:.6}", m.balance_test.p));
    c.push(flags(m).join("; "));
    c.push(stopped.to_string());
    c.push(seeds.to_string());
    c.push(report.to_string());
    c
}

/// The rule sets of the paths: a folder's `.zrf` files (recursively, sorted), a file's every variant, or
/// `FILE:VARIANT`. A file that cannot be read is one set with its error.
pub fn list_sets(paths: &[String]) -> Result<Vec<SetSpec>, String> {
    let mut sets = vec![];
    for p in paths {
        let path = Path::new(p);
        if path.is_dir() {
            let mut files = vec![];
            collect_zrf(path, &mut files)?;
            files.sort();
            for f in files {
                sets.extend(variants_of(&f.to_string_lossy(), None));
            }
        } else if path.exists() {
            sets.extend(variants_of(p, None));
        } else if let Some((f, v)) = p.rsplit_once(':').filter(|(f, _)| Path::new(f).is_file()) {
            sets.extend(variants_of(f, Some(v)));
        } else {
            return Err(format!("`{p}`: no such file or folder"));
        }
    }
    Ok(sets)
}

fn collect_zrf(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for e in entries {
        let p = e.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if p.is_dir() {
            collect_zrf(&p, out)?;
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
            out.push(p);
        }
    }
    Ok(())
}

/// The variants of one file as sets (`only`: one variant by number or title).
pub fn variants_of(file: &str, only: Option<&str>) -> Vec<SetSpec> {
    let set = |variant: Option<String>, error: Option<String>| SetSpec {
        file: file.to_string(),
        play: file.to_string(),
        variant,
        error,
        values: vec![],
    };
    let bytes = match crate::lang::read_capped(Path::new(file), crate::lang::MAX_FILE_BYTES) {
        Ok(b) => b,
        Err(e) => {
            return vec![set(
                None,
                Some(format!("{LOAD_ERROR} cannot read `{file}`: {e}")),
            )]
        }
    };
    let dir = Path::new(file)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    let read = crate::lang::read_bytes(file, bytes, &dir);
    if read.has_errors() {
        let errors: Vec<_> = read
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        let text = crate::lang::diag::render_all(&errors, &read.sources);
        return vec![set(None, Some(load_error(&text)))];
    }
    if read.games.is_empty() {
        return vec![set(
            None,
            Some(format!("{LOAD_ERROR} {file} holds no game")),
        )];
    }
    match only {
        Some(v) => vec![set(Some(v.to_string()), None)],
        None => read
            .games
            .iter()
            .map(|g| set(Some(g.number.to_string()), None))
            .collect(),
    }
}

/// How a `reason` begins when the file or variant could not be read or compiled (an Axiom engine's rules
/// included). The other reasons begin with [`MISSING_RULES`] or [`ENGINE_ERROR`].
pub const LOAD_ERROR: &str = "load error:";
/// How a `reason` begins when the rule set asks for rules the engine does not apply.
pub const MISSING_RULES: &str = "missing rules:";
/// How a `reason` begins when it loaded but no game could be measured (each ended in an engine error).
pub const ENGINE_ERROR: &str = "engine error:";
/// How a `reason` begins when the rule set used up its `--time-limit`. Its row keeps the measures of the
/// batches it finished, if any (status `time limit`); the games of the batch it was cut in are dropped.
pub const TIME_LIMIT: &str = "time limit:";

/// A load error's text as a reason: [`LOAD_ERROR`], then the diagnostics on one line (their own leading
/// `error: ` dropped).
fn load_error(text: &str) -> String {
    let line = one_line(text);
    format!(
        "{LOAD_ERROR} {}",
        line.strip_prefix("error: ").unwrap_or(&line)
    )
}

/// An error on one line (for a CSV cell): lines joined with ` | `, blank ones dropped.
pub fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// How to run (none of it changes the numbers).
#[derive(Clone, Debug)]
pub struct RunHow {
    pub out: PathBuf,
    pub jobs: usize,
    pub resume: bool,
    pub quiet: bool,
    pub bots_dirs: Vec<PathBuf>,
    pub extensions: Vec<String>,
}

/// The bots of a batch for a game of `seats` seats: `seats` copies of the stronger bot (the first under its
/// own name, the others `NAME-2`, ...) and the weaker bot.
pub fn bots_for(s: &Settings, seats: usize, dirs: &[PathBuf]) -> Result<Vec<BotConfig>, String> {
    let strong = BotConfig::Name(s.strong.clone()).resolve_in(dirs)?;
    let weak = BotConfig::Name(s.weak.clone()).resolve_in(dirs)?;
    let name = strong.name();
    if weak.name() == name {
        return Err(format!(
            "the stronger and the weaker bot are both named `{name}`; give the weaker one a `name=...`"
        ));
    }
    let mut bots = vec![BotConfig::from_spec(&strong)];
    for i in 2..=seats.max(2) {
        let mut c = BotConfig::from_spec(&strong);
        if let BotConfig::Table(t) = &mut c {
            t.insert("name".into(), toml::Value::String(format!("{name}-{i}")));
        } else {
            return Err(format!("`{name}` cannot be copied under another name"));
        }
        bots.push(c);
    }
    bots.push(BotConfig::from_spec(&weak));
    Ok(bots)
}

/// The seed of batch `b` (from 0) of rule set `index` (from 0): `seed + 1000003·index + b`, so that rule sets
/// play independent games (the tests that compare two rule sets assume independent samples).
pub fn batch_seed(seed: u64, index: usize, b: u64) -> u64 {
    seed.wrapping_add((index as u64).wrapping_mul(1_000_003))
        .wrapping_add(b)
}

/// The tournament settings of batch `b` of rule set `index` (what `dagaz tournament` takes to play the same
/// games: `--format gauntlet --record-evals`, the bots of [`bots_for`], the seed of [`batch_seed`]).
pub fn batch_config(
    s: &Settings,
    set: &SetSpec,
    index: usize,
    b: u64,
    bots: Vec<BotConfig>,
    how: &RunHow,
) -> TournamentConfig {
    TournamentConfig {
        game: set.play.clone(),
        variants: set.variant.iter().cloned().collect(),
        format: Format::Gauntlet,
        games: s.batch,
        seed: batch_seed(s.seed, index, b),
        max_plies: s.max_plies,
        opening_plies: s.opening_plies,
        allow_missing_rules: s.allow_missing_rules,
        record_evals: true,
        extensions: how.extensions.clone(),
        bots,
        bots_dirs: how.bots_dirs.clone(),
        ..TournamentConfig::default()
    }
}

/// Plays one rule set batch by batch until its intervals are narrow enough or it reaches `max_games`;
/// writes `row.json` in its folder and returns the row.
pub fn evaluate_set(s: &Settings, index: usize, how: &RunHow, jobs: usize) -> Result<Row, String> {
    let set = &s.sets[index];
    let dir = how.out.join("sets").join(set_dir_name(index, set));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut row = Row {
        index,
        file: set.file.clone(),
        variant: set.variant.clone().unwrap_or_default(),
        title: String::new(),
        values: set.values.clone(),
        reason: None,
        cells: vec![],
        flags: vec![],
        rule_set: None,
        first_player: None,
        report: None,
    };
    // A rule set its time limit stopped stays stopped on --resume: playing on would give it more time.
    if how.resume {
        if let Ok(text) = std::fs::read_to_string(dir.join("row.json")) {
            if let Ok(old) = serde_json::from_str::<Row>(&text) {
                if old
                    .reason
                    .as_deref()
                    .is_some_and(|r| r.starts_with(TIME_LIMIT))
                {
                    return Ok(old);
                }
            }
        }
    }
    let result = play_set(s, index, &dir, how, jobs, &mut row);
    if let Err(e) = result {
        row.reason = Some(one_line(&e));
    }
    let json = serde_json::to_string_pretty(&row).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("row.json"), json).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(row)
}

fn set_dir_name(index: usize, set: &SetSpec) -> String {
    let stem: String = Path::new(&set.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("{index:04}-{stem}")
}

fn play_set(
    s: &Settings,
    index: usize,
    dir: &Path,
    how: &RunHow,
    jobs: usize,
    row: &mut Row,
) -> Result<(), String> {
    let set = &s.sets[index];
    if let Some(e) = &set.error {
        return Err(e.clone());
    }
    let mut self_play: Vec<GameRecord> = vec![];
    let mut skill: Vec<GameRecord> = vec![];
    // The time limit: the CPU time of this thread (loading, reports) and of the games' threads, the finished
    // batches' from an earlier invocation included (`cpu-seconds`).
    let spent_file = dir.join("cpu-seconds");
    let budget = s.time_limit.map(|limit| {
        let spent = std::fs::read_to_string(&spent_file)
            .ok()
            .and_then(|t| t.trim().parse::<f64>().ok())
            .filter(|x| x.is_finite() && *x >= 0.0)
            .unwrap_or(0.0);
        std::sync::Arc::new(CpuBudget::new(
            std::time::Duration::from_secs_f64(limit),
            std::time::Duration::from_secs_f64(spent),
        ))
    });
    let mut meter = Meter::start();
    // The measures of the batches finished so far (what a time limit keeps).
    let mut kept: Option<Measures> = None;
    let mut b = 0u64;
    loop {
        let bdir = dir.join(format!("batch-{b}"));
        let done = bdir.join("batch.done");
        // A batch to play needs time left (a finished one is read back whatever the time).
        if let Some(budget) = &budget {
            if meter.charge(budget) && !done.exists() {
                let at = format!("after batch {b}");
                return time_limit(s, index, b, &at, kept.as_ref(), row);
            }
        }
        // Seats first, from the rule set itself: the bots depend on them.
        let probe = batch_config(s, set, index, b, vec![], how)
            .load_variants()
            .map_err(|e| load_error(&e))?;
        let seat_players = probe[0].seats();
        let seats = seat_players.len();
        // Partners (`allies`) are one side for the balance measures.
        let sides = measures::sides_of(&probe[0].game, &seat_players);
        row.title = probe[0].title.clone();
        let missing = crate::compile::missing::distinct(&probe[0].game.missing_rules);
        if !missing.is_empty() && !s.allow_missing_rules {
            return Err(format!(
                "{MISSING_RULES} {}",
                one_line(&crate::compile::missing::refusal(&set.file, &missing))
            ));
        }
        let bots = bots_for(s, seats, &how.bots_dirs)?;
        let weak = BotConfig::Name(s.weak.clone())
            .resolve_in(&how.bots_dirs)?
            .name();
        let t = batch_config(s, set, index, b, bots, how)
            .load()
            .map_err(|e| load_error(&e))?;
        let records = if done.exists() {
            RunFiles::new(&bdir, t.max_seats()).read_games()?
        } else {
            let resume = bdir.join("fingerprint.json").exists();
            if resume && !how.resume {
                return Err(format!(
                    "{} holds a run already; give --resume to go on with it",
                    bdir.display()
                ));
            }
            let outcome = run_limited(
                &t,
                &RunOptions {
                    out: bdir.clone(),
                    jobs,
                    progress: Progress::None,
                    resume,
                },
                budget.clone(),
            )?;
            if let Some(budget) = &budget {
                meter.charge(budget);
                if !outcome.summary.complete {
                    let at = format!(
                        "in batch {} after {} of its {} games",
                        b + 1,
                        outcome.summary.games,
                        outcome.summary.scheduled
                    );
                    return time_limit(s, index, b, &at, kept.as_ref(), row);
                }
            }
            let r = outcome.records()?;
            std::fs::write(&done, format!("{}\n", r.len()))
                .map_err(|e| format!("{}: {e}", done.display()))?;
            if let Some(budget) = &budget {
                let text = format!("{:.3}\n", budget.spent().as_secs_f64());
                std::fs::write(&spent_file, text)
                    .map_err(|e| format!("{}: {e}", spent_file.display()))?;
            }
            r
        };
        if b == 0 {
            row.report = Some(format!(
                "sets/{}/batch-0/report.html",
                dir.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
        for g in records {
            if g.bots.iter().any(|x| x == &weak) {
                skill.push(g);
            } else {
                self_play.push(g);
            }
        }
        let m = measures::measure_sides(&self_play, &skill, &weak, &sides).ok_or_else(|| {
            let first = self_play
                .iter()
                .chain(&skill)
                .map(|g| g.error.as_str())
                .find(|e| !e.is_empty())
                .unwrap_or("");
            format!(
                "{ENGINE_ERROR} no game could be measured (every game ended in an engine error){}",
                if first.is_empty() {
                    String::new()
                } else {
                    format!("; the first: {first}")
                }
            )
        })?;
        let narrow = !s.precision.is_empty()
            && s.precision
                .iter()
                .all(|(name, w)| m.by_name(name).is_some_and(|e| e.width() <= *w));
        let full = m.games as u64 >= s.max_games;
        if narrow || full || self_play.is_empty() {
            let stopped = if narrow {
                format!("precision after {} batches", b + 1)
            } else {
                format!("max-games after {} batches", b + 1)
            };
            let seeds = format!(
                "{}..={}",
                batch_seed(s.seed, index, 0),
                batch_seed(s.seed, index, b)
            );
            row.cells = cells(&m, &stopped, &seeds, row.report.as_deref().unwrap_or(""));
            row.flags = flags(&m);
            row.rule_set = m.rule_set();
            let fp = m.first_player();
            row.first_player = Some((fp.value, fp.lo, fp.hi));
            return Ok(());
        }
        kept = Some(m);
        b += 1;
    }
}

/// A rule set that used up its time limit `at` some point, after `batches` finished batches whose measures
/// are `kept`: the row keeps those (the games of a batch cut short are dropped: which of them finished in
/// time depends on their length, so they are not a fair sample); with none, the reason is all it holds.
fn time_limit(
    s: &Settings,
    index: usize,
    batches: u64,
    at: &str,
    kept: Option<&Measures>,
    row: &mut Row,
) -> Result<(), String> {
    let limit = s.time_limit.unwrap_or(0.0);
    let mut reason = format!("{TIME_LIMIT} {limit} s of CPU used up {at}");
    let Some(m) = kept else {
        reason.push_str("; no batch finished, so nothing is measured");
        return Err(reason);
    };
    reason.push_str(&format!(
        "; kept: the measures of batch{} 1{} ({} self-play games)",
        if batches == 1 { "" } else { "es" },
        if batches == 1 {
            String::new()
        } else {
            format!("-{batches}")
        },
        m.games
    ));
    let stopped = format!("time limit after {batches} batches");
    let seeds = format!(
        "{}..={}",
        batch_seed(s.seed, index, 0),
        batch_seed(s.seed, index, batches - 1)
    );
    row.cells = cells(m, &stopped, &seeds, row.report.as_deref().unwrap_or(""));
    row.flags = flags(m);
    row.flags.push(reason.clone());
    row.rule_set = m.rule_set();
    let fp = m.first_player();
    row.first_player = Some((fp.value, fp.lo, fp.hi));
    row.reason = Some(reason);
    Ok(())
}

/// `evaluation.csv`, `differences.csv` and `evaluation.html` from the rows (in index order).
pub fn write_outputs(out: &Path, s: &Settings, rows: &[Row]) -> Result<(), String> {
    let mut csv = crate::tournament::text::csv_line(&header(&s.params));
    let width = header(&s.params).len();
    for r in rows {
        let mut line = vec![r.file.clone(), r.variant.clone(), r.title.clone()];
        line.extend(r.values.iter().cloned());
        match &r.reason {
            Some(e) if e.starts_with(TIME_LIMIT) => {
                line.push("time limit".into());
                line.push(e.clone());
                line.extend(r.cells.iter().cloned());
            }
            Some(e) => {
                line.push("error".into());
                line.push(e.clone());
            }
            None => {
                line.push("ok".into());
                line.push(String::new());
                line.extend(r.cells.iter().cloned());
            }
        }
        line.resize(width, String::new());
        csv.extend(crate::tournament::text::csv_line(&line));
    }
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(out.join(name), bytes)
            .map_err(|e| format!("{}: {e}", out.join(name).display()))
    };
    write("evaluation.csv", &csv)?;
    write("differences.csv", &differences_csv(rows))?;
    write("evaluation.html", html::page(s, rows).as_bytes())?;
    Ok(())
}

/// The rule sets of one file (a sweep's: one source file) compared two by two with the tests of "Do the
/// variants differ?": first-player advantage, draw rate, decisiveness, length, each with its p-value.
pub fn differences_csv(rows: &[Row]) -> Vec<u8> {
    let mut out = crate::tournament::text::csv_line(&[
        "file", "a", "b", "measure", "a_value", "b_value", "p", "differs",
    ]);
    let name = |r: &Row| {
        let mut n = format!("{} #{}", r.title, r.variant);
        for v in &r.values {
            n.push_str(&format!(" {v}"));
        }
        n
    };
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            if a.file != b.file {
                continue;
            }
            let (Some(ma), Some(mb)) = (&a.rule_set, &b.rule_set) else {
                continue;
            };
            for c in crate::tournament::stats::compare_rule_sets(ma, mb) {
                out.extend(crate::tournament::text::csv_line(&[
                    a.file.clone(),
                    name(a),
                    name(b),
                    c.measure.to_string(),
                    format!("{:.4}", c.a),
                    format!("{:.4}", c.b),
                    format!("{:.6}", c.p),
                    (if c.p < 0.05 { "yes" } else { "no" }).to_string(),
                ]));
            }
        }
    }
    out
}

/// Evaluates every set of `s` (this shard's, with `s.shard`) into `how.out`, then writes the outputs.
/// Returns the rows of the sets played here.
pub fn evaluate(s: &Settings, how: &RunHow) -> Result<Vec<Row>, String> {
    std::fs::create_dir_all(&how.out).map_err(|e| format!("{}: {e}", how.out.display()))?;
    let settings_path = how.out.join("settings.json");
    let text = serde_json::to_string_pretty(s).map_err(|e| e.to_string())?;
    if settings_path.exists() {
        if !how.resume {
            return Err(format!(
                "{} holds an evaluation already; give --resume to finish it, or another --out",
                how.out.display()
            ));
        }
        let old: Settings = serde_json::from_str(
            &std::fs::read_to_string(&settings_path)
                .map_err(|e| format!("{}: {e}", settings_path.display()))?,
        )
        .map_err(|e| format!("{}: {e}", settings_path.display()))?;
        if let Some(field) = settings_difference(&old, s) {
            return Err(format!(
                "{}: the evaluation was started with another `{field}`; it cannot be resumed with these settings",
                settings_path.display()
            ));
        }
    } else {
        std::fs::write(&settings_path, text)
            .map_err(|e| format!("{}: {e}", settings_path.display()))?;
    }
    let mine: Vec<usize> = (0..s.sets.len())
        .filter(|&i| s.shard.is_none_or(|sh| sh.contains(i as u64)))
        .collect();
    // Rule sets in parallel, one game at a time each, when there are enough of them; else one at a time with
    // every job on its games. Neither changes a number. Plain threads, not a rayon pool: a rayon worker that
    // waits for the runner's own pool would start other rule sets meanwhile, past --jobs.
    let outer = how.jobs.min(mine.len()).max(1);
    let inner = (how.jobs / outer).max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Result<Row, String>>>> =
        mine.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..outer {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(&i) = mine.get(k) else {
                    break;
                };
                let r = evaluate_set(s, i, how, inner);
                let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                if !how.quiet {
                    match &r {
                        Ok(row) => eprintln!(
                            "[{n}/{}] {} #{} {}: {}",
                            mine.len(),
                            row.file,
                            row.variant,
                            row.title,
                            row.reason.as_deref().unwrap_or("done")
                        ),
                        Err(e) => eprintln!("[{n}/{}] {}: {e}", mine.len(), s.sets[i].file),
                    }
                }
                if let Ok(mut slot) = slots[k].lock() {
                    *slot = Some(r);
                }
            });
        }
    });
    let results: Vec<Result<Row, String>> = slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .ok()
                .flatten()
                .unwrap_or_else(|| Err("a rule set's thread ended without a result".into()))
        })
        .collect();
    let rows: Vec<Row> = results.into_iter().collect::<Result<_, _>>()?;
    write_outputs(&how.out, s, &rows)?;
    Ok(rows)
}

/// The first field two settings differ in (`shard` ignored).
fn settings_difference(a: &Settings, b: &Settings) -> Option<&'static str> {
    let pairs: [(&str, bool); 12] = [
        ("version", a.version == b.version),
        ("rule sets", a.sets == b.sets),
        ("strong bot", a.strong == b.strong),
        ("weak bot", a.weak == b.weak),
        ("batch", a.batch == b.batch),
        ("max-games", a.max_games == b.max_games),
        ("precision", a.precision == b.precision),
        ("seed", a.seed == b.seed),
        ("max-plies", a.max_plies == b.max_plies),
        ("opening-plies", a.opening_plies == b.opening_plies),
        ("time-limit", a.time_limit == b.time_limit),
        (
            "allow-missing-rules or parameters",
            a.allow_missing_rules == b.allow_missing_rules && a.params == b.params,
        ),
    ];
    pairs.iter().find(|(_, same)| !same).map(|(f, _)| *f)
}

/// `dagaz merge` for evaluations: the shard folders of one evaluation (the same settings but the shard, each
/// shard once, every rule set's `row.json` present) into `out`'s `evaluation.csv`, `differences.csv` and
/// `evaluation.html`, the same as one machine's.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<(), String> {
    let mut settings: Option<Settings> = None;
    let mut seen = vec![];
    let mut rows: Vec<Option<Row>> = vec![];
    for d in dirs {
        let p = d.join("settings.json");
        let s: Settings = serde_json::from_str(
            &std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?,
        )
        .map_err(|e| format!("{}: {e}", p.display()))?;
        let Some(sh) = s.shard else {
            return Err(format!("{} is not a shard (no --shard)", d.display()));
        };
        if seen.contains(&sh.k) {
            return Err(format!("shard {sh} is given twice"));
        }
        seen.push(sh.k);
        match &settings {
            None => {
                rows = vec![None; s.sets.len()];
                settings = Some(s.clone());
            }
            Some(first) => {
                if let Some(f) = settings_difference(first, &s) {
                    return Err(format!(
                        "{} is not a shard of the same evaluation: its `{f}` differs",
                        d.display()
                    ));
                }
                if first.shard.map(|x| x.n) != Some(sh.n) {
                    return Err(format!(
                        "{}: shard {sh} is not one of the same N",
                        d.display()
                    ));
                }
            }
        }
        for i in (0..s.sets.len()).filter(|&i| sh.contains(i as u64)) {
            let rp = d
                .join("sets")
                .join(set_dir_name(i, &s.sets[i]))
                .join("row.json");
            let row: Row = serde_json::from_str(&std::fs::read_to_string(&rp).map_err(|_| {
                format!(
                    "rule set {i} ({}) of shard {sh} is unfinished: {} is missing; finish the shard with --resume",
                    s.sets[i].file,
                    rp.display()
                )
            })?)
            .map_err(|e| format!("{}: {e}", rp.display()))?;
            rows[i] = Some(row);
        }
    }
    let Some(mut s) = settings else {
        return Err("no shard folder given".into());
    };
    let n = s.shard.map_or(1, |x| x.n);
    if (seen.len() as u64) != n {
        let missing: Vec<String> = (1..=n)
            .filter(|k| !seen.contains(k))
            .map(|k| k.to_string())
            .collect();
        return Err(format!("shards {} of {n} are missing", missing.join(", ")));
    }
    let mut rows: Vec<Row> = rows.into_iter().flatten().collect();
    // Links point into the shard folders.
    for r in &mut rows {
        if let Some(rep) = &mut r.report {
            let d = &dirs[seen
                .iter()
                .position(|&k| k == (r.index as u64 % n) + 1)
                .unwrap_or(0)];
            *rep = d.join(&*rep).to_string_lossy().into_owned();
            if let Some(cell) = r.cells.last_mut() {
                *cell = rep.clone();
            }
        }
    }
    s.shard = None;
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let text = serde_json::to_string_pretty(&s).map_err(|e| e.to_string())?;
    std::fs::write(out.join("settings.json"), text).map_err(|e| e.to_string())?;
    write_outputs(out, &s, &rows)
}

/// Whether a folder holds an evaluation (or a shard of one) rather than a tournament run.
pub fn is_evaluation(dir: &Path) -> bool {
    dir.join("settings.json").is_file() && !dir.join("fingerprint.json").exists()
}
