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
    },
    /// List the games and variants of a file.
    Variants { file: PathBuf },
    /// Count the leaf positions of the legal-move tree to a depth (move-generator check and benchmark).
    Perft {
        file: PathBuf,
        depth: u32,
        #[arg(long)]
        variant: Option<String>,
        /// Start from a position file (see `dagaz::engine::position`) instead of the start position.
        #[arg(long)]
        position: Option<PathBuf>,
        /// Show the count below each first move.
        #[arg(long)]
        divide: bool,
        #[arg(long)]
        json: bool,
    },
    /// Drive the engine through JSON lines on stdin/stdout (see docs/protocol.md).
    Session {
        file: PathBuf,
        #[arg(long)]
        variant: Option<String>,
    },
    /// Play uniformly random games and report how they ended and how fast.
    Playout {
        file: PathBuf,
        #[arg(long)]
        variant: Option<String>,
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game that reaches this many plies ends as a draw of type `move-limit`.
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    // Like any Unix filter, end quietly when the reader of our output goes away (`dagaz ... | head`), instead of
    // panicking on a broken pipe.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            files,
            quiet,
            variant,
            all_variants,
            json,
        } => {
            if files.len() == 1 {
                check(&files[0], variant.as_deref(), all_variants, json)
            } else {
                check_many(&files, quiet)
            }
        }
        Command::Variants { file } => variants(&file),
        Command::Perft {
            file,
            depth,
            variant,
            position,
            divide,
            json,
        } => perft(
            &file,
            depth,
            variant.as_deref(),
            position.as_deref(),
            divide,
            json,
        ),
        Command::Session { file, variant } => {
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
        } => playout(&file, variant.as_deref(), games, seed, max_plies, json),
    }
}

fn variants(file: &std::path::Path) -> ExitCode {
    let read = dagaz::lang::read_file(file);
    if read.has_errors() {
        eprint!("{}", render_all(&read.diagnostics, &read.sources));
        return ExitCode::FAILURE;
    }
    for g in &read.games {
        println!(
            "{:3}  {}{}",
            g.number,
            g.title,
            if g.default { "  (default)" } else { "" }
        );
    }
    ExitCode::SUCCESS
}

fn check(file: &std::path::Path, variant: Option<&str>, all: bool, json: bool) -> ExitCode {
    let read = dagaz::lang::read_file(file);
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
            out_json.extend(diags.iter().map(|d| {
                serde_json::json!({
                    "severity": if d.is_error() { "error" } else { "warning" },
                    "location": d.span.map(|s| read.sources.location(s)),
                    "message": d.message,
                    "hint": d.hint,
                })
            }));
        } else {
            eprint!("{}", render_all(diags, &read.sources));
        }
    };
    print_diags(&read.diagnostics, &mut out_json);
    for sel in &sels {
        let (game, diags) = compile_selected(&read, sel);
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
    match dagaz::load::load_game(file, &sel) {
        Ok(g) => Some(g),
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
            for m in &moves {
                let n = engine.perft(&engine.apply(&s, m), depth - 1)?;
                rows.push((m.notation(&game), n));
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

fn playout(
    file: &std::path::Path,
    variant: Option<&str>,
    games: u64,
    seed: u64,
    max_plies: u32,
    json: bool,
) -> ExitCode {
    use dagaz::engine::playout::{game_rng, random_game};
    let Some(game) = load_or_report(file, variant) else {
        return ExitCode::FAILURE;
    };
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
    let (mut ok, mut axiom, mut games) = (0, 0, 0);
    for f in files {
        let read = dagaz::lang::read_file(f);
        let mut first_error = read
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.one_line(&read.sources));
        let mut is_axiom = false;
        if first_error.is_none() {
            for g in &read.games {
                if dagaz::compile::engine_of(g).is_some() {
                    is_axiom = true;
                    continue;
                }
                let mut diags = vec![];
                games += 1;
                if dagaz::compile::compile(g, &mut diags).is_none() {
                    first_error = diags
                        .iter()
                        .find(|d| d.is_error())
                        .map(|d| d.one_line(&read.sources));
                    break;
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
                if !quiet {
                    println!("ok   {}", f.display());
                }
            }
        }
    }
    let playable = files.len() - axiom;
    println!(
        "{ok}/{playable} files load in every variant ({games} games; {axiom} Axiom-engine files skipped) in {:.2} s",
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
