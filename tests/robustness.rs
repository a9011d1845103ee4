//! Feeds mutated corpus files to the reader and compiler: truncated, parentheses removed or doubled, random
//! tokens inserted, bytes that are not UTF-8. Loading must return (errors or a game), never panic or hang.

mod common;

use dagaz::lang::read_bytes;
use dagaz::load::compile_source as compile;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// A small deterministic generator, so a failure names a reproducible case.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn corpus_sample(every: usize) -> Vec<PathBuf> {
    common::corpus_files().into_iter().step_by(every).collect()
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    "\"",
    "$1",
    "$99",
    "(define x (x))",
    "add",
    "(verify",
    "nne",
    ";",
    "(game",
    "(variant",
];

fn mutate(bytes: &[u8], kind: usize, rng: &mut Lcg) -> Vec<u8> {
    let mut b = bytes.to_vec();
    let at = rng.below(b.len());
    match kind {
        0 => b.truncate(at),
        1 => {
            // Remove a parenthesis.
            let parens: Vec<usize> = b
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == b'(' || c == b')')
                .map(|(i, _)| i)
                .collect();
            if !parens.is_empty() {
                b.remove(parens[rng.below(parens.len())]);
            }
        }
        2 => {
            // Double a parenthesis.
            let parens: Vec<usize> = b
                .iter()
                .enumerate()
                .filter(|(_, &c)| c == b'(' || c == b')')
                .map(|(i, _)| i)
                .collect();
            if !parens.is_empty() {
                let i = parens[rng.below(parens.len())];
                b.insert(i, b[i]);
            }
        }
        3 => {
            let t = TOKENS[rng.below(TOKENS.len())];
            let tail = b.split_off(at);
            b.push(b' ');
            b.extend_from_slice(t.as_bytes());
            b.push(b' ');
            b.extend(tail);
        }
        _ => {
            for _ in 0..8 {
                let i = rng.below(b.len());
                if i < b.len() {
                    b[i] = 0x80 | rng.below(128) as u8;
                }
            }
        }
    }
    b
}

/// Loads bytes in every variant; returns (reader errors, games compiled).
fn load_all(name: String, bytes: Vec<u8>, dir: PathBuf) -> (bool, usize) {
    let read = read_bytes(&name, bytes, &dir);
    let mut ok = 0;
    if !read.has_errors() {
        for g in &read.games {
            let mut d = vec![];
            if compile(g, &mut d).is_some() {
                ok += 1;
            }
        }
    }
    (read.has_errors(), ok)
}

#[test]
fn mutated_files_never_panic_or_hang() {
    let files = corpus_sample(4);
    assert!(files.len() > 100);
    let mut rng = Lcg(2026);
    let mut cases = 0;
    let mut paren_errors = 0;
    let mut paren_cases = 0;
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for kind in 0..5 {
            let m = mutate(&bytes, kind, &mut rng);
            let name = format!("{} (mutation {kind})", f.display());
            let dir = f.parent().unwrap().to_path_buf();
            let (tx, rx) = mpsc::channel();
            let n = name.clone();
            std::thread::spawn(move || {
                let r = std::panic::catch_unwind(|| load_all(n, m, dir));
                let _ = tx.send(r.map_err(|_| ()));
            });
            match rx.recv_timeout(Duration::from_secs(20)) {
                Ok(Ok((reader_errors, _))) => {
                    if kind == 1 || kind == 2 {
                        paren_cases += 1;
                        paren_errors += reader_errors as usize;
                    }
                }
                Ok(Err(())) => panic!("loading panicked: {name}"),
                Err(_) => panic!("loading hung for 20 s: {name}"),
            }
            cases += 1;
        }
    }
    println!("{cases} mutated files loaded without panic or hang; {paren_errors}/{paren_cases} paren mutations reported");
    // Removing or doubling a parenthesis unbalances the file, which the reader must always report. (A doubled
    // `)` or `(` inside a comment or string does not: those cases are the only allowed misses.)
    assert!(
        paren_errors * 10 >= paren_cases * 8,
        "{paren_errors}/{paren_cases}"
    );
}

#[test]
fn every_truncation_of_a_small_file_is_an_error_or_a_game() {
    let text = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/breakthrough.zrf"))
        .unwrap();
    for cut in (0..text.len()).step_by(7) {
        let r = std::panic::catch_unwind(|| {
            load_all("cut".into(), text[..cut].to_vec(), PathBuf::from("."))
        });
        assert!(r.is_ok(), "panic at cut {cut}");
    }
}
