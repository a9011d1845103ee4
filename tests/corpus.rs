//! Loads every `.zrf` file of `../shared/corpus/zrf` in every variant and reports, per failing file, the first
//! error with its location. Files fall in two groups: (a) rules complete in the ZRF, (b) rules partly outside
//! it (Dagaz game scripts, or options, sections and end conditions the engine does not apply; see
//! `common::RulesOutside`). Group (b) is printed with what each file misses. The success rate of group (a) may
//! only go up: raise `FLOOR` when support grows.
//!
//! `cargo test --release --test corpus -- --nocapture` prints the figures.

mod common;

use common::RulesOutside;
use dagaz::compile::engine_of;
use dagaz::lang::read_file;
use dagaz::load::compile_source as compile;
use std::collections::BTreeMap;
use std::path::Path;

/// Share of group (a) corpus files (rules complete in the ZRF, no Axiom engine) that load in every variant. A
/// ratchet: never lower it. Measured 152/156 when the groups were introduced.
const FLOOR: f64 = 0.974;

/// The outcome of loading one file: whether it is an Axiom shell, the first error (None if every variant
/// compiled), the number of games, and where its rules are.
fn load_one(
    path: &Path,
    scripts: &BTreeMap<String, Vec<String>>,
) -> (bool, Option<String>, usize, RulesOutside) {
    let name = common::corpus_name(path);
    let read = read_file(path);
    if read.has_errors() {
        let d = read.diagnostics.iter().find(|d| d.is_error()).unwrap();
        let outside = RulesOutside::of(&name, scripts, &read, []);
        return (false, Some(d.one_line(&read.sources)), 0, outside);
    }
    if read.games.is_empty() {
        let outside = RulesOutside::of(&name, scripts, &read, []);
        return (false, Some("no game in file".into()), 0, outside);
    }
    let mut axiom = false;
    let mut games = vec![];
    for g in &read.games {
        if engine_of(g).is_some() {
            axiom = true;
            continue;
        }
        let mut diags = vec![];
        match compile(g, &mut diags) {
            Some(game) => games.push(game),
            None => {
                let msg = diags
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| {
                        format!(
                            "variant {} `{}`: {}",
                            g.number,
                            g.title,
                            d.one_line(&read.sources)
                        )
                    })
                    .unwrap_or_else(|| "compile failed without an error".into());
                let outside = RulesOutside::of(&name, scripts, &read, &games);
                return (axiom, Some(msg), read.games.len(), outside);
            }
        }
    }
    let outside = RulesOutside::of(&name, scripts, &read, &games);
    (axiom, None, read.games.len(), outside)
}

#[test]
fn corpus_loads() {
    let files = common::corpus_files();
    assert!(
        files.len() >= 500,
        "expected the 509-file corpus, found {}",
        files.len()
    );
    let scripts = common::dagaz_rule_scripts();
    // [group a, group b]: files that load in every variant, and all files.
    let mut ok = [0; 2];
    let mut total = [0; 2];
    let mut axiom = 0;
    let mut games = 0;
    let mut by_message: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = vec![];
    let mut groups = vec![];
    for f in &files {
        let (is_axiom, err, n, outside) = load_one(f, &scripts);
        if is_axiom {
            axiom += 1;
            continue;
        }
        let g = usize::from(!outside.complete());
        groups.push((common::corpus_name(f), outside));
        total[g] += 1;
        games += n;
        match err {
            None => ok[g] += 1,
            Some(e) => {
                // Group by the message without its location: `unknown instruction `foo``.
                let kind = e.split(": error: ").nth(1).unwrap_or(&e).to_string();
                *by_message.entry(kind).or_default() += 1;
                failures.push(format!(
                    "{}{}: {e}",
                    if g == 0 { "" } else { "(group b) " },
                    f.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                        .unwrap_or(f)
                        .display()
                ));
            }
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    let mut kinds: Vec<_> = by_message.into_iter().collect();
    kinds.sort_by_key(|b| std::cmp::Reverse(b.1));
    println!("\nfailures by message:");
    for (k, n) in &kinds {
        println!("{n:4}  {k}");
    }
    common::print_group_b(&groups);
    let rate = ok[0] as f64 / total[0] as f64;
    println!(
        "\ncorpus: group (a), rules complete in the ZRF: {}/{} files load in every variant ({:.1}%); \
         group (b), rules partly outside it: {}/{}; {games} games; {axiom} Axiom-engine files skipped",
        ok[0],
        total[0],
        rate * 100.0,
        ok[1],
        total[1],
    );
    assert!(
        rate >= FLOOR,
        "group (a) corpus success rate {rate:.3} fell below the floor {FLOOR}"
    );
}
