//! Every command that writes to a pipe survives its reader going away (issue 21): SIGPIPE is ignored, and a
//! command whose standard output is closed ends quietly with status 0 (it used to be killed by SIGPIPE, status
//! 141, wherever it was; with SIGPIPE ignored and nothing else, `println!` would panic).

use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

/// Runs dagaz with its standard output a pipe whose reader is closed before anything is written; returns
/// the exit status and standard error.
fn with_closed_reader(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn commands_end_quietly_when_their_reader_goes_away() {
    for args in [
        &[
            "playout",
            "games/breakthrough.zrf",
            "--games",
            "50",
            "--seed",
            "1",
        ][..],
        &["perft", "games/chess.zrf", "2", "--divide"],
        &["check", "games/chess.zrf"],
        &["variants", "games/english-checkers.zrf"],
        &["bots"],
        &[
            "search",
            "games/breakthrough.zrf",
            "--bot",
            "alphabeta:depth=2",
        ],
    ] {
        let (status, err) = with_closed_reader(args);
        assert_eq!(
            status.code(),
            Some(0),
            "dagaz {args:?}: {status:?} (141 or a signal: killed by SIGPIPE)\n{err}"
        );
        assert!(!err.contains("panicked"), "dagaz {args:?}: {err}");
    }
}
