//! The `dagaz` command line: parses arguments, calls the library, maps errors to exit codes.

use clap::{Parser, Subcommand};
use dagaz::lang::diag::render_all;
use dagaz::load::{compile_selected, VariantSel};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dagaz",
    version,
    about = "Play, test and compare bots on board games written in ZRF"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// A directory whose files games may include, besides their own directory tree (repeatable; not for
    /// `tournament`, whose game reads only its own tree).
    #[arg(long, global = true, value_name = "DIR")]
    include_path: Vec<PathBuf>,
}

/// Reading options from the command line.
fn read_options() -> dagaz::lang::ReadOptions {
    dagaz::lang::ReadOptions {
        include_paths: INCLUDE_PATHS.get().cloned().unwrap_or_default(),
    }
}

/// The `--extension` modules, set once from the command line (names checked to be known).
static EXTENSIONS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Adds the command line's `--extension` modules to a compiled game.
fn add_extensions(game: &mut dagaz::Game) -> Result<(), String> {
    for name in EXTENSIONS.get().map_or(&[][..], |v| v.as_slice()) {
        dagaz::extension::attach(game, name)?;
    }
    Ok(())
}

/// The `--include-path` directories, set once from the command line.
static INCLUDE_PATHS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();

/// An error message with one `error:` in front, whether or not it already has one (rendered diagnostics do).
fn print_error(e: &str) {
    let e = e.trim_end();
    if e.starts_with("error:") {
        eprintln!("{e}");
    } else {
        eprintln!("error: {e}");
    }
}

#[derive(Subcommand)]
enum Command {
    /// Load game files and show what they contain, or every error in them. With several files, one summary
    /// line per file.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// With several files: print only failures and the total.
        #[arg(long)]
        quiet: bool,
        /// A variant by 1-based number or by title (default: the first game).
        #[arg(long)]
        variant: Option<String>,
        /// Check every game and variant of the file.
        #[arg(long)]
        all_variants: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)`
        /// (repeatable).
        #[arg(long = "extension", value_name = "NAME")]
        extension: Vec<String>,
    },
    /// List the games and variants of a file.
    Variants { file: PathBuf },
    /// Count the leaf positions of the legal-move tree to a depth (move-generator check and benchmark).
    Perft {
        file: PathBuf,
        depth: u32,
        /// A variant by 1-based number or by title (default: the first game).
        #[arg(long)]
        variant: Option<String>,
        /// Start from a position file (format: docs/protocol.md, "Position files") instead of the start
        /// position.
        #[arg(long)]
        position: Option<PathBuf>,
        /// Show the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Print JSON (leaves, seconds, leaves per second) instead of text.
        #[arg(long)]
        json: bool,
        /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)`
        /// (repeatable).
        #[arg(long = "extension", value_name = "NAME")]
        extension: Vec<String>,
    },
    /// Drive the engine through JSON lines on stdin/stdout (see docs/protocol.md).
    Session {
        file: PathBuf,
        /// A variant by 1-based number or by title (default: the first game).
        #[arg(long)]
        variant: Option<String>,
        /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)`
        /// (repeatable).
        #[arg(long = "extension", value_name = "NAME")]
        extension: Vec<String>,
    },
    /// Play uniformly random games and report how they ended and how fast.
    Playout {
        file: PathBuf,
        /// A variant by 1-based number or by title (default: the first game).
        #[arg(long)]
        variant: Option<String>,
        /// Games to play (at least 1).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// The run's seed: game i plays from a random stream derived from it and i alone, so the same seed
        /// gives the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game that reaches this many plies ends as a draw of type `move-limit`.
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        /// Print JSON (games, how they ended, plies, playouts per second) instead of text.
        #[arg(long)]
        json: bool,
        /// Play a game whose file asks for rules the engine does not apply (unknown options or sections, no
        /// end condition), without those rules.
        #[arg(long)]
        allow_missing_rules: bool,
        /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)`
        /// (repeatable).
        #[arg(long = "extension", value_name = "NAME")]
        extension: Vec<String>,
    },
    /// Put the shards of a run (`tournament --shard K/N`, played anywhere) together into one run folder, the same
    /// as one machine would have written: games, standings, end conditions, reports, the SPRT decided on the
    /// merged pairs.
    Merge {
        /// The merged run's folder (new).
        out: PathBuf,
        /// The shard folders, one per shard 1..N.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
    },
    /// List the bot presets a name reaches: files in --bots-dir folders and ./bots/, then the built-in ones.
    Bots {
        /// A folder of bot presets, searched first (repeatable).
        #[arg(long, value_name = "DIR")]
        bots_dir: Vec<PathBuf>,
    },
    /// Play a tournament between bots and write its games, standings and report to results/<run>/. With no
    /// arguments: a small tournament on the built-in Breakthrough.
    Tournament(TournamentArgs),
}

#[derive(clap::Args)]
struct TournamentArgs {
    /// The game file (default: the built-in Breakthrough).
    game: Option<String>,
    /// Bots: preset files, preset names (`dagaz bots` lists them), or inline `kind:key=value,...` (default:
    /// random, alpha-beta, MCTS).
    #[arg(long, num_args = 1..)]
    bots: Vec<String>,
    /// The variant, by number or title (default: the first game of the file).
    #[arg(long, conflicts_with = "variants")]
    variant: Option<String>,
    /// Several variants, comma-separated, or `all`: the rule-set measures side by side.
    #[arg(long)]
    variants: Option<String>,
    /// round-robin (every pair of bots) or gauntlet (the first bot against each other).
    #[arg(long)]
    format: Option<dagaz::tournament::config::Format>,
    /// Games per encounter, rounded up to whole pairs (default 20).
    #[arg(long)]
    games: Option<u64>,
    /// The run's seed: every game's openings and bots' randomness derive from it and the game's ids, so the
    /// same seed gives the same games for any --jobs (default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Games played at once (default: the number of cores); the results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
    /// A game still going after this many plies is a draw of type `move-limit` (default 500).
    #[arg(long)]
    max_plies: Option<u32>,
    /// Random plies from the start, the same for both games of a pair (default 4).
    #[arg(long)]
    opening_plies: Option<u32>,
    /// A bot with a time budget (`time_ms`, external bots) that takes longer for one move loses the game with
    /// `bot-error` (default 60000); a bot with a time limit of its own gets at least that plus a second. Bots
    /// with a fixed budget (depth, nodes, iterations) never lose on time (see README).
    #[arg(long)]
    move_timeout_ms: Option<u64>,
    /// Stop a two-bot match once the GSPRT decides: elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05).
    #[arg(long)]
    sprt: Option<dagaz::tournament::config::SprtConfig>,
    /// The settings as a TOML file (the keys of config.toml); flags given as well override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// The run's folder (default: results/<game>-<date>-<time>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Play a game whose file asks for rules the engine does not apply (unknown options or sections, no end
    /// condition), without those rules; config.toml and report.md list them.
    #[arg(long)]
    allow_missing_rules: bool,
    /// Record every position's evaluation (one fixed evaluator: material and mobility) and report Ludii's lead
    /// change, drama and decisiveness per variant (games.csv gets them per game).
    #[arg(long)]
    record_evals: bool,
    /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)` (repeatable;
    /// recorded in config.toml and the run's fingerprint).
    #[arg(long = "extension", value_name = "NAME")]
    extension: Vec<String>,
    /// Play only this machine's share of the run, K of N (the games whose id is K-1 modulo N); `dagaz merge`
    /// puts the N shard folders together. An --sprt is decided at the merge.
    #[arg(long, value_name = "K/N")]
    shard: Option<dagaz::tournament::config::Shard>,
    /// Finish the run in --out: its settings come from its config.toml.
    #[arg(long, requires = "out")]
    resume: bool,
    /// No progress on standard error.
    #[arg(long)]
    quiet: bool,
    /// A folder of bot presets (`NAME.toml`), searched by name before `./bots/` and the built-in presets
    /// (repeatable; `dagaz bots` lists what a name finds).
    #[arg(long, value_name = "DIR")]
    bots_dir: Vec<PathBuf>,
}

fn main() -> ExitCode {
    // Like any Unix filter, end quietly when the reader of our output goes away (`dagaz ... | head`), instead of
    // panicking on a broken pipe.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let _ = INCLUDE_PATHS.set(cli.include_path.clone());
    // Unknown module names are refused before anything is read.
    let names = match &cli.command {
        Command::Check { extension, .. }
        | Command::Perft { extension, .. }
        | Command::Session { extension, .. }
        | Command::Playout { extension, .. } => extension.clone(),
        Command::Tournament(a) => a.extension.clone(),
        Command::Variants { .. } | Command::Merge { .. } | Command::Bots { .. } => vec![],
    };
    if let Some(bad) = names.iter().find(|n| dagaz::extension::lookup(n).is_none()) {
        print_error(&dagaz::extension::unknown(bad));
        return ExitCode::FAILURE;
    }
    let _ = EXTENSIONS.set(names);
    match cli.command {
        Command::Check {
            files,
            quiet,
            variant,
            all_variants,
            json,
            ..
        } => {
            if files.len() == 1 {
                check(&files[0], variant.as_deref(), all_variants, json)
            } else {
                check_many(&files, quiet)
            }
        }
        Command::Variants { file } => variants(&file),
        Command::Merge { out, dirs } => match dagaz::tournament::merge::merge(&out, &dirs) {
            Ok(r) => {
                print!(
                    "{}",
                    dagaz::tournament::report::render_standings(&r.summary)
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
                print_error(&e);
                ExitCode::FAILURE
            }
        },
        Command::Bots { bots_dir } => {
            bots(&bots_dir);
            ExitCode::SUCCESS
        }
        Command::Perft {
            file,
            depth,
            variant,
            position,
            divide,
            json,
            ..
        } => perft(
            &file,
            depth,
            variant.as_deref(),
            position.as_deref(),
            divide,
            json,
        ),
        Command::Session { file, variant, .. } => {
            let Some(game) = load_or_report(&file, variant.as_deref()) else {
                return ExitCode::FAILURE;
            };
            let stdin = std::io::stdin();
            match dagaz::session::run(&game, stdin.lock(), std::io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Playout {
            file,
            variant,
            games,
            seed,
            max_plies,
            json,
            allow_missing_rules,
            ..
        } => playout(
            &file,
            variant.as_deref(),
            games,
            seed,
            max_plies,
            json,
            allow_missing_rules,
        ),
        Command::Tournament(_) if !cli.include_path.is_empty() => {
            print_error("--include-path is not taken by `tournament`: its game includes only files under its own directory");
            ExitCode::FAILURE
        }
        Command::Tournament(args) => match tournament(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                print_error(&e);
                ExitCode::FAILURE
            }
        },
    }
}

/// `dagaz bots`: one line per preset, in lookup order.
fn bots(dirs: &[PathBuf]) {
    let presets = dagaz::bot::spec::list_presets(dirs);
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
}

/// The tournament's settings from the flags, a TOML file and the defaults, in that order of precedence.
fn tournament_config(a: &TournamentArgs) -> Result<dagaz::tournament::TournamentConfig, String> {
    use dagaz::tournament::config::BotConfig;
    use dagaz::tournament::TournamentConfig;
    let mut c = match &a.config {
        Some(p) => TournamentConfig::read_file(p)?,
        None => TournamentConfig::default(),
    };
    c.bots_dirs = a.bots_dir.clone();
    c.version = env!("CARGO_PKG_VERSION").into();
    if let Some(g) = &a.game {
        // A path on the command line is relative to the current directory, not to a --config file.
        c.game = g.clone();
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
    if let Some(x) = a.opening_plies {
        c.opening_plies = x;
    }
    if let Some(x) = a.move_timeout_ms {
        c.move_timeout_ms = x;
    }
    if a.sprt.is_some() {
        c.sprt = a.sprt;
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

fn tournament(a: TournamentArgs) -> Result<(), String> {
    use dagaz::tournament::{config::TournamentConfig, report, run, Progress, RunOptions};
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
            || a.move_timeout_ms.is_some()
            || a.sprt.is_some()
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
    let jobs = a.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| j as usize,
    );
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
        resume: a.resume,
    };
    // A folder another run holds: its one-line error before anything else is printed (the run takes the
    // lock for good itself).
    drop(dagaz::tournament::writers::RunFiles::new(&out, t.max_seats()).lock()?);
    dagaz::bot::external::kill_bots_on_signals();
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
        dagaz::compile::missing::distinct(t.variants.iter().flat_map(|v| &v.game.missing_rules));
    if !missing.is_empty() && !a.quiet {
        eprintln!(
            "warning: {}",
            dagaz::compile::missing::playing_without(&t.config.game, &missing)
        );
    }
    let r = run(&t, &opts)?;
    print!("{}", report::render_standings(&r.summary));
    let verdicts = report::variant_verdicts(&r.summary);
    if !verdicts.is_empty() {
        println!("\nDo the variants differ? (report.md says how each is tested)");
        for v in verdicts {
            println!("  {}", v.replace("**", ""));
        }
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

/// The local-free UTC date and time, `YYYYMMDD-HHMMSS`, for default run names.
fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (y, m, d, h, mi, s) = dagaz::tournament::writers::utc_fields(secs);
    format!("{y:04}{m:02}{d:02}-{h:02}{mi:02}{s:02}")
}

fn variants(file: &std::path::Path) -> ExitCode {
    let read = dagaz::lang::read_file_with(file, &read_options());
    if read.has_errors() {
        eprint!("{}", render_all(&read.diagnostics, &read.sources));
        return ExitCode::FAILURE;
    }
    for g in &read.games {
        // Zillions opens the variant a file marks `(default)`; dagaz plays the first unless told otherwise, so
        // the mark says how to get it.
        let mark = if g.default && g.number != 1 {
            format!(
                "  (the file's default; dagaz plays 1 unless --variant {})",
                g.number
            )
        } else {
            String::new()
        };
        println!("{:3}  {}{mark}", g.number, g.title);
    }
    ExitCode::SUCCESS
}

fn check(file: &std::path::Path, variant: Option<&str>, all: bool, json: bool) -> ExitCode {
    let read = dagaz::lang::read_file_with(file, &read_options());
    let sels: Vec<VariantSel> = if all {
        read.games
            .iter()
            .map(|g| VariantSel::Number(g.number))
            .collect()
    } else {
        vec![variant.map(VariantSel::parse).unwrap_or_default()]
    };
    let titles: Vec<(usize, String)> = read
        .games
        .iter()
        .map(|g| (g.number, g.title.clone()))
        .collect();
    let mut ok = !read.has_errors();
    let mut out_json = vec![];
    let mut text = String::new();
    if !json && !titles.is_empty() {
        text.push_str(&format!("{}: {} game(s)\n", file.display(), titles.len()));
        for (n, t) in &titles {
            text.push_str(&format!("  {n}: {t}\n"));
        }
    }
    let sels = if sels.is_empty() {
        vec![VariantSel::First]
    } else {
        sels
    };
    let print_diags = |diags: &[dagaz::lang::Diagnostic], out_json: &mut Vec<serde_json::Value>| {
        if json {
            let (picked, more) = dagaz::lang::diag::shown(diags);
            out_json.extend(picked.iter().map(|d| {
                serde_json::json!({
                    "severity": if d.is_error() { "error" } else { "warning" },
                    "location": d.span.map(|s| read.sources.location(s)),
                    "message": d.message,
                    "hint": d.hint,
                })
            }));
            if let Some(m) = more {
                out_json.push(serde_json::json!({"severity": "note", "location": null, "message": m, "hint": null}));
            }
        } else {
            eprint!("{}", render_all(diags, &read.sources));
        }
    };
    print_diags(&read.diagnostics, &mut out_json);
    for sel in &sels {
        let (mut game, mut diags) = compile_selected(&read, sel);
        let from_command_line = EXTENSIONS.get().is_some_and(|v| !v.is_empty());
        if let Some(g) = game.as_mut().filter(|_| from_command_line) {
            // The warnings of the rules the command line's modules supply go with them (only the few that
            // are covered are compared: a file of junk may miss thousands).
            let before = std::mem::take(&mut g.missing_rules);
            let attached = add_extensions(g);
            let covered: Vec<_> = before
                .iter()
                .filter(|r| dagaz::extension::is_covered(g, r))
                .map(|r| (r.span, r.clause()))
                .collect();
            g.missing_rules = before;
            dagaz::extension::drop_covered(g);
            if let Err(e) = attached {
                print_error(&format!("{}: {e}", file.display()));
                ok = false;
                game = None;
            } else if !covered.is_empty() {
                diags.retain(|d| {
                    d.is_error()
                        || !covered
                            .iter()
                            .any(|(sp, m)| d.span == Some(*sp) && d.message == *m)
                });
            }
        }
        match &game {
            Some(g) if json => out_json.push(dagaz::check::describe_json(g)),
            Some(g) => text.push_str(&dagaz::check::describe(g)),
            None => ok = false,
        }
        print_diags(&diags, &mut out_json);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&out_json).unwrap_or_default()
        );
    } else {
        print!("{text}");
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn load_or_report(file: &std::path::Path, variant: Option<&str>) -> Option<dagaz::Game> {
    let sel = variant.map(VariantSel::parse).unwrap_or_default();
    match dagaz::load::load_game_with(file, &sel, &read_options()) {
        Ok(mut g) => match add_extensions(&mut g) {
            Ok(()) => Some(g),
            Err(e) => {
                print_error(&format!("{}: {e}", file.display()));
                None
            }
        },
        Err(e) => {
            eprint!("{e}");
            None
        }
    }
}

fn perft(
    file: &std::path::Path,
    depth: u32,
    variant: Option<&str>,
    position: Option<&std::path::Path>,
    divide: bool,
    json: bool,
) -> ExitCode {
    let Some(game) = load_or_report(file, variant) else {
        return ExitCode::FAILURE;
    };
    // perft counts moves, which the missing rules may change: a warning, not a refusal.
    missing_rules_ok(file, &game, true);
    let engine = dagaz::engine::Engine::new(&game);
    let s = match position {
        None => engine.initial(),
        Some(p) => {
            let text = match std::fs::read_to_string(p) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: cannot read `{}`: {e}", p.display());
                    return ExitCode::FAILURE;
                }
            };
            match dagaz::engine::position::parse(&game, &text) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {}: {e}", p.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let t = std::time::Instant::now();
    let mut rows = vec![];
    let result = if divide && depth > 0 {
        engine.legal_moves(&s).and_then(|moves| {
            let mut total = 0;
            let names = dagaz::engine::Move::notations(&game, &moves);
            for (m, name) in moves.iter().zip(names) {
                let n = engine.perft(&engine.apply(&s, m), depth - 1)?;
                rows.push((name, n));
                total += n;
            }
            Ok(total)
        })
    } else {
        engine.perft(&s, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    match result {
        Ok(n) => {
            if json {
                let div: Vec<_> = rows
                    .iter()
                    .map(|(m, n)| serde_json::json!({"move": m, "leaves": n}))
                    .collect();
                let v = serde_json::json!({"depth": depth, "leaves": n, "seconds": secs,
                    "leaves_per_second": n as f64 / secs.max(1e-9), "divide": div});
                println!("{v}");
            } else {
                for (m, n) in &rows {
                    println!("{m}: {n}");
                }
                println!(
                    "perft({depth}) = {n}  ({secs:.3} s, {:.0} leaves/s)",
                    n as f64 / secs.max(1e-9)
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Refuses a game that misses rules (one line on standard error, `false`), unless `allow`; then warns.
fn missing_rules_ok(file: &std::path::Path, game: &dagaz::Game, allow: bool) -> bool {
    use dagaz::compile::missing;
    let rules = missing::distinct(&game.missing_rules);
    if rules.is_empty() {
        return true;
    }
    let path = file.display().to_string();
    if !allow {
        eprintln!("error: {}", missing::refusal(&path, &rules));
        return false;
    }
    eprintln!("warning: {}", missing::playing_without(&path, &rules));
    true
}

fn playout(
    file: &std::path::Path,
    variant: Option<&str>,
    games: u64,
    seed: u64,
    max_plies: u32,
    json: bool,
    allow_missing_rules: bool,
) -> ExitCode {
    use dagaz::engine::playout::{game_rng, random_game};
    let Some(game) = load_or_report(file, variant) else {
        return ExitCode::FAILURE;
    };
    if !missing_rules_ok(file, &game, allow_missing_rules) {
        return ExitCode::FAILURE;
    }
    let engine = dagaz::engine::Engine::new(&game);
    let t = std::time::Instant::now();
    let mut by_type: std::collections::BTreeMap<String, u64> = Default::default();
    let mut wins = vec![0u64; game.players.len()];
    let mut plies = 0u64;
    let mut errors = 0;
    for g in 0..games {
        let mut rng = game_rng(seed, g);
        match random_game(&engine, &mut rng, max_plies) {
            Ok(r) => {
                plies += r.plies as u64;
                let ty = r
                    .outcome
                    .as_ref()
                    .map_or("move-limit".to_string(), |o| o.end_type.clone());
                if let Some(o) = &r.outcome {
                    for (p, &x) in o.results.iter().enumerate() {
                        if x > 0 {
                            wins[p] += 1;
                        }
                    }
                }
                *by_type.entry(ty).or_default() += 1;
            }
            Err(e) => {
                errors += 1;
                eprintln!("game {g}: error: {e}");
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let rate = games as f64 / secs.max(1e-9);
    if json {
        let v = serde_json::json!({"games": games, "seed": seed, "seconds": secs, "playouts_per_second": rate,
            "mean_plies": plies as f64 / games.max(1) as f64, "end_types": by_type, "errors": errors,
            "missing_rules": dagaz::check::missing_rules_json(&game),
            "wins": game.players.iter().zip(&wins).map(|(p, w)| (p.name.clone(), *w)).collect::<std::collections::BTreeMap<_, _>>()});
        println!("{v}");
    } else {
        println!(
            "{games} games in {secs:.3} s: {rate:.1} playouts/s, {:.1} plies per game",
            plies as f64 / games.max(1) as f64
        );
        for (p, w) in game.players.iter().zip(&wins) {
            println!("  {} wins: {w}", p.name);
        }
        for (t, n) in &by_type {
            println!("  end {t}: {n}");
        }
        if errors > 0 {
            println!("  engine errors: {errors}");
        }
    }
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Checks many files, every variant of each: one line per file, then the total and the time taken.
fn check_many(files: &[PathBuf], quiet: bool) -> ExitCode {
    let t = std::time::Instant::now();
    let (mut ok, mut axiom, mut games, mut with_missing) = (0, 0, 0, 0);
    for f in files {
        let read = dagaz::lang::read_file_with(f, &read_options());
        let mut first_error = read
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.one_line(&read.sources));
        let mut is_axiom = false;
        // What the file's games ask for that the engine does not apply, each named once.
        let mut missing: Vec<String> = dagaz::compile::missing::of_file(&read)
            .iter()
            .map(|r| r.what())
            .collect();
        if first_error.is_none() {
            for g in &read.games {
                if dagaz::compile::engine_of(g).is_some() {
                    is_axiom = true;
                    continue;
                }
                let mut diags = vec![];
                games += 1;
                match dagaz::compile::compile(g, &mut diags) {
                    Some(mut game) => {
                        if let Err(e) = add_extensions(&mut game) {
                            first_error = Some(format!("{}: {e}", f.display()));
                            break;
                        }
                        for r in &game.missing_rules {
                            if !missing.contains(&r.what()) {
                                missing.push(r.what());
                            }
                        }
                    }
                    None => {
                        first_error = diags
                            .iter()
                            .find(|d| d.is_error())
                            .map(|d| d.one_line(&read.sources));
                        break;
                    }
                }
            }
            if read.games.is_empty() {
                first_error = Some(format!("{}: no game in the file", f.display()));
            }
        }
        match (&first_error, is_axiom) {
            (Some(e), _) => println!("FAIL {e}"),
            (None, true) => {
                axiom += 1;
                if !quiet {
                    println!("axiom {}", f.display());
                }
            }
            (None, false) => {
                ok += 1;
                if !missing.is_empty() {
                    with_missing += 1;
                }
                if !quiet {
                    if missing.is_empty() {
                        println!("ok   {}", f.display());
                    } else {
                        println!(
                            "ok   {} (plays without: {})",
                            f.display(),
                            missing.join(", ")
                        );
                    }
                }
            }
        }
    }
    let playable = files.len() - axiom;
    println!(
        "{ok}/{playable} files load in every variant ({games} games; {axiom} Axiom-engine files skipped; \
         {with_missing} of the loaded files ask for rules the engine does not apply) in {:.2} s",
        t.elapsed().as_secs_f64()
    );
    if ok == playable {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

// mimalloc: the reader builds and drops many small trees and the engine many small move vectors; glibc's
// malloc spent a third of corpus loading in consolidation.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
