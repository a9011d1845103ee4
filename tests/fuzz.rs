//! The fuzzer (`src/bin/fuzz.rs`): a short deterministic run finds nothing, and every input it once found to
//! crash, hang or panic (kept in `tests/fuzz-regressions/`) now loads, compiles and plays in a fresh process.

use std::path::Path;
use std::process::Command;

const FUZZ: &str = env!("CARGO_BIN_EXE_fuzz");

#[test]
fn a_short_fuzzing_run_finds_nothing() {
    let out = std::env::temp_dir().join(format!("dagaz-fuzz-{}", std::process::id()));
    let o = Command::new(FUZZ)
        .args(["--iterations", "40", "--seed", "1", "--quiet", "--out"])
        .arg(&out)
        .output()
        .expect("run the fuzzer");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stdout.contains("40 executions"), "{stdout}\n{stderr}");
    assert!(o.status.success(), "findings:\n{stdout}\n{stderr}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn fuzz_regressions_load_compile_and_play() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = vec![];
    for f in &files {
        let o = Command::new(FUZZ)
            .arg("--replay")
            .arg(f)
            .output()
            .expect("run the fuzzer");
        if !o.status.success() {
            failures.push(format!(
                "{}: {} {}{}",
                f.display(),
                o.status,
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
