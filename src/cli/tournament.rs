//! `dagaz tournament`, `dagaz merge` and `dagaz bots`: the runner's commands.

use super::print_error;
use std::path::PathBuf;
use std::process::ExitCode;

// The doc comments are the `--help` text: `<game>` there is a placeholder, not HTML.
#[allow(rustdoc::invalid_html_tags)]
#[derive(clap::Args)]
pub struct TournamentArgs {
    /// The game file (default: the built-in Breakthrough).
    pub game: Option<String>,
    /// Bots: preset files, preset names (`dagaz bots` lists them), or inline `kind:key=value,...` (default:
    /// random, alpha-beta, MCTS).
    #[arg(long, num_args = 1..)]
    pub bots: Vec<String>,
    /// The variant, by number or title (default: the first game of the file).
    #[arg(long, conflicts_with = "variants")]
    pub variant: Option<String>,
    /// Several variants, comma-separated, or `all`: the rule-set measures side by side.
    #[arg(long)]
    pub variants: Option<String>,
    /// round-robin (every pair of bots) or gauntlet (the first bot against each other).
    #[arg(long)]
    pub format: Option<crate::tournament::config::Format>,
    /// Games per encounter, rounded up to whole pairs (default 20).
    #[arg(long)]
    pub games: Option<u64>,
    /// The run's seed: every game's openings and bots' randomness derive from it and the game's ids, so the
    /// same seed gives the same games for any --jobs (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at once (default: the number of cores; at most 16 per core); the results do not depend on
    /// it.
    #[arg(long, value_parser = parse_jobs)]
    pub jobs: Option<u64>,
    /// A game still going after this many plies is a draw of type `move-limit` (default 500).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Random plies from the start, the same for both games of a pair (default 4).
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// An opening book: each pair of games starts from one of its positions or lines (both seat orders);
    /// checked against the rules before the run. Random opening plies are then 0 unless --opening-plies is
    /// given (they follow the book's moves).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The book's format: epd (or fen), pgn, sgf, moves (dagaz notation, `;`-separated, one line each);
    /// default: from the file's extension.
    #[arg(long, value_name = "FORMAT", requires = "openings")]
    pub openings_format: Option<crate::tournament::openings::OpeningsFormat>,
    /// The order rounds take the openings in: sequential (default) or random (a shuffle from the seed).
    #[arg(long, value_name = "ORDER", requires = "openings")]
    pub openings_order: Option<crate::tournament::openings::OpeningsOrder>,
    /// Play at most this many plies of each book line (default: the whole line).
    #[arg(long, value_name = "N", requires = "openings")]
    pub openings_plies: Option<u32>,
    /// Adjudicate a draw from the bots' scores: from move N, |score| <= S for K moves of each side in a row
    /// (movenumber=N,movecount=K,score=S).
    #[arg(long, value_name = "movenumber=N,movecount=K,score=S")]
    pub draw: Option<crate::tournament::adjudicate::DrawRule>,
    /// Adjudicate a loss from the bots' scores: a side's score <= -R for K of its moves in a row;
    /// twosided=true: the winner's >= R too, K moves of each side (movecount=K,score=R[,twosided=true]).
    #[arg(long, value_name = "movecount=K,score=R[,twosided=true]")]
    pub resign: Option<crate::tournament::adjudicate::ResignRule>,
    /// A bot with a time budget (`time_ms`, external bots) that takes longer for one move loses the game with
    /// `bot-error` (default 60000); a bot with a time limit of its own gets at least that plus a second. Bots
    /// with a fixed budget (depth, nodes, iterations) never lose on time (see README).
    #[arg(long)]
    pub move_timeout_ms: Option<u64>,
    /// Every bot's clock, fastchess-style, unless it has its own `tc`/`st` key: MOVES/SECONDS+INCREMENT
    /// (`40/60+0.6`, `10+0.1`); a flag fall loses (`time-forfeit`).
    #[arg(long, value_name = "TC")]
    pub tc: Option<String>,
    /// Every bot's fixed time per move, in seconds (instead of --tc).
    #[arg(long, value_name = "SECONDS")]
    pub st: Option<f64>,
    /// How many milliseconds past its clock a bot may answer before its flag falls (default 0).
    #[arg(long, value_name = "MS")]
    pub timemargin: Option<u64>,
    /// Stop a two-bot match once the GSPRT decides: elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05).
    #[arg(long)]
    pub sprt: Option<crate::tournament::config::SprtConfig>,
    /// The settings as a TOML file (the keys of config.toml); flags given as well override it.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// The run's folder (default: results/<game>-<date>-<time>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Play a game whose file asks for rules the engine does not apply (unknown options or sections, no end
    /// condition), without those rules; config.toml and report.md list them.
    #[arg(long)]
    pub allow_missing_rules: bool,
    /// Record every position's evaluation (one fixed evaluator: material and mobility) and report Ludii's lead
    /// change, drama and decisiveness per variant (games.csv gets them per game).
    #[arg(long)]
    pub record_evals: bool,
    /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)` (repeatable;
    /// recorded in config.toml and the run's fingerprint).
    #[arg(long = "extension", value_name = "NAME")]
    pub extension: Vec<String>,
    /// Play only this machine's share of the run, K of N (the games whose id is K-1 modulo N); `dagaz merge`
    /// puts the N shard folders together. An --sprt is decided at the merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::tournament::config::Shard>,
    /// Finish the run in --out: its settings come from its config.toml.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Start the run in --out, or finish it if --out already holds it: the settings are given as for a new
    /// run, and must be the ones it started with (its fingerprint). One command for a shard that may be
    /// killed and started again (a requeued cluster job).
    #[arg(long, requires = "out", conflicts_with = "resume")]
    pub start_or_resume: bool,
    /// No progress on standard error.
    #[arg(long)]
    pub quiet: bool,
    /// A folder of bot presets (`NAME.toml`), searched by name before `./bots/` and the built-in presets
    /// (repeatable; `dagaz bots` lists what a name finds).
    #[arg(long, value_name = "DIR")]
    pub bots_dir: Vec<PathBuf>,
}

/// Games played at once per core, at most: past this a run only adds threads (each game has its own, and
/// `--jobs 10000` used to start thousands and finish nothing). External bots that wait on the clock are
/// why it is more than one.
pub const JOBS_PER_CORE: u64 = 16;

/// `--jobs`: a whole number from 1.
fn parse_jobs(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("it must be at least 1 (games played at once)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "`{s}` is not a number of games to play at once (a whole number from 1)"
        )),
    }
}

/// The games played at once: `--jobs`, or the number of cores, capped at [`JOBS_PER_CORE`] per core with a
/// warning.
pub fn jobs_for(asked: Option<u64>, cores: usize) -> (usize, Option<String>) {
    let cores = cores.max(1) as u64;
    let most = cores * JOBS_PER_CORE;
    match asked {
        None => (cores as usize, None),
        Some(j) if j > most => (
            most as usize,
            Some(format!(
                "--jobs {j} is more than {JOBS_PER_CORE} per core ({cores} core{}): playing {most} games at once",
                if cores == 1 { "" } else { "s" }
            )),
        ),
        Some(j) => (j as usize, None),
    }
}

/// `dagaz bots`: one line per preset, in lookup order.
pub fn bots(dirs: &[PathBuf]) {
    let presets = crate::bot::spec::list_presets(dirs);
    let width = presets.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let src = presets.iter().map(|p| p.source.len()).max().unwrap_or(0);
    for p in &presets {
        match &p.spec {
            Ok(spec) => println!("{:width$}  {:src$}  {spec}", p.name, p.source),
            Err(e) => println!("{:width$}  {:src$}  error: {e}", p.name, p.source),
        }
    }
    println!(
        "\n{} presets. Use one by name (`--bots mcts-1k`), as a file, or inline (`mcts:iterations=500`).",
        presets.len()
    );
    println!(
        "MCTS enhancements, off by default: solver=false, reuse=false, final=robust, rollout=random (mast, nst), grave=0, progressive_history=0, progressive_bias=0, playout_cutoff=0, threads=1, decisive=false (README's bot table)."
    );
    println!(
        "Kinds: {}; `uci`, `usi`, `ucci`, `xboard` and `gtp` run real engines over their protocols (README, \"Real engines\"); any bot takes a clock (`tc`, `st`, `timemargin`).",
        crate::bot::spec::KINDS.join(", ")
    );
}

/// The tournament's settings from the flags, a TOML file and the defaults, in that order of precedence.
pub fn tournament_config(
    a: &TournamentArgs,
) -> Result<crate::tournament::TournamentConfig, String> {
    use crate::tournament::config::BotConfig;
    use crate::tournament::TournamentConfig;
    let mut c = match &a.config {
        Some(p) => TournamentConfig::read_file(p)?,
        None => TournamentConfig::default(),
    };
    c.bots_dirs = a.bots_dir.clone();
    c.version = env!("CARGO_PKG_VERSION").into();
    if let Some(g) = &a.game {
        // A path on the command line is relative to the current directory, not to a --config file.
        c.game = g.clone();
        // A --config file's openings stay relative to its folder.
        if let Some(o) = c.openings_path() {
            c.openings = Some(o.to_string_lossy().into_owned());
        }
        c.base_dir = None;
    }
    if !a.bots.is_empty() {
        c.bots = a.bots.iter().map(|b| BotConfig::Name(b.clone())).collect();
    }
    if let Some(v) = &a.variant {
        c.variants = vec![v.clone()];
    }
    if let Some(v) = &a.variants {
        c.variants = v.split(',').map(|x| x.trim().to_string()).collect();
    }
    if let Some(f) = a.format {
        c.format = f;
    }
    if let Some(x) = a.games {
        c.games = x;
    }
    if let Some(x) = a.seed {
        c.seed = x;
    }
    if let Some(x) = a.max_plies {
        c.max_plies = x;
    }
    if let Some(o) = &a.openings {
        // Relative to the current directory, as a game path on the command line (not to a --config file's
        // folder).
        let o = if c.base_dir.is_some() && o.is_relative() {
            std::path::absolute(o).map_err(|e| format!("--openings `{}`: {e}", o.display()))?
        } else {
            o.clone()
        };
        c.openings = Some(o.to_string_lossy().into_owned());
        if a.opening_plies.is_none() {
            c.opening_plies = 0;
        }
    }
    if a.openings_format.is_some() {
        c.openings_format = a.openings_format;
    }
    if a.openings_order.is_some() {
        c.openings_order = a.openings_order;
    }
    if a.openings_plies.is_some() {
        c.openings_plies = a.openings_plies;
    }
    if a.draw.is_some() {
        c.draw = a.draw;
    }
    if a.resign.is_some() {
        c.resign = a.resign;
    }
    if let Some(x) = a.opening_plies {
        c.opening_plies = x;
    }
    if let Some(x) = a.move_timeout_ms {
        c.move_timeout_ms = x;
    }
    if a.sprt.is_some() {
        c.sprt = a.sprt;
    }
    if a.tc.is_some() || a.st.is_some() {
        c.tc = a.tc.clone();
        c.st = a.st;
    }
    if a.timemargin.is_some() {
        c.timemargin = a.timemargin;
    }
    if a.allow_missing_rules {
        c.allow_missing_rules = true;
    }
    if !a.extension.is_empty() {
        c.extensions = a.extension.clone();
    }
    if a.shard.is_some() {
        c.shard = a.shard;
    }
    if a.record_evals {
        c.record_evals = true;
    }
    Ok(c)
}

pub fn tournament(a: TournamentArgs) -> Result<(), String> {
    use crate::tournament::{config::TournamentConfig, report, run, Progress, RunOptions};
    use std::io::IsTerminal;
    // A panic inside a game (a bot's, or an engine bug) is caught and recorded with the game: one line on
    // standard error instead of the default report, unless a backtrace is asked for.
    if std::env::var_os("RUST_BACKTRACE").is_none() {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() == Some("game") {
                let p = info.payload();
                let msg = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let at = info
                    .location()
                    .map(|l| format!(" at {l}"))
                    .unwrap_or_default();
                eprintln!("warning: panic in a game{at}: {msg} (recorded in games.csv)");
            } else {
                default(info)
            }
        }));
    }
    let mut t = if a.resume {
        let given = a.game.is_some()
            || !a.bots.is_empty()
            || a.variant.is_some()
            || a.variants.is_some()
            || a.format.is_some()
            || a.games.is_some()
            || a.seed.is_some()
            || a.max_plies.is_some()
            || a.opening_plies.is_some()
            || a.openings.is_some()
            || a.draw.is_some()
            || a.resign.is_some()
            || a.move_timeout_ms.is_some()
            || a.sprt.is_some()
            || a.tc.is_some()
            || a.st.is_some()
            || a.timemargin.is_some()
            || a.allow_missing_rules
            || !a.extension.is_empty()
            || a.shard.is_some()
            || a.record_evals
            || a.config.is_some();
        if given {
            return Err(
                "with --resume the run's settings come from its config.toml; only --out, --jobs \
                        and --quiet may be given"
                    .into(),
            );
        }
        let out = a.out.as_ref().expect("clap: --resume requires --out");
        let mut c = TournamentConfig::read_file(&out.join("config.toml"))
            .map_err(|e| format!("cannot resume: {e}"))?;
        c.bots_dirs = a.bots_dir.clone();
        // Whether it is the same run (dagaz version, game, settings, bots) is checked against the run's
        // fingerprint.json, which an edit of config.toml does not change.
        c.load()?
    } else {
        tournament_config(&a)?.load()?
    };
    // --start-or-resume: a folder with a run's fingerprint is resumed (the fingerprint must match).
    let resume = a.resume
        || (a.start_or_resume
            && a.out
                .as_ref()
                .is_some_and(|o| o.join("fingerprint.json").exists()));
    let out = a.out.clone().unwrap_or_else(|| {
        let stem = t
            .config
            .game
            .rsplit(['/', '\\', ':'])
            .next()
            .unwrap_or("game")
            .trim_end_matches(".zrf")
            .to_string();
        PathBuf::from("results").join(format!("{stem}-{}", timestamp()))
    });
    if !a.resume {
        // The run's config.toml names the game relative to the run's folder: it resumes from anywhere.
        t.config.rebase(&out)?;
    }
    if resume && !a.resume && !a.quiet {
        eprintln!("{} holds this run: finishing it", out.display());
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (jobs, capped) = jobs_for(a.jobs, cores);
    if let Some(w) = capped {
        eprintln!("warning: {w}");
    }
    let progress = if a.quiet {
        Progress::None
    } else if std::io::stderr().is_terminal() {
        Progress::Bar
    } else {
        Progress::Lines
    };
    let opts = RunOptions {
        out: out.clone(),
        jobs,
        progress,
        resume,
    };
    // A folder another run holds: its one-line error before anything else is printed (the run takes the
    // lock for good itself).
    drop(crate::tournament::writers::RunFiles::new(&out, t.max_seats()).lock()?);
    crate::bot::external::set_interrupt_note(&interrupt_note(&out));
    crate::bot::external::kill_bots_on_signals();
    if !a.quiet {
        eprintln!(
            "tournament: {} bots, {} in {} ({jobs} job{})",
            t.bots.len(),
            t.variants
                .iter()
                .map(|v| v.title.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            out.display(),
            if jobs == 1 { "" } else { "s" }
        );
    }
    let missing =
        crate::compile::missing::distinct(t.variants.iter().flat_map(|v| &v.game.missing_rules));
    if !missing.is_empty() && !a.quiet {
        eprintln!(
            "warning: {}",
            crate::compile::missing::playing_without(&t.config.game, &missing)
        );
    }
    let r = run(&t, &opts)?;
    let mut text = report::render_standings(&r.summary);
    let verdicts = report::variant_verdicts(&r.summary);
    if !verdicts.is_empty() {
        text.push_str("\nDo the variants differ? (report.md says how each is tested)\n");
        for v in verdicts {
            text.push_str(&format!("  {}\n", v.replace("**", "")));
        }
    }
    // SIGPIPE is ignored during a tournament (`main`): a reader that went away (`| head`) loses the rest of
    // the standings, which are in the run's files anyway, without a panic.
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
    }
    if !a.quiet {
        eprintln!(
            "{} games ({} played now{}) in {:.1} s; report: {}",
            r.summary.games,
            r.played,
            if r.resumed > 0 {
                format!(", {} from before", r.resumed)
            } else {
                String::new()
            },
            r.seconds,
            out.join("report.md").display()
        );
    }
    Ok(())
}

/// What Ctrl-C (or SIGTERM, SIGHUP) prints: the run is not lost, and how to finish it.
fn interrupt_note(out: &std::path::Path) -> String {
    let dir = out.display().to_string();
    let dir = if dir.contains(char::is_whitespace) {
        format!("'{dir}'")
    } else {
        dir
    };
    format!(
        "\ninterrupted: the games finished so far are kept in {dir}; `dagaz tournament --resume --out {dir}` \
         finishes the run\n"
    )
}

/// The local-free UTC date and time, `YYYYMMDD-HHMMSS`, for default run names.
fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (y, m, d, h, mi, s) = crate::tournament::writers::utc_fields(secs);
    format!("{y:04}{m:02}{d:02}-{h:02}{mi:02}{s:02}")
}

/// `dagaz merge OUT DIR...`: the shards of a run put together.
pub fn merge(out: &std::path::Path, dirs: &[PathBuf], game: Option<&std::path::Path>) -> ExitCode {
    match crate::tournament::merge::merge(out, dirs, game) {
        Ok(r) => {
            print!(
                "{}",
                crate::tournament::report::render_standings(&r.summary)
            );
            eprintln!(
                "merged {} shards: {} games; report: {}",
                dirs.len(),
                r.summary.games,
                out.join("report.md").display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            print_error(&e.to_string());
            ExitCode::FAILURE
        }
    }
}

/// `dagaz status DIR...`: a run's (or its shards') progress, standings so far and SPRT.
pub fn status(dirs: &[PathBuf], game: Option<&std::path::Path>) -> ExitCode {
    match crate::tournament::shards::status(dirs, game) {
        Ok(text) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
            ExitCode::SUCCESS
        }
        Err(e) => {
            print_error(&e);
            ExitCode::FAILURE
        }
    }
}
