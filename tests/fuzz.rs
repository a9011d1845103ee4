//! The fuzzer (`src/bin/fuzz.rs`): a short deterministic run finds nothing, and every input it once found to
//! crash, hang or panic (kept in `tests/fuzz-regressions/`) now loads, compiles and plays in a fresh process.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::path::Path;
use std::process::{Command, Stdio};

const FUZZ: &str = env!("CARGO_BIN_EXE_fuzz");

#[test]
fn a_short_fuzzing_run_finds_nothing() {
    let out = Scratch::unmade("fuzz");
    let o = Command::new(FUZZ)
        .args(["--iterations", "40", "--seed", "1", "--quiet", "--out"])
        .arg(&out)
        .output()
        .expect("run the fuzzer");
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stdout.contains("40 executions"), "{stdout}\n{stderr}");
    assert!(o.status.success(), "findings:\n{stdout}\n{stderr}");
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
        // Reaped by wait4 below, which std does not know about.
        #[allow(clippy::zombie_processes)]
        let child = Command::new(FUZZ)
            .arg("--replay")
            .arg(f)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run the fuzzer");
        // wait4 gives this child's own CPU time and peak memory: a finding that was a hang or a runaway
        // allocation must now be quick and small.
        let mut status = 0;
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let pid = child.id() as libc::pid_t;
        assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
        let cpu = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        let seconds = cpu(usage.ru_utime) + cpu(usage.ru_stime);
        let peak_mb = usage.ru_maxrss as f64 / 1024.0;
        let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
        if !ok || seconds > 3.0 || peak_mb > 500.0 {
            failures.push(format!(
                "{}: wait status {status}, {seconds:.1} s of CPU, {peak_mb:.0} MB (replay it with `fuzz --replay`)",
                f.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
