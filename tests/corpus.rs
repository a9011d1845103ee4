//! Loads every `.zrf` file of `../shared/corpus/zrf` in every variant and reports, per failing file, the first
//! error with its location. The success rate may only go up: raise `FLOOR` when support grows.

mod common;

use dagaz::compile::{compile, engine_of};
use dagaz::lang::read_file;
use std::collections::BTreeMap;
use std::path::Path;

/// Share of non-Axiom corpus files that load in every variant. A ratchet: never lower it.
const FLOOR: f64 = 0.97;

/// The outcome of loading one file: None if every variant compiled, else the first error and whether the file
/// is an Axiom shell.
fn load_one(path: &Path) -> (bool, Option<String>, usize) {
    let read = read_file(path);
    if read.has_errors() {
        let d = read.diagnostics.iter().find(|d| d.is_error()).unwrap();
        return (false, Some(d.one_line(&read.sources)), 0);
    }
    if read.games.is_empty() {
        return (false, Some("no game in file".into()), 0);
    }
    let mut axiom = false;
    for g in &read.games {
        if engine_of(g).is_some() {
            axiom = true;
            continue;
        }
        let mut diags = vec![];
        if compile(g, &mut diags).is_none() {
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
            return (axiom, Some(msg), read.games.len());
        }
    }
    (axiom, None, read.games.len())
}

#[test]
fn corpus_loads() {
    let files = common::corpus_files();
    assert!(
        files.len() >= 500,
        "expected the 509-file corpus, found {}",
        files.len()
    );
    let mut ok = 0;
    let mut total = 0;
    let mut axiom = 0;
    let mut games = 0;
    let mut by_message: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = vec![];
    for f in &files {
        let (is_axiom, err, n) = load_one(f);
        if is_axiom {
            axiom += 1;
            continue;
        }
        total += 1;
        games += n;
        match err {
            None => ok += 1,
            Some(e) => {
                // Group by the message without its location: `unknown instruction `foo``.
                let kind = e.split(": error: ").nth(1).unwrap_or(&e).to_string();
                *by_message.entry(kind).or_default() += 1;
                failures.push(format!(
                    "{}: {e}",
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
    kinds.sort_by(|a, b| b.1.cmp(&a.1));
    println!("\nfailures by message:");
    for (k, n) in &kinds {
        println!("{n:4}  {k}");
    }
    let rate = ok as f64 / total as f64;
    println!(
        "\ncorpus: {ok}/{total} files load in every variant ({:.1}%), {games} games; {axiom} Axiom-engine files skipped",
        rate * 100.0
    );
    assert!(
        rate >= FLOOR,
        "corpus success rate {rate:.3} fell below the floor {FLOOR}"
    );
}
