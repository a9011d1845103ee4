//! `dagaz perft`, `dagaz playout` and `dagaz session`: one game loaded and played.

use super::{print_error, Context};
use crate::load::VariantSel;
use std::process::ExitCode;

pub fn load_or_report(
    ctx: &Context,
    file: &std::path::Path,
    variant: Option<&str>,
) -> Option<crate::Game> {
    let sel = variant.map(VariantSel::parse).unwrap_or_default();
    match crate::load::load_game_with(file, &sel, &ctx.read_options()) {
        Ok(mut g) => match ctx.add_extensions(&mut g) {
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

pub fn perft(
    ctx: &Context,
    file: &std::path::Path,
    depth: u32,
    variant: Option<&str>,
    position: Option<&std::path::Path>,
    divide: bool,
    json: bool,
) -> ExitCode {
    let Some(game) = load_or_report(ctx, file, variant) else {
        return ExitCode::FAILURE;
    };
    // perft counts moves, which the missing rules may change: a warning, not a refusal.
    missing_rules_ok(file, &game, true);
    let engine = crate::engine::Engine::new(&game);
    let s = match position {
        None => engine.initial(),
        Some(p) => {
            let text = match crate::lang::read_settings(p) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: cannot read `{}`: {e}", p.display());
                    return ExitCode::FAILURE;
                }
            };
            match crate::engine::position::parse(&game, &text) {
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
            let names = crate::engine::Move::notations(&game, &moves);
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
pub fn missing_rules_ok(file: &std::path::Path, game: &crate::Game, allow: bool) -> bool {
    use crate::compile::missing;
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

#[allow(clippy::too_many_arguments)] // one argument per flag of the command
pub fn playout(
    ctx: &Context,
    file: &std::path::Path,
    variant: Option<&str>,
    games: u64,
    seed: u64,
    max_plies: u32,
    json: bool,
    allow_missing_rules: bool,
) -> ExitCode {
    use crate::engine::playout::{game_rng, random_game};
    let Some(game) = load_or_report(ctx, file, variant) else {
        return ExitCode::FAILURE;
    };
    if !missing_rules_ok(file, &game, allow_missing_rules) {
        return ExitCode::FAILURE;
    }
    let engine = crate::engine::Engine::new(&game);
    let t = std::time::Instant::now();
    let cpu0 = super::search::thread_cpu_seconds();
    let mut by_type: std::collections::BTreeMap<String, u64> = Default::default();
    let mut ends = PlayoutEnds::default();
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
                ends.add(&ty, r.outcome.as_ref(), game.players.len());
                *by_type.entry(ty).or_default() += 1;
            }
            Err(e) => {
                errors += 1;
                eprintln!("game {g}: error: {e}");
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    // The games' CPU time on this thread (loading left out): the measure `tests/bench/bench.py` compares bots with.
    let cpu = match (cpu0, super::search::thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => secs,
    };
    let rate = games as f64 / secs.max(1e-9);
    if json {
        let v = serde_json::json!({"games": games, "seed": seed, "seconds": secs, "cpu_seconds": cpu, "playouts_per_second": rate,
            "mean_plies": plies as f64 / games.max(1) as f64, "end_types": by_type, "errors": errors,
            "missing_rules": crate::check::missing_rules_json(&game), "ends": ends.json(&game),
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
        for line in ends.lines(&game) {
            println!("  {line}");
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

/// A playout run's games per end condition (type, name, priority: the key of the tournament's
/// `end_conditions.csv`), each with per player the games won, drawn and lost.
#[derive(Default)]
struct PlayoutEnds(std::collections::BTreeMap<EndKey, (u64, Vec<[u64; 3]>)>);

/// An end condition: its type, name and priority.
type EndKey = (String, String, i32);

impl PlayoutEnds {
    /// One finished game: its end type and outcome (none at the move limit, a draw for everyone, as in a
    /// tournament).
    fn add(&mut self, end_type: &str, outcome: Option<&crate::engine::Outcome>, players: usize) {
        let (key, results) = match outcome {
            Some(o) => (
                (o.end_type.clone(), o.name.clone(), o.priority),
                o.results.clone(),
            ),
            None => ((end_type.into(), end_type.into(), 0), vec![0; players]),
        };
        let e = self
            .0
            .entry(key)
            .or_insert_with(|| (0, vec![[0; 3]; players]));
        e.0 += 1;
        for (c, &r) in e.1.iter_mut().zip(&results) {
            c[match r.signum() {
                1 => 0,
                0 => 1,
                _ => 2,
            }] += 1;
        }
    }

    /// `ends` of `--json`: one object per end condition.
    fn json(&self, game: &crate::Game) -> serde_json::Value {
        let rows = self.0.iter().map(|((ty, name, priority), (games, per))| {
            let players: serde_json::Map<_, _> = game
                .players
                .iter()
                .zip(per)
                .map(|(p, c)| {
                    let v = serde_json::json!({"wins": c[0], "draws": c[1], "losses": c[2]});
                    (p.name.clone(), v)
                })
                .collect();
            serde_json::json!({"type": ty, "name": name, "priority": priority, "games": games, "players": players})
        });
        serde_json::Value::Array(rows.collect())
    }

    /// The text lines: `end TYPE "NAME" (priority P): N games: White 3 won / 0 drawn / 1 lost; ...`, the
    /// name only where it is not the type, the priority only where it is not 0 (the engine's own
    /// stalemate, where no declared condition held, says so instead).
    fn lines(&self, game: &crate::Game) -> Vec<String> {
        self.0
            .iter()
            .map(|((ty, name, priority), (games, per))| {
                let mut l = format!("end {ty}");
                if name != ty {
                    l += &format!(" \"{name}\"");
                }
                if *priority == i32::MIN {
                    l += " (no legal move, no declared condition held)";
                } else if *priority != 0 {
                    l += &format!(" (priority {priority})");
                }
                let split: Vec<String> = game
                    .players
                    .iter()
                    .zip(per)
                    .map(|(p, c)| {
                        format!("{} {} won / {} drawn / {} lost", p.name, c[0], c[1], c[2])
                    })
                    .collect();
                format!("{l}: {games} games: {}", split.join("; "))
            })
            .collect()
    }
}

/// `dagaz session`: the JSON-lines protocol on standard input and output.
pub fn session(ctx: &Context, file: &std::path::Path, variant: Option<&str>) -> ExitCode {
    let Some(game) = load_or_report(ctx, file, variant) else {
        return ExitCode::FAILURE;
    };
    let stdin = std::io::stdin();
    match crate::session::run(&game, stdin.lock(), std::io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
