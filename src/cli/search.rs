//! `dagaz search`: one bot's search from a position, timed: what `tests/bench/bench.py` measures the bots with.

use super::play::{load_or_report, missing_rules_ok};
use super::{print_error, Context};
use std::process::ExitCode;

/// The CPU time this thread has used, in seconds (the wall clock where the platform has no thread clock).
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9);
        }
    }
    None
}

/// Searches the start position (or `--position`) once with one bot and prints the move it chose, its work
/// (alpha-beta: nodes; MCTS: iterations) and the search's CPU time on this thread.
#[allow(clippy::too_many_arguments)]
pub fn search(
    ctx: &Context,
    file: &std::path::Path,
    variant: Option<&str>,
    bot: &str,
    position: Option<&std::path::Path>,
    seed: u64,
    json: bool,
) -> ExitCode {
    let spec = match crate::bot::BotSpec::resolve(bot) {
        Ok(s) => s,
        Err(e) => {
            print_error(&e);
            return ExitCode::FAILURE;
        }
    };
    if matches!(spec, crate::bot::BotSpec::External(_)) {
        print_error("`search` times the built-in bots only (an external bot's work is not its own CPU time)");
        return ExitCode::FAILURE;
    }
    let mut b = match spec.build() {
        Ok(b) => b,
        Err(e) => {
            print_error(&e);
            return ExitCode::FAILURE;
        }
    };
    let Some(game) = load_or_report(ctx, file, variant) else {
        return ExitCode::FAILURE;
    };
    if !missing_rules_ok(file, &game, false) {
        return ExitCode::FAILURE;
    }
    let engine = crate::engine::Engine::new(&game);
    let s = match position {
        None => engine.initial(),
        Some(p) => {
            let text = match std::fs::read_to_string(p) {
                Ok(t) => t,
                Err(e) => {
                    print_error(&format!("cannot read `{}`: {e}", p.display()));
                    return ExitCode::FAILURE;
                }
            };
            match crate::engine::position::parse(&game, &text) {
                Ok(s) => s,
                Err(e) => {
                    print_error(&format!("{}: {e}", p.display()));
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let moves = match engine.legal_moves(&s) {
        Ok(m) => m,
        Err(e) => {
            print_error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    match engine.outcome(&s, &moves, &[]) {
        Ok(None) if !moves.is_empty() => {}
        Ok(_) => {
            print_error("the game is over in this position: there is nothing to search");
            return ExitCode::FAILURE;
        }
        Err(e) => {
            print_error(&e.to_string());
            return ExitCode::FAILURE;
        }
    }
    let mut rng = crate::engine::playout::game_rng(seed, 0);
    let wall = std::time::Instant::now();
    let cpu0 = thread_cpu_seconds();
    let r = b.choose(&engine, &s, &moves, &[], &mut rng);
    let cpu = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_secs_f64(),
    };
    let wall = wall.elapsed().as_secs_f64();
    let i = match r {
        Ok(i) => i,
        Err(e) => {
            print_error(&e.to_string());
            return ExitCode::FAILURE;
        }
    };
    let nodes = b.last_nodes();
    let chosen = moves[i].notation(&game);
    let per = nodes.filter(|&n| n > 0).map(|n| cpu * 1e6 / n as f64);
    let rate = nodes.map(|n| n as f64 / cpu.max(1e-9));
    if json {
        let v = serde_json::json!({"bot": spec.inline(), "move": chosen, "nodes": nodes,
            "cpu_seconds": cpu, "seconds": wall, "micros_per_node": per, "nodes_per_cpu_second": rate});
        println!("{v}");
    } else {
        println!("{}: {chosen}", spec.name());
        match (nodes, per, rate) {
            (Some(n), Some(per), Some(rate)) => println!(
                "  {n} nodes (MCTS: iterations) in {cpu:.3} CPU-seconds ({wall:.3} s): {per:.1} µs each, {rate:.0}/s"
            ),
            _ => println!("  {cpu:.3} CPU-seconds ({wall:.3} s)"),
        }
    }
    ExitCode::SUCCESS
}
