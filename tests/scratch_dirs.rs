//! The tests leave nothing in the temporary folder: every test writes there through the one scratch helper
//! (`tests/common/scratch.rs`), whose folder goes when the test ends, passed or failed.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::{keep_requested, Scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// No test code but the helper names the system's temporary folder: a test that wrote there by itself would
/// leave its files behind (as 57 places did, thousands of folders after a few runs).
#[test]
fn only_the_scratch_helper_writes_under_the_temporary_folder() {
    let needle = concat!("temp", "_dir()");
    let mut files = vec![];
    rust_files(&Path::new(ROOT).join("tests"), &mut files);
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    files.sort();
    let helper = Path::new(ROOT).join("tests/common/scratch.rs");
    let mut found = vec![];
    for f in &files {
        if *f == helper {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        // Only test code: the whole of tests/ and of a unit-test file (`tests.rs`), and in the other files of
        // src/ what follows their first `#[cfg(test)]`.
        let in_tests = f.starts_with(Path::new(ROOT).join("tests"))
            || f.file_name().is_some_and(|n| n == "tests.rs");
        let test_part = if in_tests {
            &text[..]
        } else {
            text.find("#[cfg(test)]").map_or("", |i| &text[i..])
        };
        let skipped = text.len() - test_part.len();
        let first_line = text[..skipped].lines().count();
        for (n, line) in test_part.lines().enumerate() {
            if line.contains(needle) {
                let rel = f.strip_prefix(ROOT).unwrap_or(f);
                found.push(format!("{}:{}", rel.display(), first_line + n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "test code writes under the temporary folder without tests/common/scratch.rs \
         (use Scratch::new, Scratch::unmade or Scratch::file):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_scratch_folder_is_unique_and_gone_after_the_test() {
    let a = Scratch::new("scratch-test");
    let b = Scratch::new("scratch-test");
    assert_ne!(a.path(), b.path());
    assert!(a.is_dir() && b.is_dir());
    std::fs::create_dir_all(a.join("deep/er")).unwrap();
    std::fs::write(a.join("deep/er/file"), "x").unwrap();
    let (pa, pb) = (a.path().to_path_buf(), b.path().to_path_buf());
    drop(a);
    drop(b);
    if !keep_requested(std::env::var(scratch_dir::KEEP_VAR).ok().as_deref()) {
        assert!(!pa.exists(), "{} is left", pa.display());
        assert!(!pb.exists(), "{} is left", pb.display());
    }
}

#[test]
fn a_scratch_file_and_an_unmade_folder_are_gone_too() {
    let f = Scratch::file("scratch-test", "game.zrf", "(game)");
    assert_eq!(std::fs::read_to_string(&f).unwrap(), "(game)");
    let root = f.root().to_path_buf();
    assert_eq!(f.parent(), Some(root.as_path()));
    let u = Scratch::unmade("scratch-test");
    assert!(!u.exists());
    std::fs::create_dir_all(u.join("made/by/a/command")).unwrap();
    let made = u.path().to_path_buf();
    drop(f);
    drop(u);
    if !keep_requested(std::env::var(scratch_dir::KEEP_VAR).ok().as_deref()) {
        assert!(!root.exists(), "{} is left", root.display());
        assert!(!made.exists(), "{} is left", made.display());
    }
}

/// A failing test's folder goes as well: the panic unwinds through the guard.
#[test]
fn a_failing_test_leaves_nothing_either() {
    let mut seen = None;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let d = Scratch::new("scratch-test");
        std::fs::write(d.join("out.csv"), "a,b\n").unwrap();
        seen = Some(d.path().to_path_buf());
        panic!("the test fails");
    }));
    assert!(r.is_err());
    let seen = seen.unwrap();
    if !keep_requested(std::env::var(scratch_dir::KEEP_VAR).ok().as_deref()) {
        assert!(!seen.exists(), "{} is left", seen.display());
    }
}

#[test]
fn keeping_is_asked_by_a_non_empty_value_other_than_0() {
    assert!(!keep_requested(None));
    assert!(!keep_requested(Some("")));
    assert!(!keep_requested(Some("0")));
    assert!(keep_requested(Some("1")));
    assert!(keep_requested(Some("yes")));
}

/// The pattern most CLI tests follow: a tournament writes its run folder into a scratch folder; when the guard
/// goes, so does all of it.
#[test]
fn a_tournament_run_in_a_scratch_folder_leaves_nothing() {
    let out = Scratch::unmade("scratch-tournament");
    let o = Command::new(env!("CARGO_BIN_EXE_dagaz"))
        .current_dir(ROOT)
        .args([
            "tournament",
            "--bots",
            "random",
            "random:name=r2",
            "--games",
            "2",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("games.csv").is_file());
    let path = out.path().to_path_buf();
    drop(out);
    if !keep_requested(std::env::var(scratch_dir::KEEP_VAR).ok().as_deref()) {
        assert!(!path.exists(), "{} is left", path.display());
    }
}
