//! Running the `dagaz` binary from a test and reading the CSV files it writes: what the tests of `dagaz
//! evaluate` share. A file that uses it includes it with `#[path = "common/cli.rs"] mod cli;`, so that the
//! test files that do not are not rebuilt when it changes.
#![allow(dead_code)]

#[path = "scratch.rs"]
pub mod scratch_dir;
use scratch_dir::Scratch;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_dagaz");
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs dagaz in the repository's folder, with no standard input. A run still going after 10 minutes is
/// killed and fails the test: a command that hangs is a failure, not a test that never ends.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    // Its output goes to files, which a child cannot block on as it can on a full pipe.
    let dir = Scratch::new(&format!("cli-{n}"));
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(BIN)
        .current_dir(ROOT)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            let _ = child.wait();
            let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
            panic!("dagaz {shown:?} still running after 10 minutes");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let o = Output {
        status,
        stdout: std::fs::read(&out).unwrap(),
        stderr: std::fs::read(&err).unwrap(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    o
}

/// [`run`], which must succeed.
pub fn dagaz<S: AsRef<OsStr>>(args: &[S]) -> Output {
    let out = run(args);
    if !out.status.success() {
        let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
        panic!(
            "dagaz {shown:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The rows of a CSV file as maps from column name to cell.
pub fn rows(p: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(p).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|x| {
            h.iter()
                .cloned()
                .zip(x.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Asserts that a run's standard output contains `text`, showing the output when it does not.
pub fn assert_stdout_has(o: &Output, text: &str) {
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(text), "{out}");
}
