//! README.md's "Set up" commands, run as written in this checkout (CI runs the tests in a fresh clone, so this
//! is what a new user meets): each must exit 0. A tournament gets a small `--games` so that the test stays
//! short; `cargo test` itself is the run this test is part of, and is not started again. The commands are read
//! from the README, so a command added to that section is tested too.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The commands of the README's "Set up" section: its indented code lines.
fn setup_commands(readme: &str) -> Vec<String> {
    let mut in_section = false;
    let mut out = vec![];
    for line in readme.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            in_section = h.trim() == "Set up";
            continue;
        }
        if in_section {
            if let Some(cmd) = line.strip_prefix("    ") {
                if !cmd.trim().is_empty() {
                    out.push(cmd.trim().to_string());
                }
            }
        }
    }
    out
}

/// The run folders under `results/`.
fn runs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("results"))
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_dir());
    v
}

/// The default tournament's bots as the code has them are the ones the README names (it used to name others:
/// no `playout_plies`, and `alphabeta-3` taken for the preset, which has a node cap).
#[test]
fn the_readme_names_the_default_bots_as_the_code_has_them() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for bot in dagaz::tournament::config::DEFAULT_BOTS {
        assert!(
            readme.contains(&format!("`{bot}`")),
            "README.md does not name the default bot `{bot}`"
        );
    }
}

#[test]
fn the_set_up_commands_run_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let commands = setup_commands(&readme);
    assert!(
        commands.len() >= 3,
        "README.md's \"Set up\" section lists {commands:?}"
    );
    assert_eq!(commands[0], "cargo run --release -- tournament");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut ran = 0;
    for cmd in &commands {
        let mut words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        assert_eq!(
            words[0], "cargo",
            "a set-up command that is not cargo's: `{cmd}`"
        );
        if words.get(1).map(String::as_str) == Some("test") {
            continue; // this very run
        }
        let tournament = words.iter().any(|w| w == "tournament");
        if tournament && !words.iter().any(|w| w == "--games") {
            words.extend(["--games".into(), "2".into()]);
        }
        let before = runs(root);
        let mut child = Command::new(&cargo)
            .args(&words[1..])
            .current_dir(root)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("`{cmd}`: cannot start cargo: {e}"));
        // Bounded: a command that waits on something (a lock, a prompt) fails the test instead of hanging it.
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(1800) {
                let _ = child.kill();
                panic!("`{cmd}` still running after 30 minutes");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        // What a tournament wrote into the checkout's results/ goes again.
        for r in runs(root) {
            if !before.contains(&r) {
                std::fs::remove_dir_all(&r).ok();
            }
        }
        assert!(
            out.status.success(),
            "`{}` exited with {}:\n{stdout}\n{stderr}",
            words.join(" "),
            out.status
        );
        if tournament {
            assert!(stdout.contains("Elo"), "`{cmd}`: no standings:\n{stdout}");
        }
        ran += 1;
    }
    assert!(ran >= 2);
}
