//! `dagaz evaluate` and `dagaz sweep`: the rule designer's workbench (see `crate::evaluate`).

use crate::evaluate::{self, sweep::Param, RunHow, Settings};
use crate::tournament::config::Shard;
use std::path::PathBuf;

/// What `evaluate` and `sweep` share.
// The doc comments are the `--help` text: `<date>` there is a placeholder, not HTML.
#[allow(rustdoc::invalid_html_tags)]
#[derive(clap::Args, Clone, Debug)]
pub struct Common {
    /// The stronger bot, which plays itself for the balance measures (a preset name, a file or inline).
    #[arg(long, default_value = "auto")]
    pub strong: String,
    /// The weaker bot, which the stronger one meets for skill dependence.
    #[arg(long, default_value = "random")]
    pub weak: String,
    /// Games per encounter in each batch (self-play, and the stronger bot against the weaker), rounded up to
    /// whole pairs.
    #[arg(long, default_value_t = 20)]
    pub batch: u64,
    /// Self-play games at most per rule set.
    #[arg(long, default_value_t = 200)]
    pub max_games: u64,
    /// Stop a rule set once each named interval is at most this wide (NAME=WIDTH, comma-separated): names
    /// first-player, balance, completion, drawishness, timeouts, length, uniformity, branching,
    /// decisiveness, drama, lead-change, skill.
    #[arg(long, value_name = "NAME=WIDTH,...")]
    pub precision: Option<String>,
    /// The seed: batch b (from 0) of rule set i (from 0) is a tournament with seed + 1000003·i + b
    /// (evaluation.csv's `seeds` column gives each rule set's).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game still going after this many plies is a draw of type `move-limit`.
    #[arg(long, default_value_t = 500)]
    pub max_plies: u32,
    /// Random plies from the start, the same for both games of a pair.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: u32,
    /// Play rule sets whose files ask for rules the engine does not apply, without them (else each is a row
    /// with the missing rules as its reason).
    #[arg(long)]
    pub allow_missing_rules: bool,
    /// CPU seconds a rule set may use (its games, and loading it); one that uses them up is a row whose reason
    /// begins `time limit:`, with the measures of the batches it finished, if any. 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 600.0)]
    pub time_limit: f64,
    /// Games played at once (default: the number of cores); the numbers do not depend on it.
    #[arg(long)]
    pub jobs: Option<u64>,
    /// The evaluation's folder (default: results/evaluation-<date>-<time>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Finish the evaluation in --out, with the same settings.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Evaluate only the rule sets whose index is K-1 modulo N; `dagaz merge` puts the N folders together.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// A folder of bot presets, searched first (repeatable).
    #[arg(long, value_name = "DIR")]
    pub bots_dir: Vec<PathBuf>,
    /// No progress on standard error.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(clap::Args)]
pub struct EvaluateArgs {
    /// Game files, folders (searched recursively for .zrf files), or FILE:VARIANT.
    #[arg(required = true)]
    pub paths: Vec<String>,
    #[command(flatten)]
    pub common: Common,
}

#[derive(clap::Args)]
pub struct SweepArgs {
    /// The game file.
    pub file: String,
    /// A define and its values, NAME=v1,v2,... (repeatable: every combination is evaluated).
    #[arg(long = "set", required = true, value_name = "NAME=v1,v2,...")]
    pub set: Vec<Param>,
    #[command(flatten)]
    pub common: Common,
}

/// `--precision first-player=0.05,length=10`.
pub fn parse_precision(s: &str) -> Result<Vec<(String, f64)>, String> {
    let mut out = vec![];
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, w) = part
            .split_once('=')
            .ok_or_else(|| format!("--precision: `{part}` is not NAME=WIDTH"))?;
        let name = name.trim();
        if !evaluate::measures::PRECISION_NAMES.contains(&name) {
            return Err(format!(
                "--precision: no measure `{name}`; the measures are {}",
                evaluate::measures::PRECISION_NAMES.join(", ")
            ));
        }
        let w: f64 = w
            .trim()
            .parse()
            .ok()
            .filter(|w: &f64| w.is_finite() && *w > 0.0)
            .ok_or_else(|| format!("--precision: `{w}` is not a width above 0"))?;
        out.push((name.to_string(), w));
    }
    Ok(out)
}

fn default_out() -> PathBuf {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let (y, mo, d, h, mi, s) = crate::tournament::text::utc_fields(secs);
    PathBuf::from(format!(
        "results/evaluation-{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}"
    ))
}

fn run(
    c: &Common,
    sets: Vec<evaluate::SetSpec>,
    params: Vec<String>,
    out: PathBuf,
) -> Result<(), String> {
    if c.batch == 0 {
        return Err("--batch must be at least 1".into());
    }
    if c.max_games == 0 {
        return Err("--max-games must be at least 1".into());
    }
    if !(c.time_limit.is_finite() && c.time_limit >= 0.0) {
        return Err(format!(
            "--time-limit {}: not a number of seconds (0: no limit)",
            c.time_limit
        ));
    }
    let settings = Settings {
        version: env!("CARGO_PKG_VERSION").into(),
        sets,
        strong: c.strong.clone(),
        weak: c.weak.clone(),
        batch: c.batch,
        max_games: c.max_games,
        precision: match &c.precision {
            Some(p) => parse_precision(p)?,
            None => vec![],
        },
        seed: c.seed,
        max_plies: c.max_plies,
        opening_plies: c.opening_plies,
        allow_missing_rules: c.allow_missing_rules,
        params,
        shard: c.shard,
        time_limit: (c.time_limit > 0.0).then_some(c.time_limit),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (jobs, warning) = super::tournament::jobs_for(c.jobs, cores);
    if let Some(w) = warning {
        eprintln!("warning: {w}");
    }
    if c.jobs == Some(0) {
        return Err("--jobs must be at least 1".into());
    }
    let how = RunHow {
        out: out.clone(),
        jobs,
        resume: c.resume,
        quiet: c.quiet,
        bots_dirs: c.bots_dir.clone(),
        extensions: vec![],
    };
    let rows = evaluate::evaluate(&settings, &how)?;
    let limited = rows
        .iter()
        .filter(|r| {
            r.reason
                .as_deref()
                .is_some_and(|e| e.starts_with(evaluate::TIME_LIMIT))
        })
        .count();
    let failed = rows.iter().filter(|r| r.reason.is_some()).count() - limited;
    println!(
        "{} rule sets evaluated ({} could not be played{}): {}",
        rows.len(),
        failed,
        if limited > 0 {
            format!(", {limited} stopped by the time limit")
        } else {
            String::new()
        },
        out.join("evaluation.csv").display()
    );
    Ok(())
}

/// `dagaz evaluate PATH...`.
pub fn evaluate(a: EvaluateArgs) -> Result<(), String> {
    let out = a.common.out.clone().unwrap_or_else(default_out);
    let sets = evaluate::list_sets(&a.paths)?;
    run(&a.common, sets, vec![], out)
}

/// `dagaz sweep FILE --set NAME=v1,v2`.
pub fn sweep(a: SweepArgs) -> Result<(), String> {
    let out = a.common.out.clone().unwrap_or_else(default_out);
    let mut names: Vec<String> = vec![];
    for p in &a.set {
        if names.contains(&p.name) {
            return Err(format!("--set {} is given twice", p.name));
        }
        names.push(p.name.clone());
    }
    let sets = evaluate::sweep::sweep_sets(&a.file, &a.set, &out)?;
    run(&a.common, sets, names, out)
}
