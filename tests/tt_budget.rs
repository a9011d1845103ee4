//! Transposition tables within one memory budget for the whole run (issue 21): `tt_mb` is what one table may
//! grow to; all the tables of a run together stay within `DAGAZ_TT_BUDGET_MB` (by default half the machine's
//! memory, or of `ulimit -v`), with a warning when the budget stops a table, never an abort.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn tournament(
    bots: &[&str],
    budget_mb: Option<&str>,
    out: &std::path::Path,
) -> std::process::Output {
    let mut c = Command::new(BIN);
    c.args(["tournament", "--bots"])
        .args(bots)
        .args([
            "--games", "2", "--seed", "1", "--jobs", "2", "--quiet", "--out",
        ])
        .arg(out)
        .stdin(Stdio::null());
    match budget_mb {
        Some(b) => c.env("DAGAZ_TT_BUDGET_MB", b),
        None => c.env_remove("DAGAZ_TT_BUDGET_MB"),
    };
    c.output().unwrap()
}

fn scratch(name: &str) -> Scratch {
    Scratch::unmade(&format!("tt-{name}"))
}

/// Two bots that may each grow a 4 GiB table play their games: the run ends normally.
#[test]
fn two_4096_mb_tables_do_not_abort() {
    let out = scratch("4096");
    let o = tournament(
        &[
            "alphabeta:depth=3,tt_mb=4096,name=a",
            "alphabeta:depth=3,tt_mb=4096,name=b",
        ],
        None,
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
}

/// A budget of 1 MiB for the whole run: the tables stop growing at it, the run says so once on standard
/// error, and every game is played.
#[test]
fn the_run_wide_budget_stops_the_tables_with_a_warning() {
    let out = scratch("budget");
    let o = tournament(
        &[
            "alphabeta:depth=4,tt_mb=4096,name=a",
            "alphabeta:depth=4,tt_mb=4096,name=b",
        ],
        Some("1"),
        &out,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(
        err.matches("warning: transposition tables: the run's memory budget")
            .count(),
        1,
        "{err}"
    );
    assert!(err.contains("(1 MiB in all"), "{err}");
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 3, "{games}");
}
