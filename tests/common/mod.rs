//! What several test files share: where the corpus is, which files it holds, and which of them have rules
//! outside the ZRF (group b of the corpus figures) rather than complete in it (group a).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpus folder beside the repository.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/zrf")
}

/// Every `.zrf` file of the corpus, sorted, so that runs and failures are reproducible.
#[allow(dead_code)]
pub fn corpus_files() -> Vec<PathBuf> {
    let root = corpus_root();
    assert!(
        root.is_dir(),
        "the corpus is missing: expected {}",
        root.display()
    );
    let mut out = vec![];
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("corpus folder") {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "zrf") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A corpus file's path as `dagaz-scripts.csv` and the reports name it: relative to the corpus folder, with `/`.
#[allow(dead_code)]
pub fn corpus_name(path: &Path) -> String {
    let root = corpus_root();
    let rel = path.strip_prefix(&root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// `../shared/reference/dagaz-scripts.csv`: for each corpus file from the Dagaz site, the game scripts its pages
/// load beside the ZRF (the `rule_scripts` column, `;`-separated). Only files with at least one are kept.
#[allow(dead_code)]
pub fn dagaz_rule_scripts() -> BTreeMap<String, Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/dagaz-scripts.csv");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").trim_end().split(',').collect();
    assert_eq!(
        header,
        ["file", "dagaz_pages", "rule_scripts"],
        "unexpected columns in {}",
        path.display()
    );
    let mut out = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        let cols: Vec<&str> = line.trim_end().split(',').collect();
        assert_eq!(cols.len(), 3, "{}:{}: {line}", path.display(), i + 2);
        let scripts: Vec<String> = cols[2]
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        if !scripts.is_empty() {
            out.insert(cols[0].to_string(), scripts);
        }
    }
    out
}

/// Where a corpus file's rules are: complete in the ZRF (group a), or partly outside it (group b): in the Dagaz
/// game scripts its pages load, or in options, sections or end conditions the engine does not apply.
#[allow(dead_code)]
#[derive(Clone, Debug, Default)]
pub struct RulesOutside {
    /// The `rule_scripts` of `dagaz-scripts.csv`.
    pub scripts: Vec<String>,
    /// What the engine does not apply, over every variant that compiled (`MissingRule::what`, each once).
    pub missing: Vec<String>,
}

#[allow(dead_code)]
impl RulesOutside {
    /// Classifies a file from its name, the scripts table, the file as read and the games of it that compiled.
    pub fn of<'a>(
        name: &str,
        scripts: &BTreeMap<String, Vec<String>>,
        read: &dagaz::lang::ReadFile,
        games: impl IntoIterator<Item = &'a dagaz::Game>,
    ) -> RulesOutside {
        let mut missing: Vec<String> = vec![];
        let whole_file = dagaz::compile::missing::of_file(read);
        let rules = games
            .into_iter()
            .flat_map(|g| &g.missing_rules)
            .chain(&whole_file);
        for r in rules {
            let w = r.what();
            if !missing.contains(&w) {
                missing.push(w);
            }
        }
        RulesOutside {
            scripts: scripts.get(name).cloned().unwrap_or_default(),
            missing,
        }
    }

    /// Group (a): nothing of the rules is outside the ZRF.
    pub fn complete(&self) -> bool {
        self.scripts.is_empty() && self.missing.is_empty()
    }

    /// What the file misses, in words: `scripts go-goal, go-ko; option "ko"`.
    pub fn describe(&self) -> String {
        let mut parts = vec![];
        if !self.scripts.is_empty() {
            parts.push(format!("scripts {}", self.scripts.join(", ")));
        }
        parts.extend(self.missing.iter().cloned());
        parts.join("; ")
    }
}

/// Prints group (b): each file with what it misses, then the files per missing thing (the engine's missing
/// rules each on a line; the Dagaz scripts on one line per script name, most used first).
#[allow(dead_code)]
pub fn print_group_b(files: &[(String, RulesOutside)]) {
    let b: Vec<&(String, RulesOutside)> = files.iter().filter(|(_, r)| !r.complete()).collect();
    println!(
        "\ngroup (b): {} files need rules from outside the ZRF:",
        b.len()
    );
    for (name, r) in &b {
        println!("  {name}: {}", r.describe());
    }
    let mut by_missing: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_script: BTreeMap<&str, usize> = BTreeMap::new();
    let mut with_scripts = 0;
    for (_, r) in &b {
        for m in &r.missing {
            *by_missing.entry(m).or_default() += 1;
        }
        if !r.scripts.is_empty() {
            with_scripts += 1;
        }
        for s in &r.scripts {
            *by_script.entry(s).or_default() += 1;
        }
    }
    fn sorted(m: BTreeMap<&str, usize>) -> Vec<(&str, usize)> {
        let mut v: Vec<(&str, usize)> = m.into_iter().collect();
        v.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(y.0)));
        v
    }
    println!("group (b) by what is missing (files):");
    println!("  {with_scripts:4}  Dagaz game scripts (rule_scripts of dagaz-scripts.csv)");
    for (m, n) in sorted(by_missing) {
        println!("  {n:4}  {m} (the engine does not apply it)");
    }
    let scripts: Vec<String> = sorted(by_script)
        .into_iter()
        .map(|(s, n)| format!("{s} {n}"))
        .collect();
    println!("  the scripts, by files using each: {}", scripts.join(", "));
}

/// The sorted notations of the legal moves of `pos` (in the position format) in `game`.
#[allow(dead_code)]
pub fn sorted_moves(game: &dagaz::compile::Game, pos: &str) -> Vec<String> {
    let engine = dagaz::engine::Engine::new(game);
    let s = dagaz::engine::position::parse(game, pos).unwrap();
    let mut v: Vec<String> = engine
        .legal_moves(&s)
        .unwrap()
        .iter()
        .map(|m| m.notation(game))
        .collect();
    v.sort();
    v
}

/// The `.zrf` files of the repository's `games/` folder, sorted.
#[allow(dead_code)]
pub fn games_dir() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    v.sort();
    v
}

/// Every variant of `files` that compiles and that `accept` takes, named `FILE:NUMBER`.
#[allow(dead_code)]
pub fn variants_where(
    files: &[PathBuf],
    accept: impl Fn(&dagaz::compile::Game) -> bool,
) -> Vec<(String, dagaz::compile::Game)> {
    use dagaz::load::{compile_selected, VariantSel};
    let mut out = vec![];
    for f in files {
        let read = dagaz::lang::read_file(f);
        if read.has_errors() {
            continue;
        }
        for g in &read.games {
            let (Some(game), _) = compile_selected(&read, &VariantSel::Number(g.number)) else {
                continue;
            };
            if accept(&game) {
                out.push((format!("{}:{}", f.display(), g.number), game));
            }
        }
    }
    out
}

/// Runs this test binary again with the general path forced (`DAGAZ_GENERAL_PATH=1`, which every
/// `Engine::new` reads: no draughts kernel, count or sample plan, royal-listed path, first-op decision or
/// legality cache), skipping the test `me` that calls it: the file's tests both ways in one `cargo test`.
/// Fails with the child's output where a test fails there.
#[allow(dead_code)]
pub fn rerun_on_general_path(me: &str) {
    if std::env::var_os("DAGAZ_GENERAL_PATH").is_some_and(|v| v == "1") {
        // Already the rerun (or a whole run on the general path): nothing more to do.
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(exe)
        .env("DAGAZ_GENERAL_PATH", "1")
        .args(["--skip", me])
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the tests fail on the general path (DAGAZ_GENERAL_PATH=1):\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The rerun ran tests: a filter that matched nothing would pass without testing anything.
    assert!(
        stdout.contains("test result: ok.") && !stdout.contains("ok. 0 passed"),
        "the rerun on the general path ran no test:\n{stdout}"
    );
}
