//! MCTS with root parallelism (`threads`) in a tournament: the games do not depend on `--jobs` (issue 22).

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::path::Path;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("mcts-threads-{name}"))
}

fn run(out: &Path, jobs: &str, seed: &str) -> String {
    let o = Command::new(BIN)
        .args([
            "tournament",
            "--bots",
            "mcts:iterations=60,playout_plies=40,threads=3,rollout=nst,grave=10,reuse=true,name=t3",
            "mcts:iterations=60,playout_plies=40,threads=2,progressive_bias=1,solver=true,name=t2",
            "--games",
            "4",
            "--seed",
            seed,
            "--quiet",
            "--jobs",
            jobs,
            "--out",
        ])
        .arg(out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out.join("games.csv")).unwrap()
}

#[test]
fn threaded_mcts_games_do_not_depend_on_jobs() {
    let d = scratch("jobs");
    let one = run(&d.join("one"), "1", "5");
    let two = run(&d.join("two"), "2", "5");
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 1 + 4, "{one}");
    assert_ne!(one, run(&d.join("other"), "2", "6"));
    let _ = std::fs::remove_dir_all(&d);
}
