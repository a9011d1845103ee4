//! The command line refuses what cannot mean anything (issue 12's small items): no games to play, no jobs to
//! play them with; the help states the real defaults; the banner counts jobs in good English.

use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn dagaz(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// A two-game random tournament on the built-in Breakthrough with `--jobs jobs`, writing into a scratch folder.
fn tournament(name: &str, jobs: &str) -> (Output, std::path::PathBuf) {
    let out = std::env::temp_dir().join(format!("dagaz-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = dagaz(&[
        "tournament",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--jobs",
        jobs,
        "--out",
        out.to_str().unwrap(),
    ]);
    (o, out)
}

fn refused(out: &Output, flag: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "accepted: {err}");
    assert!(err.contains(flag), "{err}");
}

#[test]
fn playout_of_zero_games_is_refused() {
    refused(
        &dagaz(&["playout", "games/breakthrough.zrf", "--games", "0"]),
        "--games",
    );
}

#[test]
fn a_tournament_with_zero_jobs_is_refused() {
    let (o, out) = tournament("j0", "0");
    refused(&o, "--jobs");
    assert!(!out.exists(), "a refused run wrote {}", out.display());
}

#[test]
fn the_banner_says_one_job_and_the_help_the_real_games_default() {
    let (o, out) = tournament("j1", "1");
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("(1 job)"), "{err}");
    let _ = std::fs::remove_dir_all(&out);

    let help = dagaz(&["tournament", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    let default = dagaz::tournament::config::TournamentConfig::default().games;
    assert!(
        help.contains(&format!("(default {default})")),
        "--help does not give the default of --games, {default}:\n{help}"
    );
}
