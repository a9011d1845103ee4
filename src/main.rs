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
    /// Load a game file and show what it contains, or every error in it.
    Check {
        file: PathBuf,
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            file,
            variant,
            all_variants,
            json,
        } => check(&file, variant.as_deref(), all_variants, json),
        Command::Variants { file } => variants(&file),
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
