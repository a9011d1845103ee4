//! The `dagaz` command line: parses arguments, calls the library, maps errors to exit codes.

use clap::{Parser, Subcommand};
use dagaz::cli::{check, play, print_error, search, tournament, tune, Context};
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
}

/// `--include-path`: taken by the commands that read a game given on the command line, not by `tournament`
/// (whose game includes only files under its own directory, so that a run resumes anywhere), which then
/// neither lists nor accepts it.
#[derive(clap::Args, Clone, Default)]
struct Includes {
    /// A directory whose files games may include, besides their own directory tree (repeatable).
    #[arg(long, value_name = "DIR")]
    include_path: Vec<PathBuf>,
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
        #[command(flatten)]
        includes: Includes,
    },
    /// List the games and variants of a file.
    Variants {
        file: PathBuf,
        #[command(flatten)]
        includes: Includes,
    },
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
        #[command(flatten)]
        includes: Includes,
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
        #[command(flatten)]
        includes: Includes,
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
        #[command(flatten)]
        includes: Includes,
    },
    /// Search the start position once with one built-in bot and print the move, the work (alpha-beta: nodes;
    /// MCTS: iterations) and the search's CPU time: what tests/bench/bench.py times the bots with.
    Search {
        file: PathBuf,
        /// The bot: a preset name or an inline `kind:key=value,...` (built-in kinds only).
        #[arg(long)]
        bot: String,
        /// A variant by 1-based number or by title (default: the first game).
        #[arg(long)]
        variant: Option<String>,
        /// Start from a position file (format: docs/protocol.md, "Position files") instead of the start
        /// position.
        #[arg(long)]
        position: Option<PathBuf>,
        /// The bot's random stream is the one of game 0 of this seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print JSON (move, nodes, CPU seconds, µs per node, nodes per CPU-second) instead of text.
        #[arg(long)]
        json: bool,
        /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)`
        /// (repeatable).
        #[arg(long = "extension", value_name = "NAME")]
        extension: Vec<String>,
        #[command(flatten)]
        includes: Includes,
    },
    /// Fit the evaluation's piece values and mobility weight to self-play games by logistic regression on
    /// their outcomes (Texel's method) and write an alpha-beta preset that uses them (two-player games).
    Tune {
        file: PathBuf,
        /// A variant by 1-based number or by title (default: the first game).
        #[arg(long)]
        variant: Option<String>,
        /// Self-play games.
        #[arg(long, default_value_t = 2000)]
        games: u32,
        /// The self-play bots' depth (alpha-beta).
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// The self-play bots' node budget per move.
        #[arg(long, default_value_t = 20000)]
        nodes: u64,
        /// Fit no piece-square terms (piece values and the mobility weight only).
        #[arg(long)]
        no_squares: bool,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies at the start of each game.
        #[arg(long, default_value_t = 4)]
        opening_plies: u32,
        /// Games longer than this count as draws.
        #[arg(long, default_value_t = 300)]
        max_plies: u32,
        /// Write the preset here (a `.toml` file usable as `--bots FILE`); default: print it.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Add a Rust extension module to the game, as if the file named it with `(extension NAME)`
        /// (repeatable).
        #[arg(long = "extension", value_name = "NAME")]
        extension: Vec<String>,
        #[command(flatten)]
        includes: Includes,
    },
    /// Put the shards of a run (`tournament --shard K/N`, played anywhere) together into one run folder, the same
    /// as one machine would have written: games, standings, end conditions, reports, the SPRT decided on the
    /// merged pairs; or the shards of an evaluation (`evaluate --shard K/N`) into one evaluation.csv.
    Merge {
        /// The merged run's folder (new).
        out: PathBuf,
        /// The shard folders, one per shard 1..N.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The game file (default: found by the hash the shards recorded, from each shard's recorded path).
        #[arg(long)]
        game: Option<PathBuf>,
    },
    /// The progress of a run or of the shards of one: games finished per shard and in all, the standings so
    /// far, and the SPRT's LLR over the games finished in all shards.
    Status {
        /// The run's folder, or its shards' folders.
        #[arg(required = true)]
        dirs: Vec<PathBuf>,
        /// The game file (default: found by the hash the run recorded).
        #[arg(long)]
        game: Option<PathBuf>,
    },
    /// List the bot presets a name reaches: files in --bots-dir folders and ./bots/, then the built-in ones.
    Bots {
        /// A folder of bot presets, searched first (repeatable).
        #[arg(long, value_name = "DIR")]
        bots_dir: Vec<PathBuf>,
    },
    /// Play a tournament between bots and write its games, standings and report to results/<run>/. With no
    /// arguments: a small tournament on the built-in Breakthrough.
    Tournament(Box<tournament::TournamentArgs>),
    /// Evaluate rule sets (files, folders, FILE:VARIANT): self-play with a stronger and a weaker bot, every
    /// measure with its 95% interval, into evaluation.csv and evaluation.html.
    Evaluate(Box<dagaz::cli::evaluate::EvaluateArgs>),
    /// Evaluate a file once per value of its `(define NAME ...)`s (--set NAME=v1,v2,...), as `evaluate` does.
    Sweep(Box<dagaz::cli::evaluate::SweepArgs>),
}

/// A print to standard output or error whose reader has gone away (the `println!` family panics on it once
/// SIGPIPE is ignored) ends the process quietly with status 0, like a filter whose reader has what it wanted.
/// Every other panic goes to the hook that was there.
fn quiet_on_closed_output() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let p = info.payload();
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let closed = (msg.starts_with("failed printing to stdout")
            || msg.starts_with("failed printing to stderr"))
            && msg.contains("Broken pipe");
        if closed {
            std::process::exit(0);
        }
        default(info)
    }));
}

fn main() -> ExitCode {
    // Which build this is, for the fingerprint of a run (`dagaz build`).
    dagaz::tournament::shards::set_build_commit(dagaz_build_stamp::build_commit!());
    // SIGPIPE is ignored by every command: a write to a closed pipe (a bot's input, our own output) fails
    // instead of killing the process with status 141 wherever it was. Standard output or error closed by their
    // reader (`dagaz playout ... | head -1`) ends the command quietly with status 0 at the print that failed
    // (the hook below); a tournament writes its standings with the errors ignored.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    quiet_on_closed_output();
    let cli = Cli::parse();
    // `DAGAZ_GENERAL_PATH` (every engine on the general path) must say on or off.
    if let Err(e) = dagaz::engine::EngineOptions::from_env() {
        print_error(&e);
        return ExitCode::FAILURE;
    }
    // What a bot starts and leaves behind becomes ours, to be ended with the run (its only children are bots).
    if matches!(
        cli.command,
        Command::Tournament(_) | Command::Evaluate(_) | Command::Sweep(_)
    ) {
        dagaz::bot::external::become_subreaper();
    }
    // Unknown module names are refused before anything is read.
    let names = match &cli.command {
        Command::Check { extension, .. }
        | Command::Perft { extension, .. }
        | Command::Session { extension, .. }
        | Command::Playout { extension, .. }
        | Command::Search { extension, .. }
        | Command::Tune { extension, .. } => extension.clone(),
        Command::Tournament(a) => a.extension.clone(),
        Command::Variants { .. }
        | Command::Evaluate(_)
        | Command::Sweep(_)
        | Command::Merge { .. }
        | Command::Status { .. }
        | Command::Bots { .. } => vec![],
    };
    if let Some(bad) = names.iter().find(|n| dagaz::extension::lookup(n).is_none()) {
        print_error(&dagaz::extension::unknown(bad));
        return ExitCode::FAILURE;
    }
    let includes = match &cli.command {
        Command::Check { includes, .. }
        | Command::Variants { includes, .. }
        | Command::Perft { includes, .. }
        | Command::Session { includes, .. }
        | Command::Playout { includes, .. }
        | Command::Search { includes, .. }
        | Command::Tune { includes, .. } => includes.include_path.clone(),
        Command::Tournament(_)
        | Command::Evaluate(_)
        | Command::Sweep(_)
        | Command::Merge { .. }
        | Command::Status { .. }
        | Command::Bots { .. } => vec![],
    };
    let ctx = Context {
        include_paths: includes,
        extensions: names,
    };
    let ctx = &ctx;
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
                check::check(ctx, &files[0], variant.as_deref(), all_variants, json)
            } else {
                check::check_many(ctx, &files, quiet)
            }
        }
        Command::Variants { file, .. } => check::variants(ctx, &file),
        Command::Merge { out, dirs, .. }
            if dirs.iter().all(|d| dagaz::evaluate::is_evaluation(d)) =>
        {
            exit_code(dagaz::evaluate::merge(&out, &dirs))
        }
        Command::Merge { out, dirs, game } => tournament::merge(&out, &dirs, game.as_deref()),
        Command::Evaluate(args) => exit_code(dagaz::cli::evaluate::evaluate(*args)),
        Command::Sweep(args) => exit_code(dagaz::cli::evaluate::sweep(*args)),
        Command::Status { dirs, game } => tournament::status(&dirs, game.as_deref()),
        Command::Bots { bots_dir } => {
            tournament::bots(&bots_dir);
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
        } => play::perft(
            ctx,
            &file,
            depth,
            variant.as_deref(),
            position.as_deref(),
            divide,
            json,
        ),
        Command::Session { file, variant, .. } => play::session(ctx, &file, variant.as_deref()),
        Command::Playout {
            file,
            variant,
            games,
            seed,
            max_plies,
            json,
            allow_missing_rules,
            ..
        } => play::playout(
            ctx,
            &file,
            variant.as_deref(),
            games,
            seed,
            max_plies,
            json,
            allow_missing_rules,
        ),
        Command::Search {
            file,
            bot,
            variant,
            position,
            seed,
            json,
            ..
        } => search::search(
            ctx,
            &file,
            variant.as_deref(),
            &bot,
            position.as_deref(),
            seed,
            json,
        ),
        Command::Tune {
            file,
            variant,
            games,
            depth,
            seed,
            opening_plies,
            max_plies,
            nodes,
            no_squares,
            out,
            ..
        } => tune::tune(
            ctx,
            &file,
            variant.as_deref(),
            &dagaz::bot::tune::TuneOptions {
                games,
                depth,
                seed,
                opening_plies,
                max_plies,
                nodes,
                squares: !no_squares,
            },
            out.as_deref(),
        ),
        Command::Tournament(args) => match tournament::tournament(*args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                print_error(&e);
                ExitCode::FAILURE
            }
        },
    }
}

fn exit_code(r: Result<(), String>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            print_error(&e);
            ExitCode::FAILURE
        }
    }
}

// mimalloc: the reader builds and drops many small trees and the engine many small move vectors; glibc's
// malloc spent a third of corpus loading in consolidation.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
