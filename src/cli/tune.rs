//! `dagaz tune`: fit the evaluation's piece values, mobility weight and piece-square terms to self-play games and write an
//! alpha-beta preset that uses them (`bot::tune`).

use super::play::{load_or_report, missing_rules_ok};
use super::{print_error, Context};
use crate::bot::tune::{preset, tune as fit, TuneOptions};
use std::path::Path;
use std::process::ExitCode;

/// Plays the self-play games, fits, and writes the preset to `out` (or prints it).
pub fn tune(
    ctx: &Context,
    file: &Path,
    variant: Option<&str>,
    options: &TuneOptions,
    out: Option<&Path>,
) -> ExitCode {
    let Some(game) = load_or_report(ctx, file, variant) else {
        return ExitCode::FAILURE;
    };
    if !missing_rules_ok(file, &game, false) {
        return ExitCode::FAILURE;
    }
    let engine = crate::engine::Engine::new(&game);
    let tuned = match fit(&engine, options) {
        Ok(t) => t,
        Err(e) => {
            print_error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("game");
    let name = out
        .and_then(|p| p.file_stem())
        .and_then(|s| s.to_str())
        .map_or_else(|| format!("{stem}-tuned"), str::to_string);
    let text = preset(&engine, &tuned, options, &name);
    match out {
        None => print!("{text}"),
        Some(p) => {
            if let Err(e) = std::fs::write(p, &text) {
                print_error(&format!("cannot write `{}`: {e}", p.display()));
                return ExitCode::FAILURE;
            }
            eprintln!(
                "tune: {} positions, mean squared error {:.5} -> {:.5}, on the held-out games {:.5} -> {:.5}; wrote {} (use it as `--bots {}`)",
                tuned.positions,
                tuned.error_before,
                tuned.error_after,
                tuned.held_out_before,
                tuned.held_out_after,
                p.display(),
                p.display()
            );
        }
    }
    ExitCode::SUCCESS
}
