//! The Dagaz site's rule scripts (`compile::dagaz_site`): the table built into the binary matches
//! `../shared/reference/dagaz-scripts.csv` and the corpus; a Dagaz-site file is recognised by its content and
//! nothing else is; and of the 244 corpus files whose pages load rule scripts, none plays silently: each
//! script is applied (an option the engine applies, a module, or no rule at all) or listed as a missing rule,
//! so that `playout` and `tournament` refuse the game unless given `--allow-missing-rules`.
//!
//! `cargo test --release --test dagaz_site -- --nocapture` prints the counts and the scripts still missing.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
mod common;

use dagaz::compile::dagaz_site::{self, ScriptStatus};
use dagaz::compile::dagaz_site_table::FILES;
use dagaz::compile::MissingKind;
use dagaz::lang::read_file;
use dagaz::load::{compile_selected_with, VariantSel};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

/// The extension modules written for Dagaz-site files (their headers name the files), by corpus path.
const FILE_MODULES: &[(&str, &str)] = &[
    (
        "DagazProject.github.io/arrange/zrf/connect-four.zrf",
        "connect-four",
    ),
    ("DagazProject.github.io/arrange/zrf/hex.zrf", "hex"),
    ("DagazProject.github.io/go/zrf/go.zrf", "go"),
    ("DagazProject.github.io/go/zrf/atari-go.zrf", "atari-go"),
    ("DagazProject.github.io/go/zrf/alak.zrf", "alak"),
    ("DagazProject.github.io/mancala/zrf/oware.zrf", "oware"),
    (
        "DagazProject.github.io/mancala/zrf/alemungula.zrf",
        "alemungula",
    ),
    ("DagazProject.github.io/mancala/zrf/kalah.zrf", "kalah"),
    (
        "DagazProject.github.io/mancala/zrf/mini-mancala.zrf",
        "mini-mancala",
    ),
    ("DagazProject.github.io/mancala/zrf/bakuk.zrf", "bakuk"),
    ("DagazProject.github.io/mancala/zrf/dakon.zrf", "dakon"),
    ("DagazProject.github.io/mancala/zrf/ohvalhu.zrf", "ohvalhu"),
    (
        "DagazProject.github.io/checkers/zrf/stapeldammen.zrf",
        "stapeldammen",
    ),
    (
        "DagazProject.github.io/checkers/zrf/adiuh-checkers.zrf",
        "adiuh-checkers",
    ),
];

/// Corpus files outside the Dagaz site's folder with the text of a Dagaz-site file.
const COPIES: &[&str] = &["ZRF/Spock/spock.zrf = DagazProject.github.io/elimination/zrf/spock.zrf"];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf")
}

/// The csv's rows with rule scripts: (file, scripts).
fn csv_rows() -> Vec<(String, Vec<String>)> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/dagaz-scripts.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("file,dagaz_pages,rule_scripts"));
    lines
        .filter_map(|l| {
            let cols: Vec<&str> = l.split(',').collect();
            assert_eq!(cols.len(), 3, "{l}");
            let scripts: Vec<String> = cols[2]
                .split(';')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            (!scripts.is_empty()).then(|| (cols[0].to_string(), scripts))
        })
        .collect()
}

#[test]
fn the_table_matches_the_csv_and_the_corpus() {
    let rows = csv_rows();
    assert_eq!(rows.len(), 244, "the csv lists 244 files with rule scripts");
    assert_eq!(FILES.len(), rows.len(), "run scripts/dagaz_site_table.py");
    let mut prints = std::collections::HashSet::new();
    for (f, (path, scripts)) in FILES.iter().zip(&rows) {
        assert_eq!(f.path, path, "run scripts/dagaz_site_table.py");
        assert_eq!(
            f.scripts,
            &scripts[..],
            "{path}: scripts differ from the csv"
        );
        let read = read_file(&corpus().join(path));
        let title = read.games.first().map(|g| g.title.as_str()).unwrap_or("");
        assert_eq!(f.title, title, "{path}: title");
        let text = &read.sources.files()[0].text;
        assert_eq!(f.fingerprint, dagaz_site::fingerprint(text), "{path}");
        assert!(
            prints.insert(f.fingerprint),
            "{path}: fingerprint not unique"
        );
        assert_eq!(
            dagaz_site::recognise(&read).map(|s| s.path),
            Some(f.path),
            "{path} not recognised"
        );
    }
}

#[test]
fn only_those_files_are_recognised() {
    let table: Vec<&str> = FILES.iter().map(|f| f.path).collect();
    let mut others = 0;
    let mut copies: Vec<String> = vec![];
    for p in common::corpus_files() {
        let name = common::corpus_name(&p);
        if table.contains(&name.as_str()) {
            continue;
        }
        let read = read_file(&p);
        if let Some(site) = dagaz_site::recognise(&read) {
            copies.push(format!("{name} = {}", site.path));
        }
        others += 1;
    }
    assert!(others > 200, "{others}");
    // The corpus holds copies of some Dagaz-site files elsewhere (the same text but for comments and
    // layout): they are the same games, and loaded from there they miss the same scripts.
    assert_eq!(copies, COPIES, "files taken for Dagaz-site files");
    // Our own rule sets, some with the name and title of a Dagaz-site file (chess, shogi, kalah, oware,
    // amazons, english-checkers), are not Dagaz-site files.
    for p in common::games_dir() {
        let read = read_file(&p);
        assert!(dagaz_site::recognise(&read).is_none(), "{}", p.display());
    }
}

#[test]
fn a_copy_with_other_layout_and_comments_is_recognised_and_its_scripts_listed() {
    let src = corpus().join("DagazProject.github.io/checkers/zrf/italian-checkers.zrf");
    let text = std::fs::read_to_string(&src).unwrap();
    let copy = format!(
        "; my copy\r\n{}",
        text.replace('\n', "\r\n").replace("  ", "\t")
    );
    let dir = Scratch::new("site");
    let p = dir.join("renamed.zrf");
    std::fs::write(&p, copy).unwrap();
    let out = Command::new(BIN)
        .args(["playout", p.to_str().unwrap(), "--games", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("Dagaz rule script \"italian\"")
            && err.contains("Dagaz rule script \"italian-checkers-captures\"")
            && err.contains("--allow-missing-rules"),
        "{err}"
    );
    let out = Command::new(BIN)
        .args(["check", p.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("missing rules (2)") && text.contains("italian-checkers-captures"),
        "{text}"
    );
    // With the rule changed, it is another game: not recognised.
    let changed = text_of(&src).replace("Italian Checkers", "Checkers of mine");
    std::fs::write(&p, changed).unwrap();
    assert!(dagaz_site::recognise(&read_file(&p)).is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

fn text_of(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Per file: Err(load error) when no variant loads or, over every variant that loads, each script's status (applied if applied
/// in every variant; else the missing rule it is listed as).
fn file_status(
    path: &str,
    modules: &[String],
) -> Result<Vec<(&'static str, ScriptStatus)>, String> {
    let read = read_file(&corpus().join(path));
    let site = dagaz_site::recognise(&read).expect("recognised");
    if read.has_errors() {
        return Err("read error".into());
    }
    let mut merged: Vec<(&'static str, ScriptStatus)> = vec![];
    let (mut compiled, mut failed) = (0, None);
    for g in &read.games {
        let (game, diags) = compile_selected_with(&read, &VariantSel::Number(g.number), modules);
        // A variant that does not load is refused with its error (never played); the others count.
        let Some(mut game) = game else {
            if failed.is_none() {
                failed = diags
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message.clone());
            }
            continue;
        };
        compiled += 1;
        for m in modules {
            dagaz::extension::attach(&mut game, m)?;
        }
        for (s, st) in dagaz_site::status(site, &game) {
            // Never silent: a script not applied is on the game's missing rules.
            if let ScriptStatus::Missing(listed) = &st {
                assert!(
                    !listed.is_empty(),
                    "{path} variant {}: script {s} neither applied nor listed",
                    g.number
                );
                assert!(
                    game.missing_rules
                        .iter()
                        .any(|r| r.what() == *listed && r.location.contains(':')),
                    "{path}: {listed} has no location"
                );
            }
            match merged.iter_mut().find(|(x, _)| *x == s) {
                Some(e) if e.1.applied() && !st.applied() => e.1 = st,
                Some(_) => {}
                None => merged.push((s, st)),
            }
        }
    }
    if compiled == 0 {
        return Err(failed.unwrap_or_default());
    }
    Ok(merged)
}

#[derive(Default, Debug, PartialEq)]
struct Counts {
    applied: usize,
    listed: usize,
    load_error: usize,
}

fn count(modules: bool, missing: &mut BTreeMap<String, usize>) -> (Counts, Vec<String>) {
    let mut c = Counts::default();
    let mut applied_files = vec![];
    for f in FILES {
        let mods: Vec<String> = FILE_MODULES
            .iter()
            .filter(|(p, _)| modules && *p == f.path)
            .map(|(_, m)| m.to_string())
            .collect();
        match file_status(f.path, &mods) {
            Err(_) => c.load_error += 1,
            Ok(st) => {
                if st.iter().all(|(_, s)| s.applied()) {
                    c.applied += 1;
                    applied_files.push(format!("{} ({})", f.path, mods.join(",")));
                } else {
                    c.listed += 1;
                    for (s, st) in &st {
                        if !st.applied() {
                            *missing.entry(s.to_string()).or_default() += 1;
                        }
                    }
                }
            }
        }
    }
    (c, applied_files)
}

#[test]
fn none_of_the_244_files_plays_silently() {
    let mut missing = BTreeMap::new();
    let (plain, plain_files) = count(false, &mut missing);
    println!("without modules: {plain:?}");
    for f in &plain_files {
        println!("  applied: {f}");
    }
    let mut missing_mod = BTreeMap::new();
    let (with, with_files) = count(true, &mut missing_mod);
    println!("with the modules written for them: {with:?}");
    for f in with_files.iter().filter(|f| !plain_files.contains(f)) {
        println!("  applied with a module: {f}");
    }
    let mut v: Vec<_> = missing_mod.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!(
        "scripts still missing (files): {}",
        v.iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // Counted when the table was built (README, "Dagaz rule scripts"): with the file's own rules, Turkish and
    // Palestinian dama and Spanish checkers apply theirs (`maximal captures`, `deferred captures`). Raise
    // `applied` as scripts are applied; `listed + applied + load_error` is always 244. The 6 load errors:
    // anathem, tile-chess, kalah, ohojichi, sahkku, ikusa-shogi (refused with their errors).
    assert_eq!(
        plain,
        Counts {
            applied: 3,
            listed: 235,
            load_error: 6,
        }
    );
    // Kalah loads only with its module (Dagaz's board lacks the stores its setup names).
    assert_eq!(
        with,
        Counts {
            applied: 15,
            listed: 224,
            load_error: 5,
        }
    );
}

#[test]
fn a_script_kind_reads_as_such() {
    assert_eq!(MissingKind::Script.as_str(), "dagaz-script");
    assert_eq!(MissingKind::Script.words(), "Dagaz rule script");
}
