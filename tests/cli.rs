//! The command line refuses what cannot mean anything (issue 12's small items): no games to play, no jobs to
//! play them with; the help states the real defaults; the banner counts jobs in good English.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
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
fn tournament(name: &str, jobs: &str) -> (Output, Scratch) {
    let out = Scratch::unmade(&format!("cli-{name}"));
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

/// The options of a command's `--help`: (flag, help text), the text joined over its lines.
fn options_of(help: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = vec![];
    let mut in_options = false;
    for line in help.lines() {
        if line.starts_with("Options:") {
            in_options = true;
            continue;
        }
        if !in_options || line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if indent <= 6 && t.starts_with('-') {
            // Short help puts the text on the flag's line, after two spaces or more.
            let (spec, text) = t.split_once("  ").unwrap_or((t, ""));
            let flag = spec
                .split([' ', ','])
                .find(|w| w.starts_with("--"))
                .unwrap_or(spec)
                .to_string();
            out.push((flag, text.trim().to_string()));
        } else if let Some(last) = out.last_mut() {
            last.1.push(' ');
            last.1.push_str(t);
        }
    }
    out
}

/// Every flag of every command says what it does, and every default a tournament flag's help states is the
/// default the library uses (the tournament's flags are optional, so clap cannot print their defaults itself).
#[test]
fn every_flag_has_help_and_the_defaults_it_states_are_the_real_ones() {
    for cmd in [
        "check",
        "variants",
        "perft",
        "session",
        "playout",
        "tournament",
        "bots",
        "merge",
    ] {
        let help = dagaz(&[cmd, "--help"]);
        let help = String::from_utf8_lossy(&help.stdout).to_string();
        let options = options_of(&help);
        assert!(
            !options.is_empty(),
            "no options found in {cmd} --help:\n{help}"
        );
        for (flag, text) in &options {
            assert!(
                !text.trim().is_empty(),
                "`dagaz {cmd}` flag {flag} has no help:\n{help}"
            );
        }
    }
    let c = dagaz::tournament::config::TournamentConfig::default();
    let help = dagaz(&["tournament", "--help"]);
    let options = options_of(&String::from_utf8_lossy(&help.stdout));
    for (flag, value) in [
        ("--games", c.games.to_string()),
        ("--seed", c.seed.to_string()),
        ("--max-plies", c.max_plies.to_string()),
        ("--opening-plies", c.opening_plies.to_string()),
        ("--move-timeout-ms", c.move_timeout_ms.to_string()),
    ] {
        let text = &options
            .iter()
            .find(|(f, _)| f == flag)
            .unwrap_or_else(|| panic!("no {flag} in tournament --help"))
            .1;
        assert!(
            text.contains(&format!("(default {value})")),
            "tournament {flag}: the help should state the real default, {value}: {text}"
        );
    }
}

/// Presets work by name from any directory (built into the binary), `dagaz bots` lists them, and a run started
/// from one directory resumes from another (its config.toml names the game relative to the run's folder).
#[test]
fn presets_and_configs_work_from_any_directory() {
    let root = env!("CARGO_MANIFEST_DIR");
    let tmp = Scratch::new("cli-anywhere");
    std::fs::create_dir_all(tmp.join("elsewhere")).unwrap();
    let run_in = |dir: &std::path::Path, args: &[&str]| {
        let out = Command::new(BIN)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "dagaz {args:?} in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let list = run_in(&tmp, &["bots"]);
    for name in ["random", "alphabeta-3", "mcts-1k", "mcts-10k", "mcts-auto"] {
        assert!(
            list.lines()
                .any(|l| l.starts_with(name) && l.contains("built-in")),
            "{name} not listed as built-in:\n{list}"
        );
    }
    // A preset by name, from a directory without bots/.
    let game = format!("{root}/games/breakthrough.zrf");
    let run = tmp.join("run");
    run_in(
        &tmp,
        &[
            "tournament",
            &game,
            "--bots",
            "random",
            "alphabeta-3",
            "--games",
            "2",
            "--quiet",
            "--out",
            "run",
        ],
    );
    let config = std::fs::read_to_string(run.join("config.toml")).unwrap();
    assert!(config.contains("depth = 3"), "{config}");
    // The same settings again from another directory, through the run's config.toml: same games.
    run_in(
        &tmp.join("elsewhere"),
        &[
            "tournament",
            "--config",
            "../run/config.toml",
            "--out",
            "again",
            "--quiet",
        ],
    );
    let games = |d: &std::path::Path| std::fs::read_to_string(d.join("games.csv")).unwrap();
    assert_eq!(games(&run), games(&tmp.join("elsewhere/again")));
    // A resume from a third directory finds the game too.
    std::fs::remove_file(run.join("games.csv")).unwrap();
    let before = games(&tmp.join("elsewhere/again"));
    run_in(
        std::path::Path::new("/"),
        &[
            "tournament",
            "--resume",
            "--out",
            run.to_str().unwrap(),
            "--quiet",
        ],
    );
    assert_eq!(games(&run), before);
    // A folder of presets given with --bots-dir comes before the built-in ones.
    std::fs::create_dir_all(tmp.join("mine")).unwrap();
    std::fs::write(
        tmp.join("mine/mcts-1k.toml"),
        "kind = \"mcts\"\niterations = 7\n",
    )
    .unwrap();
    let list = run_in(&tmp, &["bots", "--bots-dir", "mine"]);
    let line = list.lines().find(|l| l.starts_with("mcts-1k ")).unwrap();
    assert!(
        line.contains("iterations=7") && line.contains("mine"),
        "{list}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// `check` prints the numbers of end conditions as the file writes them, not as the compiler stores them.
#[test]
fn check_prints_numbers_as_the_file_writes_them() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = dagaz(&["check", &format!("{root}/games/oware.zrf")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(> (sum seeds (zone store)) 24)"), "{text}");
    assert!(
        text.contains("(> (sum seeds) (sum seeds opponent))"),
        "{text}"
    );
    let out = dagaz(&["check", &format!("{root}/games/go-9x9.zrf")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("(> (* 2 (area Black)) (+ (* 2 (area White)) 15))"),
        "{text}"
    );
}
