//! The tournament runner end to end: results that do not depend on `--jobs`, a run killed with SIGKILL and
//! resumed, bots that panic, stall or answer nonsense, the SPRT, games of three players and of several variants.
//! Small games and weak bots keep it quick.

#[path = "common/scratch.rs"]
mod scratch_dir;
use dagaz::bot::{Bot, BotError, BotSpec};
use dagaz::engine::{Engine, Move, State};
use dagaz::tournament::config::{BotConfig, Format, SprtConfig};
use dagaz::tournament::record::BOT_ERROR;
use dagaz::tournament::{run, BotEntry, Progress, RunOptions, Tournament, TournamentConfig};
use rand_chacha::ChaCha8Rng;
use scratch_dir::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary under test: this build's, or the one `DAGAZ_TEST_BIN` names, so that a check can be run against an
/// older build to show that it fails there (`DAGAZ_TEST_BIN=/path/to/old/dagaz cargo test --test tournament NAME`).
fn bin() -> String {
    std::env::var("DAGAZ_TEST_BIN")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_dagaz").to_string())
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("tournament-{name}"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The outputs that must not depend on the clock, the thread count or an interruption.
const DETERMINISTIC: [&str; 6] = [
    "games.csv",
    "standings.csv",
    "end_conditions.csv",
    "report.md",
    "report.html",
    "config.toml",
];

fn same_outputs(a: &Path, b: &Path) {
    for f in DETERMINISTIC {
        let (x, y) = (read(&a.join(f)), read(&b.join(f)));
        // config.toml names its own folder in a comment.
        let strip = |s: &str| {
            s.lines()
                .filter(|l| !l.starts_with('#'))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(strip(&x) == strip(&y), "{f} differs:\n{x}\n---\n{y}");
    }
}

fn dagaz(args: &[&str]) -> std::process::Output {
    let out = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "dagaz {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn results_do_not_depend_on_jobs() {
    let d = scratch("jobs");
    let (one, two) = (d.join("one"), d.join("two"));
    let args = |out: &Path, jobs: &'static str| -> Vec<String> {
        [
            "tournament",
            "--bots",
            "random",
            "alphabeta:depth=1,name=ab1",
            "mcts:iterations=20,playout_plies=30,name=m20",
            "--games",
            "4",
            "--seed",
            "7",
            "--quiet",
            "--jobs",
            jobs,
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let a1 = args(&one, "1");
    let a2 = args(&two, "2");
    let o1 = dagaz(&a1.iter().map(String::as_str).collect::<Vec<_>>());
    dagaz(&a2.iter().map(String::as_str).collect::<Vec<_>>());
    same_outputs(&one, &two);
    let games = read(&one.join("games.csv"));
    // 3 encounters × 2 pairs × 2 games, in game-id order, every game with its pair id.
    assert_eq!(games.lines().count(), 1 + 12, "{games}");
    for (i, line) in games.lines().skip(1).enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f[0], i.to_string());
        assert_eq!(f[1], (i / 2).to_string());
    }
    // Both games of a pair start with the same opening (4 random plies).
    let rows: Vec<Vec<String>> = csv_rows(&one.join("games.csv"));
    let moves = rows[0].iter().position(|h| h == "moves").unwrap();
    for pair in rows[1..].chunks(2) {
        let open = |r: &Vec<String>| r[moves].split(';').take(4).collect::<Vec<_>>().join(";");
        assert_eq!(open(&pair[0]), open(&pair[1]));
    }
    // The standings are printed.
    let stdout = String::from_utf8_lossy(&o1.stdout);
    assert!(stdout.contains("ab1") && stdout.contains("Elo"), "{stdout}");
    // Another seed gives other games.
    let three = d.join("three");
    let mut a3 = args(&three, "2");
    a3[8] = "8".into();
    dagaz(&a3.iter().map(String::as_str).collect::<Vec<_>>());
    assert_ne!(read(&one.join("games.csv")), read(&three.join("games.csv")));
}

fn csv_rows(p: &Path) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(p)
        .unwrap();
    r.records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect()
}

#[test]
fn a_killed_run_resumes_to_the_same_results() {
    let d = scratch("resume");
    let (whole, killed) = (d.join("whole"), d.join("killed"));
    let args = |out: &Path| -> Vec<String> {
        [
            "tournament",
            "--bots",
            "random",
            "alphabeta:depth=2,name=ab2",
            "--games",
            "120",
            "--seed",
            "3",
            "--jobs",
            "2",
            "--out",
            out.to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    let mut whole_args = args(&whole);
    whole_args.push("--quiet".into());
    dagaz(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    let total = read(&whole.join("games.csv")).lines().count() - 1;
    assert_eq!(total, 120);

    // Kill the second run (SIGKILL) once it has finished some games but not all.
    let mut child = Command::new(bin())
        .args(args(&killed))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let games = killed.join("games.csv");
    let t = Instant::now();
    loop {
        let n = std::fs::read_to_string(&games)
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if n > 30 {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(120),
            "the run made no progress"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let done = read(&games).lines().count() - 1;
    assert!(
        done < total,
        "the run finished before it was killed ({done} games)"
    );
    // What a kill in the middle of a write leaves: half a line.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&games)
        .unwrap();
    std::io::Write::write_all(&mut f, b"119,59,3,Breakthrough,ab2,ran").unwrap();
    drop(f);

    let out = dagaz(&[
        "tournament",
        "--resume",
        "--out",
        killed.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("from before"), "{err}");
    same_outputs(&whole, &killed);
    // Resuming a finished run changes nothing.
    dagaz(&[
        "tournament",
        "--resume",
        "--quiet",
        "--out",
        killed.to_str().unwrap(),
    ]);
    same_outputs(&whole, &killed);
}

#[test]
fn settings_errors_are_reported() {
    let d = scratch("errors");
    let out = Command::new(bin())
        .args(["tournament", "--bots", "random", "--quiet", "--out"])
        .arg(d.join("x"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least two bots"));
    let out = Command::new(bin())
        .args(["tournament", "--resume", "--seed", "3", "--out"])
        .arg(d.join("x"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("config.toml"));
    // A run folder is not overwritten.
    let o = d.join("y");
    let args = [
        "tournament",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--quiet",
        "--out",
        o.to_str().unwrap(),
    ];
    dagaz(&args);
    let out = Command::new(bin()).args(args).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already holds a run"));
}

// --- bots that misbehave -----------------------------------------------------------------------------

struct PanicBot;
impl Bot for PanicBot {
    fn name(&self) -> &str {
        "panics"
    }
    fn choose(
        &mut self,
        _: &Engine,
        _: &State,
        _: &[Move],
        _: &[u64],
        _: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        panic!("this bot always panics")
    }
}

struct LoopBot;
impl Bot for LoopBot {
    fn name(&self) -> &str {
        "loops"
    }
    fn choose(
        &mut self,
        _: &Engine,
        _: &State,
        _: &[Move],
        _: &[u64],
        _: &mut ChaCha8Rng,
    ) -> Result<usize, BotError> {
        loop {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn options(out: &Path, jobs: usize) -> RunOptions {
    RunOptions {
        out: out.to_path_buf(),
        jobs,
        progress: Progress::None,
        resume: false,
    }
}

#[test]
fn misbehaving_bots_lose_with_bot_error_and_the_run_finishes() {
    let d = scratch("misbehave");
    let script = d.join("nonsense.sh");
    std::fs::write(
        &script,
        "while read line; do echo 'this is not json'; done\n",
    )
    .unwrap();
    let nonsense: BotSpec = BotConfig::Table(
        toml::from_str(&format!(
            "kind = \"external\"\nname = \"nonsense\"\ncommand = \"sh\"\nargs = [{:?}]\ntime_ms = 5000",
            script.to_str().unwrap()
        ))
        .unwrap(),
    )
    .resolve()
    .unwrap();
    // The timeout only has to catch `loops`: 3 s, so that a machine under load (a load average of 10 was seen)
    // still sees the panic and the nonsense before it (1 s once timed the panicking bot out).
    let config = TournamentConfig {
        games: 2,
        move_timeout_ms: 3000,
        ..TournamentConfig::default()
    };
    let variants = config.load_variants().unwrap();
    let bots = vec![
        BotEntry::from_spec(BotSpec::resolve("random").unwrap()),
        BotEntry::custom("panics", || Ok(Box::new(PanicBot))),
        BotEntry::custom("loops", || Ok(Box::new(LoopBot))),
        BotEntry::from_spec(nonsense),
    ];
    let t = Tournament::new(config, variants, bots).unwrap();
    let start = Instant::now();
    let r = run(&t, &options(&d.join("out"), 2)).unwrap();
    assert!(start.elapsed() < Duration::from_secs(60));
    let records = r.records().unwrap();
    assert_eq!(records.len(), 12);
    for g in &records {
        let bad: Vec<usize> = (0..2).filter(|&i| g.bots[i] != "random").collect();
        // The seat to move first among the bad bots fails; random never does.
        assert_eq!(g.end_type, BOT_ERROR, "{g:?}");
        let loser = g.results.iter().position(|&x| x == -1).unwrap();
        assert!(bad.contains(&loser), "{g:?}");
        assert_eq!(g.results[1 - loser], 1);
        let want = match g.bots[loser].as_str() {
            "panics" => "panic",
            "loops" => "timeout",
            "nonsense" => "illegal",
            b => panic!("{b} lost"),
        };
        assert_eq!(g.end_name, want, "{g:?}");
        assert!(g.error.starts_with(&g.bots[loser]), "{}", g.error);
    }
    let random = r
        .summary
        .standings
        .iter()
        .find(|s| s.name == "random")
        .unwrap();
    assert_eq!(random.wdl.wins, 6);
    let ends = read(&d.join("out/end_conditions.csv"));
    assert!(
        ends.contains("panics,Breakthrough,1,White,bot-error,panic,0,0,0,"),
        "{ends}"
    );
}

// --- the SPRT, three players, several variants ---------------------------------------------------------

#[test]
fn sprt_stops_a_lopsided_match_the_same_way_for_any_jobs() {
    let d = scratch("sprt");
    let config = TournamentConfig {
        games: 400,
        opening_plies: 2,
        sprt: Some(SprtConfig {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
        }),
        bots: vec![
            BotConfig::Name("alphabeta:depth=1,name=ab1".into()),
            BotConfig::Name("random".into()),
        ],
        ..TournamentConfig::default()
    };
    let t = config.clone().load().unwrap();
    let r1 = run(&t, &options(&d.join("one"), 1)).unwrap();
    let r2 = run(&t, &options(&d.join("two"), 2)).unwrap();
    let s = r1.summary.sprt.clone().unwrap();
    assert_eq!(s.decision, dagaz::tournament::stats::SprtDecision::AcceptH1);
    let records = r1.records().unwrap();
    assert!(
        records.len() < 40,
        "{} games before a decision",
        records.len()
    );
    assert_eq!(records.len() as u64, 2 * (s.stop_pair.unwrap() + 1));
    assert_eq!(r1.summary.games, records.len());
    same_outputs(&d.join("one"), &d.join("two"));
    assert!(read(&d.join("one/report.md")).contains("H1 accepted"));
    let _ = r2;
}

const RACE3: &str = r#"
(game
  (title "Race")
  (players A B C)
  (turn-order A B C)
  (board (grid (dimensions ("a/b/c" (50 0)) ("6/5/4/3/2/1" (0 50))) (directions (n 0 -1))))
  (piece (name P) (moves (n (verify empty?) add) (n n (verify empty?) add)))
  (board-setup (A (P a1)) (B (P b1)) (C (P c1)))
  (win-condition (A B C) (name "home") (absolute-config P (a6 b6 c6))))
(variant
  (title "Short race")
  (board (grid (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50))) (directions (n 0 -1))))
  (win-condition (A B C) (name "home") (absolute-config P (a3 b3 c3))))
"#;

#[test]
fn three_players_and_every_variant() {
    let d = scratch("three");
    let game = d.join("race.zrf");
    std::fs::write(&game, RACE3).unwrap();
    let config = TournamentConfig {
        game: game.to_str().unwrap().into(),
        variants: vec!["all".into()],
        games: 6,
        opening_plies: 0,
        format: Format::RoundRobin,
        bots: ["random", "random:name=r2", "random:name=r3"]
            .map(|b| BotConfig::Name(b.into()))
            .to_vec(),
        ..TournamentConfig::default()
    };
    let t = config.load().unwrap();
    assert_eq!(t.variants.len(), 2);
    let r = run(&t, &options(&d.join("out"), 2)).unwrap();
    let records = r.records().unwrap();
    // One encounter of three bots, the six seat orders, per variant.
    assert_eq!(records.len(), 12);
    assert!(records.iter().all(|g| g.end_type == "absolute-config"));
    let report = read(&d.join("out/report.md"));
    assert!(
        report.contains("| measure | Race | Short race |"),
        "{report}"
    );
    let mut orders: Vec<Vec<String>> = records.iter().map(|g| g.bots.clone()).collect();
    orders.sort();
    orders.dedup();
    assert_eq!(orders.len(), 6);
    assert!(records
        .iter()
        .all(|g| g.results.iter().filter(|&&x| x == 1).count() == 1));
}

#[test]
fn a_toml_file_gives_the_settings_and_flags_override_it() {
    let d = scratch("toml");
    let file = d.join("run.toml");
    std::fs::write(
        &file,
        "games = 2\nseed = 5\nmax_plies = 30\nbots = [\"random\", { kind = \"alphabeta\", depth = 1, name = \"ab1\" }]\n",
    )
    .unwrap();
    let out = d.join("out");
    dagaz(&[
        "tournament",
        "--config",
        file.to_str().unwrap(),
        "--games",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let rows = csv_rows(&out.join("games.csv"));
    assert_eq!(rows.len(), 1 + 4);
    let plies = rows[0].iter().position(|h| h == "plies").unwrap();
    assert!(rows[1..]
        .iter()
        .all(|r| r[plies].parse::<u32>().unwrap() <= 30));
    let config = read(&out.join("config.toml"));
    assert!(
        config.contains("games = 4") && config.contains("seed = 5"),
        "{config}"
    );
    assert!(config.contains("name = \"ab1\""), "{config}");
    // config.toml reruns the same games.
    let again = d.join("again");
    dagaz(&[
        "tournament",
        "--config",
        out.join("config.toml").to_str().unwrap(),
        "--quiet",
        "--out",
        again.to_str().unwrap(),
    ]);
    same_outputs(&out, &again);
}

/// A pawn that reaches a4 runs an endless `while`: an engine error in some games only.
const TRAP: &str = r#"
(game
  (title "Trap race")
  (players A B)
  (turn-order A B)
  (board (grid (dimensions ("a/b" (50 0)) ("6/5/4/3/2/1" (0 50))) (directions (n 0 -1)))
    (zone (name trap) (players A B) (positions a4)))
  (piece (name P) (moves (n (verify empty?) add) (n n (verify empty?) add)
     ((verify (in-zone? trap)) (while (friend?) (verify (friend?))) add)))
  (board-setup (A (P a1)) (B (P b1)))
  (win-condition (A B) (name "home") (absolute-config P (a6 b6))))
"#;

#[test]
fn an_engine_error_ends_only_its_game() {
    let d = scratch("engine-error");
    let game = d.join("trap.zrf");
    std::fs::write(&game, TRAP).unwrap();
    let t = TournamentConfig {
        game: game.to_str().unwrap().into(),
        games: 20,
        opening_plies: 0,
        bots: ["random", "random:name=r2"]
            .map(|b| BotConfig::Name(b.into()))
            .to_vec(),
        ..TournamentConfig::default()
    }
    .load()
    .unwrap();
    let r = run(&t, &options(&d.join("out"), 2)).unwrap();
    let records = r.records().unwrap();
    assert_eq!(records.len(), 20);
    let errors: Vec<_> = records
        .iter()
        .filter(|g| g.end_type == "engine-error")
        .collect();
    assert!(
        !errors.is_empty() && errors.len() < 20,
        "{} errors",
        errors.len()
    );
    for g in &errors {
        assert!(g.results.is_empty() && g.error.contains("endless"), "{g:?}");
    }
    // Left out of the standings, counted in the report.
    let games: u64 = r.summary.standings.iter().map(|s| s.wdl.games()).sum();
    assert_eq!(games as usize, 2 * (20 - errors.len()));
    assert_eq!(r.summary.variants[0].engine_errors, errors.len());
}

// --- resumes that cannot mix two runs, one process per run folder -----------------------------------------

fn dagaz_fails(args: &[&str]) -> String {
    let out = Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success(), "dagaz {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A run cut short: the first `keep` games of a finished run, as a kill would leave them.
fn interrupted_run(d: &Path, keep: usize) -> PathBuf {
    let out = d.join("run");
    dagaz(&[
        "tournament",
        "--bots",
        "random",
        "alphabeta:depth=1,name=ab1",
        "--games",
        "8",
        "--seed",
        "5",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let games = read(&out.join("games.csv"));
    let cut: Vec<&str> = games.lines().take(1 + keep).collect();
    std::fs::write(out.join("games.csv"), cut.join("\n") + "\n").unwrap();
    out
}

#[test]
fn a_resume_with_other_settings_is_refused_naming_the_field() {
    let d = scratch("fingerprint");
    let out = interrupted_run(&d, 3);
    let o = out.to_str().unwrap();
    let config = read(&out.join("config.toml"));
    let games = read(&out.join("games.csv"));
    let resume = ["tournament", "--resume", "--quiet", "--out", o];

    // The seed edited in config.toml after the kill.
    assert!(config.contains("seed = 5"), "{config}");
    std::fs::write(
        out.join("config.toml"),
        config.replace("seed = 5", "seed = 6"),
    )
    .unwrap();
    let err = dagaz_fails(&resume);
    assert!(
        err.contains("`seed` was `5`") && err.contains("now `6`"),
        "{err}"
    );
    assert_eq!(
        read(&out.join("games.csv")),
        games,
        "a refused resume wrote games"
    );

    // A bot's depth edited.
    assert!(config.contains("depth = 1"), "{config}");
    std::fs::write(
        out.join("config.toml"),
        config.replace("depth = 1", "depth = 2"),
    )
    .unwrap();
    let err = dagaz_fails(&resume);
    assert!(
        err.contains("`bot 2`") && err.contains("\"depth\":2"),
        "{err}"
    );

    // Another dagaz version (the recorded one edited, as an older binary would have written it).
    std::fs::write(out.join("config.toml"), &config).unwrap();
    let fp = read(&out.join("fingerprint.json"));
    let version = env!("CARGO_PKG_VERSION");
    assert!(fp.contains(version), "{fp}");
    std::fs::write(
        out.join("fingerprint.json"),
        fp.replacen(&format!("\"{version}\""), "\"0.0.1-old\"", 1),
    )
    .unwrap();
    let err = dagaz_fails(&resume);
    assert!(err.contains("`dagaz version` was `0.0.1-old`"), "{err}");
    assert_eq!(read(&out.join("games.csv")), games);

    // A folder without a fingerprint (an older run) cannot be checked: refused too.
    std::fs::remove_file(out.join("fingerprint.json")).unwrap();
    let err = dagaz_fails(&resume);
    assert!(err.contains("fingerprint.json"), "{err}");

    // The same settings resume.
    std::fs::write(out.join("fingerprint.json"), &fp).unwrap();
    dagaz(&resume);
    assert_eq!(read(&out.join("games.csv")).lines().count(), 1 + 8);
}

#[test]
fn a_run_folder_in_use_is_refused_with_the_holders_name() {
    let d = scratch("lock");
    let out = interrupted_run(&d, 2);
    let o = out.to_str().unwrap();
    let games = read(&out.join("games.csv"));
    // Another process holds the folder (this one, through the library).
    let files = dagaz::tournament::writers::RunFiles::new(&out, 2);
    let lock = files.lock().unwrap();
    let err = dagaz_fails(&["tournament", "--resume", "--out", o]);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(
        err.contains("in use by another dagaz run")
            && err.contains(&format!("pid {}", std::process::id())),
        "{err}"
    );
    // A new run on the same folder too.
    let err = dagaz_fails(&[
        "tournament",
        "--bots",
        "random",
        "random:name=r2",
        "--quiet",
        "--out",
        o,
    ]);
    assert!(err.contains("in use by another dagaz run"), "{err}");
    assert_eq!(read(&out.join("games.csv")), games);
    // A second lock in this process is refused as well (a lock is per open file).
    assert!(files.lock().is_err());
    drop(lock);
    // The holder gone, its lock file (naming a dead process) does not stand in the way.
    assert!(read(&out.join("run.lock")).contains("pid"));
    dagaz(&["tournament", "--resume", "--quiet", "--out", o]);
    assert_eq!(read(&out.join("games.csv")).lines().count(), 1 + 8);
}

#[test]
fn two_resumes_at_once_one_runs_the_other_refuses() {
    let d = scratch("tworesumes");
    let out = d.join("run");
    let o = out.to_str().unwrap();
    let start = |extra: &[&str]| {
        Command::new(bin())
            .args(["tournament", "--quiet", "--out", o])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = start(&[
        "--bots",
        "random",
        "alphabeta:depth=2,name=ab2",
        "--games",
        "40",
        "--jobs",
        "1",
    ])
    .wait_with_output()
    .unwrap();
    assert!(first.status.success());
    let whole = read(&out.join("games.csv"));
    let cut: Vec<&str> = whole.lines().take(1 + 4).collect();
    std::fs::write(out.join("games.csv"), cut.join("\n") + "\n").unwrap();
    let (a, b) = (start(&["--resume"]), start(&["--resume"]));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let outcomes = [&a, &b].map(|o| {
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    });
    let ok = outcomes.iter().filter(|(s, _)| *s).count();
    assert_eq!(ok, 1, "{outcomes:?}");
    let (_, err) = outcomes.iter().find(|(s, _)| !*s).unwrap();
    assert!(err.contains("in use by another dagaz run"), "{err}");
    assert!(!err.contains("No such file"), "{err}");
    assert_eq!(read(&out.join("games.csv")), whole);
}

/// An external bot that forks a child into its process group, which would sleep for a minute: after a normal
/// run (no bot error) no such child is left.
#[cfg(target_os = "linux")]
#[test]
fn an_external_bots_children_end_with_the_run() {
    let d = scratch("forks");
    let pids = d.join("pids");
    let script = d.join("forker.py");
    std::fs::write(
        &script,
        format!(
            r#"import json, os, sys, time
child = os.fork()
if child == 0:
    os.close(1)
    time.sleep(60)
    sys.exit(0)
# The parent records the child before it answers anything, so the record is there however soon the game ends.
with open({:?}, "a") as f:
    f.write(str(child) + "\n")
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") == "quit":
        break
    if req.get("type") == "move":
        print(json.dumps({{"id": 0, "request": req["request"]}}), flush=True)
"#,
            pids.to_str().unwrap()
        ),
    )
    .unwrap();
    let forker: BotSpec = BotConfig::Table(
        toml::from_str(&format!(
            "kind = \"external\"\nname = \"forker\"\ncommand = \"python3\"\nargs = [{:?}]",
            script.to_str().unwrap()
        ))
        .unwrap(),
    )
    .resolve()
    .unwrap();
    let config = TournamentConfig {
        games: 2,
        max_plies: 6,
        ..TournamentConfig::default()
    };
    let variants = config.load_variants().unwrap();
    let bots = vec![
        BotEntry::from_spec(BotSpec::resolve("random").unwrap()),
        BotEntry::from_spec(forker),
    ];
    let t = Tournament::new(config, variants, bots).unwrap();
    let r = run(&t, &options(&d.join("out"), 2)).unwrap();
    let records = r.records().unwrap();
    assert!(
        records.iter().all(|g| g.end_type != BOT_ERROR),
        "{records:?}"
    );
    std::thread::sleep(Duration::from_millis(200));
    let pids = read(&pids);
    let pids: Vec<&str> = pids.lines().collect();
    assert_eq!(pids.len(), 2, "one process per game");
    for pid in pids {
        let alive =
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "));
        assert!(!alive, "the bot's child {pid} outlived the run");
    }
}

/// Held by the tests that load the machine on purpose or measure it, so that they do not run beside each
/// other (a starved run buffers more records, and the memory test would see it).
fn alone() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

// --- memory that does not grow with the run -----------------------------------------------------------

/// Runs `dagaz tournament` (random against random on the built-in Breakthrough, `games` games, two jobs)
/// and returns its peak resident set size in KB, as the kernel counted it for that process (wait4).
///
/// Not spawned from this process: Linux counts, in a child's `ru_maxrss`, the resident set of the process it
/// was spawned from (the spawning memory is folded in at exec), and this test binary's other tests, running
/// beside this one, can make that tens of MB (76 MB against 16 MB was seen once, under load). A small Python
/// process forks and execs dagaz and reports what wait4 says of it: both runs then start from the same small
/// baseline, Python's own few MB.
#[cfg(target_os = "linux")]
fn peak_rss_kb(out: &Path, games: &str) -> i64 {
    let script = r#"import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_RDWR)
    for i in (0, 1, 2):
        os.dup2(fd, i)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"#;
    let o = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args([
            "tournament",
            "--bots",
            "random",
            "random:name=r2",
            "--games",
            games,
            "--jobs",
            "2",
            "--quiet",
            "--out",
        ])
        .arg(out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "python3: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let v: Vec<i64> = text
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(v.len(), 2, "python3 printed {text:?}");
    assert_eq!(v[0], 0, "dagaz failed");
    let lines = read(&out.join("games.csv")).lines().count() as u64;
    assert_eq!(lines, 1 + games.parse::<u64>().unwrap());
    v[1]
}

/// Ten times the games, about the same peak memory: nothing is kept per game. (Before, memory grew by about
/// 3.3 KB per game: 18,000 more games were some 60 MB more.)
#[cfg(target_os = "linux")]
#[test]
fn memory_does_not_grow_with_the_games() {
    let _alone = alone();
    let d = scratch("memory");
    let small = peak_rss_kb(&d.join("small"), "2000");
    let large = peak_rss_kb(&d.join("large"), "20000");
    assert!(
        large < small + 12_000,
        "peak RSS {small} KB for 2,000 games, {large} KB for 20,000"
    );
}

/// The issue's figure: a million random games keep their peak RSS under 200 MB (a few minutes here). Run with
/// `cargo test --release --test tournament -- --ignored a_million_games`.
#[cfg(target_os = "linux")]
#[test]
#[ignore]
fn a_million_games_stay_under_200_mb() {
    let d = scratch("million");
    let kb = peak_rss_kb(&d.join("run"), "1000000");
    eprintln!("peak RSS for 1,000,000 games: {kb} KB");
    assert!(kb < 200_000, "peak RSS {kb} KB");
    let _ = std::fs::remove_dir_all(&d);
}

/// `--games 4294967296` starts at once: the first games are on disk within seconds, in little memory.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_run_starts_at_once() {
    let d = scratch("huge");
    let out = d.join("run");
    let mut child = Command::new(bin())
        .args([
            "tournament",
            "--bots",
            "random",
            "random:name=r2",
            "--games",
            "4294967296",
            "--jobs",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let games = out.join("games.csv");
    let mut rows = 0;
    while t.elapsed() < Duration::from_secs(20) {
        rows = std::fs::read_to_string(&games)
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if rows > 100 {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = read(
        &Path::new("/proc")
            .join(child.id().to_string())
            .join("status"),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(rows > 100, "{rows} rows after {:?}", t.elapsed());
    let hwm: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert!(hwm < 100_000, "peak {hwm} KB");
    // An impossible count is a clear error, not an allocation.
    let err = dagaz_fails(&[
        "tournament",
        "--bots",
        "random",
        "random:name=r2",
        "random:name=r3",
        "--games",
        "18446744073709551615",
        "--quiet",
        "--out",
        d.join("impossible").to_str().unwrap(),
    ]);
    assert!(err.contains("2^64"), "{err}");
}

/// A file the game includes, changed after the kill: the resume is refused (the game file itself is the same).
#[test]
fn a_resume_after_an_included_file_changed_is_refused() {
    let d = scratch("include");
    std::fs::write(
        d.join("steps.zrf"),
        "(define step (n (verify empty?) add))\n",
    )
    .unwrap();
    std::fs::write(
        d.join("race.zrf"),
        r#"(include "steps.zrf")
(game
  (title "Race")
  (players A B)
  (turn-order A B)
  (board (grid (dimensions ("a/b" (50 0)) ("6/5/4/3/2/1" (0 50))) (directions (n 0 -1))))
  (piece (name P) (moves (step) (n n (verify empty?) add)))
  (board-setup (A (P a1)) (B (P b1)))
  (win-condition (A B) (name "home") (absolute-config P (a6 b6))))
"#,
    )
    .unwrap();
    let out = d.join("run");
    let o = out.to_str().unwrap();
    let game = d.join("race.zrf");
    dagaz(&[
        "tournament",
        game.to_str().unwrap(),
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "4",
        "--opening-plies",
        "0",
        "--quiet",
        "--out",
        o,
    ]);
    assert!(read(&out.join("fingerprint.json")).contains("included files hash"));
    let games = read(&out.join("games.csv"));
    let cut: Vec<&str> = games.lines().take(2).collect();
    std::fs::write(out.join("games.csv"), cut.join("\n") + "\n").unwrap();
    std::fs::write(
        d.join("steps.zrf"),
        "(define step (n n n (verify empty?) add))\n",
    )
    .unwrap();
    let err = dagaz_fails(&["tournament", "--resume", "--quiet", "--out", o]);
    assert!(err.contains("`included files hash`"), "{err}");
    std::fs::write(
        d.join("steps.zrf"),
        "(define step (n (verify empty?) add))\n",
    )
    .unwrap();
    dagaz(&["tournament", "--resume", "--quiet", "--out", o]);
    assert_eq!(read(&out.join("games.csv")), games);
}

/// An external bot that answers every request twice: the second answers are discarded, never taken for the
/// next request, and the game's `error` column says so while the game ends normally.
#[test]
fn a_bot_answering_twice_plays_on_and_the_record_notes_it() {
    let d = scratch("twice");
    let script = d.join("twice.py");
    std::fs::write(
        &script,
        r#"import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") == "quit":
        break
    if req.get("type") == "move":
        answer = json.dumps({"id": len(req["moves"]) - 1, "request": req["request"]})
        print(answer, flush=True)
        print(answer, flush=True)
"#,
    )
    .unwrap();
    let twice: BotSpec = BotConfig::Table(
        toml::from_str(&format!(
            "kind = \"external\"\nname = \"twice\"\ncommand = \"python3\"\nargs = [{:?}]",
            script.to_str().unwrap()
        ))
        .unwrap(),
    )
    .resolve()
    .unwrap();
    let config = TournamentConfig {
        games: 2,
        max_plies: 20,
        ..TournamentConfig::default()
    };
    let variants = config.load_variants().unwrap();
    let bots = vec![
        BotEntry::from_spec(BotSpec::resolve("random").unwrap()),
        BotEntry::from_spec(twice),
    ];
    let t = Tournament::new(config, variants, bots).unwrap();
    let r = run(&t, &options(&d.join("out"), 1)).unwrap();
    let records = r.records().unwrap();
    assert_eq!(records.len(), 2);
    for g in &records {
        assert_ne!(g.end_type, BOT_ERROR, "{g:?}");
        assert!(
            g.error.starts_with("twice: ") && g.error.contains("nobody asked for discarded"),
            "{g:?}"
        );
    }
}

/// A run stopped by SIGTERM (or Ctrl-C) takes its external bots' process groups with it: the child a bot
/// forked is gone too.
#[cfg(target_os = "linux")]
#[test]
fn a_run_stopped_by_a_signal_leaves_no_bot_behind() {
    let d = scratch("sigterm");
    let pids = d.join("pids");
    let script = d.join("forker.py");
    std::fs::write(
        &script,
        format!(
            r#"import json, os, sys, time
if os.fork() == 0:
    os.close(1)
    with open({:?}, "a") as f:
        f.write(str(os.getpid()) + "\n")
    time.sleep(60)
    sys.exit(0)
for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") == "quit":
        break
    if req.get("type") == "move":
        time.sleep(0.05)
        print(json.dumps({{"id": 0, "request": req["request"]}}), flush=True)
"#,
            pids.to_str().unwrap()
        ),
    )
    .unwrap();
    let config = d.join("run.toml");
    std::fs::write(
        &config,
        format!(
            "games = 200\nbots = [\"random\", {{ kind = \"external\", name = \"forker\", command = \"python3\", args = [{:?}] }}]\n",
            script.to_str().unwrap()
        ),
    )
    .unwrap();
    let mut child = Command::new(bin())
        .args(["tournament", "--quiet", "--jobs", "2", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(d.join("out"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::read_to_string(&pids).map_or(0, |s| s.lines().count()) < 2 {
        assert!(t.elapsed() < Duration::from_secs(30), "no bot started");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert!(!status.success());
    // A killed process leaves /proc once the kernel has torn it down, which a loaded machine can take a while
    // to do: each child gets up to 5 s to go (a leaked one sleeps 60 s, so it still fails the test).
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
    };
    let t = Instant::now();
    for pid in read(&pids).lines() {
        while alive(pid) && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!alive(pid), "the bot's child {pid} outlived the run");
    }
}

/// Bots bounded by a count (random, `alphabeta:depth`, `mcts:iterations`) play the same games whatever the
/// machine: a run with a move timeout far below their move time, on a core kept busy by other threads, gives the
/// same games as one with the default timeout. Before, they lost on time (`bot-error`, `timeout`) there.
#[test]
fn fixed_budget_bots_never_lose_on_time() {
    let _alone = alone();
    let d = scratch("budget");
    let play = |out: &Path, timeout: &str| {
        dagaz(&[
            "tournament",
            "--bots",
            "mcts:iterations=200,playout_plies=60,name=m200",
            "alphabeta:depth=2,name=ab2",
            "--games",
            "2",
            "--seed",
            "3",
            "--move-timeout-ms",
            timeout,
            "--jobs",
            "2",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let (idle, loaded) = (d.join("idle"), d.join("loaded"));
    play(&idle, "60000");
    // Load: two threads spinning beside the run, on a two-core machine as much as the run's own two jobs.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinners: Vec<_> = (0..2)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    play(&loaded, "1");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinners.into_iter().for_each(|t| t.join().unwrap());
    for f in ["games.csv", "standings.csv", "end_conditions.csv"] {
        assert_eq!(
            read(&idle.join(f)),
            read(&loaded.join(f)),
            "{f} differs between the idle run and the loaded one with a 1 ms timeout"
        );
    }
    let games = read(&loaded.join("games.csv"));
    assert!(
        !games.contains("bot-error") && !games.contains("engine-error"),
        "{games}"
    );
}

/// Runs a Python script on `file` (as `sys.argv[1]`) and returns its output lines; fails with `what` and the
/// script's error output if it fails.
fn python_lines(script: &str, file: &Path, what: &str) -> Vec<String> {
    let py = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(file)
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&py.stderr)
    );
    String::from_utf8_lossy(&py.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// `games.pgn` of a chess tournament reads back in python-chess: every game, every move legal in its position,
/// the result and the ply count as recorded in games.csv. Needs python-chess (`pip install chess`); run with
/// `cargo test --release --test tournament -- --ignored pgn_reads_back`.
#[test]
#[ignore]
fn pgn_reads_back_in_python_chess() {
    let d = scratch("pgn");
    let out = d.join("run");
    dagaz(&[
        "tournament",
        &format!("{}/games/chess.zrf", env!("CARGO_MANIFEST_DIR")),
        "--bots",
        "random",
        "alphabeta:depth=1,name=ab1",
        "--games",
        "6",
        "--max-plies",
        "300",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let rows = csv_rows(&out.join("games.csv"));
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    let script = r#"
import sys, chess.pgn
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None:
            break
        if g.errors:
            raise SystemExit(f"game {g.headers['GameId']}: {g.errors}")
        b = g.board()
        n = 0
        for m in g.mainline_moves():
            assert b.is_legal(m), (g.headers['GameId'], n, m)
            b.push(m)
            n += 1
        outcome = b.outcome(claim_draw=True)
        print(g.headers['GameId'], n, g.headers['Result'], g.headers['Termination'],
              outcome.termination.name if outcome else 'none')
"#;
    let lines = python_lines(
        script,
        &out.join("games.pgn"),
        "python-chess could not read games.pgn",
    );
    assert_eq!(lines.len(), rows.len() - 1, "{lines:?}");
    for (line, row) in lines.iter().zip(&rows[1..]) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], row[col("game_id")]);
        assert_eq!(f[1], row[col("plies")], "ply count of game {}", f[0]);
        let want = match (row[col("result_1")].as_str(), row[col("result_2")].as_str()) {
            ("1", _) => "1-0",
            (_, "1") => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(f[2], want, "result of game {}", f[0]);
        // A checkmate in the record is a checkmate on python-chess's board.
        if f[3] == "checkmate" {
            assert_eq!(f[4], "CHECKMATE", "{line}");
        }
    }
}

/// Four shards (`--shard K/4`) merged with `dagaz merge` are the run one machine plays, byte for byte: games,
/// standings, end conditions, pairwise results, long results, report and settings; with an SPRT too, decided
/// on the merged pairs. A missing, doubled or unfinished shard is refused.
#[test]
fn four_shards_merged_are_one_run_byte_for_byte() {
    let d = scratch("shards");
    let cases: [(&str, Vec<&str>); 2] = [
        (
            "plain",
            vec![
                "--bots",
                "random",
                "alphabeta:depth=1,name=ab1",
                "mcts:iterations=20,playout_plies=30,name=m20",
                "--games",
                "6",
            ],
        ),
        (
            "sprt",
            vec![
                "--bots",
                "alphabeta:depth=1,name=ab1",
                "random",
                "--games",
                "60",
                "--sprt",
                "0,300,0.05,0.05",
            ],
        ),
    ];
    for (name, settings) in &cases {
        let dir = d.join(name);
        let play = |out: &Path, shard: Option<String>| {
            let mut args: Vec<String> = vec!["tournament".into(), "--seed".into(), "11".into()];
            args.extend(settings.iter().map(|s| s.to_string()));
            args.extend(["--quiet", "--jobs", "2", "--out"].map(String::from));
            args.push(out.to_str().unwrap().into());
            if let Some(s) = shard {
                args.extend(["--shard".into(), s]);
            }
            dagaz(&args.iter().map(String::as_str).collect::<Vec<_>>());
        };
        play(&dir.join("single"), None);
        for k in 1..=4 {
            play(&dir.join(format!("s{k}")), Some(format!("{k}/4")));
        }
        let shard = |k: u32| dir.join(format!("s{k}")).to_str().unwrap().to_string();
        let merged = dir.join("merged");
        dagaz(&[
            "merge",
            merged.to_str().unwrap(),
            &shard(3),
            &shard(1),
            &shard(4),
            &shard(2),
        ]);
        same_outputs(&dir.join("single"), &merged);
        for f in ["pairwise.csv", "results_long.csv"] {
            assert_eq!(
                read(&dir.join("single").join(f)),
                read(&merged.join(f)),
                "{name}: {f}"
            );
        }
        if *name == "sprt" {
            // The SPRT stopped the single run early; the shards played everything and the merge cut it the same.
            let single = read(&dir.join("single/games.csv")).lines().count();
            assert!(single < 61, "the SPRT did not stop the run: {single} rows");
            let report = read(&merged.join("report.md"));
            assert!(report.contains("SPRT"), "{report}");
        }
    }
    // Refusals, each naming the problem.
    let dir = d.join("plain");
    let s = |k: u32| dir.join(format!("s{k}")).to_str().unwrap().to_string();
    let out = d.join("bad");
    let e = dagaz_fails(&["merge", out.to_str().unwrap(), &s(1), &s(2), &s(3)]);
    assert!(e.contains("shard 4/4 is missing"), "{e}");
    let e = dagaz_fails(&["merge", out.to_str().unwrap(), &s(1), &s(2), &s(3), &s(3)]);
    assert!(e.contains("shard 3/4 is given twice"), "{e}");
    let e = dagaz_fails(&[
        "merge",
        out.to_str().unwrap(),
        &s(1),
        dir.join("single").to_str().unwrap(),
    ]);
    assert!(e.contains("is not a shard"), "{e}");
    // An unfinished shard: its last game removed.
    let games = dir.join("s2/games.csv");
    let text = read(&games);
    let mut lines: Vec<&str> = text.lines().collect();
    lines.pop();
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();
    let e = dagaz_fails(&["merge", out.to_str().unwrap(), &s(1), &s(2), &s(3), &s(4)]);
    assert!(e.contains("finish it first"), "{e}");
    let other = d.join("sprt");
    let e = dagaz_fails(&[
        "merge",
        out.to_str().unwrap(),
        &s(1),
        other.join("s2").to_str().unwrap(),
        &s(3),
        &s(4),
    ]);
    assert!(e.contains("not shards of the same run"), "{e}");
}

/// `--variants all` on a file of three variants prints one verdict line for each of the three pairs, each
/// measure with its p-value, and report.md has them too (English checkers on 8x8, on 6x6 and with OpenSpiel's
/// draw rule; the lines are checked, not the verdicts).
#[test]
fn variants_all_gives_a_verdict_per_pair_with_p_values() {
    let d = scratch("verdict");
    let out = d.join("run");
    let o = dagaz(&[
        "tournament",
        &format!("{}/games/english-checkers.zrf", env!("CARGO_MANIFEST_DIR")),
        "--variants",
        "all",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "20",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" vs ") && l.contains("p "))
        .collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    for line in &lines {
        for m in [
            "first-player advantage",
            "draw rate",
            "decisiveness",
            "length",
        ] {
            assert!(line.contains(m), "{m} missing: {line}");
        }
        assert_eq!(line.matches("(p ").count(), 4, "{line}");
    }
    let report = read(&out.join("report.md"));
    assert!(report.contains("## Do the variants differ?"), "{report}");
}

/// `--record-evals` gives every game Ludii's measures in games.csv (the last four only with a winner) and each
/// variant their means in report.md; without the flag the columns stay empty.
#[test]
fn record_evals_gives_ludii_measures_per_game_and_variant() {
    let d = scratch("evals");
    let out = d.join("run");
    dagaz(&[
        "tournament",
        "--bots",
        "alphabeta:depth=1,name=ab1",
        "random",
        "--games",
        "4",
        "--record-evals",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let rows = csv_rows(&out.join("games.csv"));
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    for r in &rows[1..] {
        let lead: f64 = r[col("lead_change")].parse().unwrap();
        assert!((0.0..=1.0).contains(&lead), "{r:?}");
        let won = !r[col("winner")].is_empty();
        for c in [
            "drama",
            "drama_plies",
            "decisiveness_threshold",
            "decisiveness_moves",
        ] {
            assert_eq!(!r[col(c)].is_empty(), won, "{c} in {r:?}");
        }
        if won {
            let moves: f64 = r[col("decisiveness_moves")].parse().unwrap();
            assert!((0.0..=1.0).contains(&moves), "{r:?}");
        }
    }
    let report = read(&out.join("report.md"));
    for m in [
        "lead change",
        "drama: mean gap",
        "decisiveness threshold",
        "decisiveness moves",
    ] {
        assert!(report.contains(m), "{m} missing from report.md");
    }
    // Without the flag: the columns are there and empty.
    let plain = d.join("plain");
    dagaz(&[
        "tournament",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--quiet",
        "--out",
        plain.to_str().unwrap(),
    ]);
    let rows = csv_rows(&plain.join("games.csv"));
    let c = rows[0].iter().position(|h| h == "lead_change").unwrap();
    assert!(rows[1..].iter().all(|r| r[c].is_empty()));
}

/// `games.sgf` of a Go tournament reads back in sgfmill, and replaying each game on sgfmill's own board (its
/// captures, not ours) puts every stone on an empty point, with as many moves as the record's plies and the
/// winner as recorded. Needs sgfmill (`pip install sgfmill`); run with
/// `cargo test --release --test tournament -- --ignored sgf_reads_back`.
#[test]
#[ignore]
fn sgf_reads_back_in_sgfmill() {
    let d = scratch("sgf");
    let out = d.join("run");
    dagaz(&[
        "tournament",
        &format!("{}/games/go-9x9.zrf", env!("CARGO_MANIFEST_DIR")),
        "--variant",
        "2",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "6",
        "--max-plies",
        "400",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let script = r#"
import sys
from sgfmill import sgf, sgf_grammar, boards
data = open(sys.argv[1], 'rb').read()
for coarse in sgf_grammar.parse_sgf_collection(data):
    g = sgf.Sgf_game.from_coarse_game_tree(coarse)
    b = boards.Board(g.get_size())
    n = 0
    for node in g.get_main_sequence()[1:]:
        colour, point = node.get_move()
        if point is not None:
            row, col = point
            b.play(row, col, colour)  # raises ValueError on an occupied point
        n += 1
    print(n, g.get_winner() or '-')
"#;
    let lines = python_lines(
        script,
        &out.join("games.sgf"),
        "sgfmill could not replay games.sgf",
    );
    let rows = csv_rows(&out.join("games.csv"));
    let col = |name: &str| rows[0].iter().position(|h| h == name).unwrap();
    assert_eq!(lines.len(), rows.len() - 1, "{lines:?}");
    for (line, row) in lines.iter().zip(&rows[1..]) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[0], row[col("plies")], "plies of game {}", row[0]);
        // Seat 1 is Black.
        let want = match (row[col("result_1")].as_str(), row[col("result_2")].as_str()) {
            ("1", _) => "b",
            (_, "1") => "w",
            _ => "-",
        };
        assert_eq!(f[1], want, "winner of game {}", row[0]);
    }
}

/// The part of an HTML page inside the element with id `id` (up to the element's closing tag, `tag`).
fn element<'a>(page: &'a str, tag: &str, id: &str) -> &'a str {
    let start = page
        .find(&format!(" id=\"{id}\""))
        .filter(|&i| {
            page[..i]
                .rfind('<')
                .is_some_and(|t| page[t + 1..].starts_with(tag))
        })
        .unwrap_or_else(|| panic!("no <{tag} id=\"{id}\"> in the page"));
    let end = page[start..]
        .find(&format!("</{tag}>"))
        .map_or(page.len(), |e| start + e);
    &page[start..end]
}

/// The texts of an SVG, in document order.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            Some(body[..body.find("</text>")?].trim().replace("&amp;", "&"))
        })
        .collect()
}

/// The values of attribute `name` in the elements `<tag ...>` of a text, in order.
fn attributes(text: &str, tag: &str, name: &str) -> Vec<f64> {
    text.split(&format!("<{tag} "))
        .skip(1)
        .filter_map(|t| {
            let t = &t[..t.find('>')?];
            let v = &t[t.find(&format!("{name}=\""))? + name.len() + 2..];
            v[..v.find('"')?].parse().ok()
        })
        .collect()
}

/// `report.html` of a small run: every chart under its id, the standings chart carrying standings.csv's Elo
/// and interval for each bot in rank order with the points placed by them, the heat map pairwise.csv's
/// scores, the LLR chart of the SPRT, and the first game replayed on the board as games.csv records it. A
/// game whose board has no coordinates says so instead of drawing one.
#[test]
fn report_html_has_every_chart_with_the_numbers_of_the_csv_files() {
    let d = scratch("html");
    let out = d.join("run");
    dagaz(&[
        "tournament",
        "--bots",
        "alphabeta:depth=1,name=ab1",
        "mcts:iterations=30,playout_plies=30,name=m30",
        "random",
        "--games",
        "8",
        "--seed",
        "4",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let page = read(&out.join("report.html"));
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..100]);
    assert!(
        !page.contains("llr-over-games"),
        "an LLR chart without an SPRT"
    );
    for id in [
        "standings-chart",
        "pairwise-heatmap",
        "elo-over-games",
        "first-player-advantage",
        "game-length-1",
        "end-conditions-1",
    ] {
        assert!(
            element(&page, "figure", id).contains("<svg"),
            "{id} has no chart"
        );
    }
    // Self-contained: nothing is fetched.
    for remote in ["http://", "https://", "src=", "@import", "url("] {
        let outside_svg_ns = page.replace("http://www.w3.org/2000/svg", "");
        assert!(
            !outside_svg_ns.contains(remote),
            "the page refers to {remote}"
        );
    }

    let standings = csv_rows(&out.join("standings.csv"));
    let col = |name: &str| standings[0].iter().position(|c| c == name).unwrap();
    let chart = element(&page, "figure", "standings-chart");
    let texts = svg_texts(chart);
    let mut at = vec![];
    for row in &standings[1..] {
        let label = format!("{} ± {}", row[col("elo")], row[col("elo_error95")]);
        let name = texts.iter().position(|t| *t == row[col("bot")]);
        let number = texts.iter().position(|t| *t == label);
        assert!(
            name.is_some() && number.is_some(),
            "{} ({label}) not in the chart: {texts:?}",
            row[col("bot")]
        );
        at.push(name.unwrap());
    }
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "not in rank order: {texts:?}"
    );
    // The points stand where the numbers say: the higher Elo further right (an infinite Elo is an arrow).
    let xs = attributes(chart, "circle", "cx");
    let elos: Vec<f64> = standings[1..]
        .iter()
        .filter_map(|r| r[col("elo")].parse::<f64>().ok().filter(|e| e.is_finite()))
        .collect();
    assert!(elos.len() >= 2, "{elos:?}");
    assert_eq!(xs.len(), elos.len(), "{chart}");
    for i in 1..xs.len() {
        assert_eq!(
            xs[i - 1].total_cmp(&xs[i]),
            elos[i - 1].total_cmp(&elos[i]),
            "{xs:?} against {elos:?}"
        );
    }

    let pairwise = csv_rows(&out.join("pairwise.csv"));
    let heat = svg_texts(element(&page, "figure", "pairwise-heatmap"));
    for row in &pairwise[1..] {
        assert!(heat.contains(&row[6]), "score {} not in {heat:?}", row[6]);
        assert!(
            heat.contains(&format!("{}-{}-{}", row[3], row[4], row[5])),
            "{heat:?}"
        );
    }

    // The first game, stepped through: a frame per ply, 32 pieces at the start, its moves as recorded.
    let games = csv_rows(&out.join("games.csv"));
    let moves: Vec<&str> = games[1].last().unwrap().split(';').collect();
    // From the sample's start to the end of the page (its divs nest).
    let sample = &page[page.find("id=\"sample-1\"").expect("sample-1")..];
    assert!(
        sample.contains(&format!("data-frames=\"{}\"", moves.len() + 1)),
        "{}",
        &sample[..200]
    );
    let json = &sample[sample.find("application/json\">").unwrap() + 18..];
    let frames: serde_json::Value =
        serde_json::from_str(&json[..json.find("</script>").unwrap()]).unwrap();
    assert_eq!(frames["frames"][0].as_array().unwrap().len(), 32);
    assert_eq!(frames["cells"].as_array().unwrap().len(), 64);
    let replayed: Vec<&str> = frames["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(replayed, moves);
    assert!(frames["frames"][moves.len()] != frames["frames"][0]);

    // With an SPRT, its LLR over games, ending at report.md's LLR, between the bounds.
    let sprt = d.join("sprt");
    dagaz(&[
        "tournament",
        "--bots",
        "alphabeta:depth=1,name=ab1",
        "random",
        "--games",
        "40",
        "--sprt",
        "0,300,0.05,0.05",
        "--quiet",
        "--out",
        sprt.to_str().unwrap(),
    ]);
    let page = read(&sprt.join("report.html"));
    let llr = svg_texts(element(&page, "figure", "llr-over-games"));
    assert!(llr.contains(&"H1 accepted (2.944)".to_string()), "{llr:?}");
    assert!(llr.contains(&"H0 accepted (-2.944)".to_string()), "{llr:?}");
    let md = read(&sprt.join("report.md"));
    let at = md.find(": LLR ").expect("the SPRT in report.md") + 2;
    let words = &md[at..at + 30];
    assert!(
        page.contains(words.split(" pairs").next().unwrap()),
        "{words}"
    );

    // Kalah's pits have no coordinates in its file.
    let kalah = d.join("kalah");
    dagaz(&[
        "tournament",
        "games/kalah.zrf",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--quiet",
        "--out",
        kalah.to_str().unwrap(),
    ]);
    let page = read(&kalah.join("report.html"));
    let sample = &page[page.find("id=\"sample-1\"").expect("sample-1")..];
    assert!(
        sample.contains(
            "No board is drawn for this game: its file gives its positions no coordinates"
        ),
        "{sample}"
    );
    assert!(!sample.contains("<svg"), "{sample}");
}

/// Runs headless Chromium on `url` with a fresh profile: the DOM after the page's scripts ran, and the
/// console's messages (errors and logs).
fn chromium(profile: &Path, url: &str, extra: &[&str]) -> (String, Vec<String>) {
    let _ = std::fs::remove_dir_all(profile);
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .output()
        .expect("chromium (apt-get install -y chromium)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let console = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(String::from)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), console)
}

/// The pieces of sample 1 as the browser shows them: (position, title) of each, from the DOM.
fn shown_pieces(dom: &str) -> (String, Vec<String>) {
    let start = dom.find("id=\"sample-1\"").expect("sample-1 in the DOM");
    let tag = &dom[start..start + dom[start..].find('>').unwrap()];
    let ply = tag
        .split("data-ply=\"")
        .nth(1)
        .map_or(String::new(), |p| p[..p.find('"').unwrap()].to_string());
    let end = dom[start..]
        .find("id=\"sample-2\"")
        .map_or(dom.len(), |e| start + e);
    let pieces = dom[start..end]
        .split("<g class=\"piece\"")
        .skip(1)
        .map(|p| p[..p.find("</g>").unwrap_or(p.len())].to_string())
        .collect();
    (ply, pieces)
}

/// report.html in a real browser (headless Chromium): no console message, the script ran, every chart is an
/// SVG carrying standings.csv's numbers, the first sample game shows its 32 pieces, and stepping to another
/// ply (`#sample-1-ply-K`, the step the buttons take) shows another position; a screenshot is not blank.
/// Needs Chromium (`apt-get update && apt-get install -y chromium`); run with
/// `cargo test --release --test tournament -- --ignored report_html_renders`.
#[test]
#[ignore]
fn report_html_renders_in_chromium() {
    let d = scratch("chromium");
    let out = d.join("run");
    dagaz(&[
        "tournament",
        "--bots",
        "alphabeta:depth=1,name=ab1",
        "mcts:iterations=30,playout_plies=30,name=m30",
        "--games",
        "20",
        "--seed",
        "2",
        "--sprt",
        "0,300,0.05,0.05",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let url = format!("file://{}", out.join("report.html").display());
    let (dom, console) = chromium(&d.join("profile"), &url, &["--dump-dom"]);
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert!(
        dom.contains("data-ready=\"yes\""),
        "the page's script did not finish"
    );
    for id in [
        "standings-chart",
        "pairwise-heatmap",
        "elo-over-games",
        "llr-over-games",
        "first-player-advantage",
        "game-length-1",
        "end-conditions-1",
    ] {
        let f = element(&dom, "figure", id);
        assert!(
            f.contains("<svg") && f.contains("<text"),
            "{id} is not drawn"
        );
    }
    let standings = csv_rows(&out.join("standings.csv"));
    let texts = svg_texts(element(&dom, "figure", "standings-chart"));
    for row in &standings[1..] {
        assert!(texts.contains(&row[1]), "{} not in {texts:?}", row[1]);
        assert!(
            texts.contains(&format!("{} ± {}", row[7], row[8])),
            "{} ± {} not in {texts:?}",
            row[7],
            row[8]
        );
    }

    let (ply, start) = shown_pieces(&dom);
    assert_eq!(ply, "0");
    assert_eq!(start.len(), 32, "{start:?}");
    let games = csv_rows(&out.join("games.csv"));
    let plies = games[1].last().unwrap().split(';').count();
    for k in [5, plies] {
        let (dom, console) = chromium(
            &d.join("profile"),
            &format!("{url}#sample-1-ply-{k}"),
            &["--dump-dom"],
        );
        assert!(console.is_empty(), "console messages: {console:#?}");
        let (ply, shown) = shown_pieces(&dom);
        assert_eq!(ply, k.to_string());
        assert!(
            !shown.is_empty() && shown != start,
            "ply {k} shows the start"
        );
    }

    // The controls themselves, clicked in the page: a probe page beside it loads it in a frame (file pages
    // may read each other with --allow-file-access-from-files), measures the drawn charts, clicks the step
    // buttons and a move of the list, and writes what it saw into its own DOM.
    std::fs::write(out.join("probe.html"), PROBE).unwrap();
    let (dom, console) = chromium(
        &d.join("profile"),
        &format!("file://{}", out.join("probe.html").display()),
        &["--allow-file-access-from-files", "--dump-dom"],
    );
    assert!(console.is_empty(), "console messages: {console:#?}");
    let json = &dom[dom.find("<pre id=\"result\">").expect("the probe's result") + 17..];
    let seen: serde_json::Value =
        serde_json::from_str(&json[..json.find("</pre>").unwrap()].replace("&quot;", "\""))
            .unwrap();
    assert!(seen["error"].is_null(), "{seen}");
    for chart in seen["charts"].as_array().unwrap() {
        assert!(
            chart["width"].as_f64().unwrap() > 150.0 && chart["height"].as_f64().unwrap() > 60.0,
            "not drawn: {chart}"
        );
        assert!(
            chart["texts"].as_u64().unwrap() > 0,
            "no text laid out: {chart}"
        );
    }
    assert_eq!(seen["charts"].as_array().unwrap().len(), 7, "{seen}");
    let steps = &seen["steps"];
    assert_eq!(steps["after_three_forward"]["ply"], "3", "{seen}");
    assert_ne!(
        steps["after_three_forward"]["pieces"], steps["start"]["pieces"],
        "{seen}"
    );
    assert_eq!(steps["after_one_back"]["ply"], "2", "{seen}");
    assert_eq!(steps["at_the_end"]["ply"], plies.to_string(), "{seen}");
    assert!(steps["at_the_end"]["now"]
        .as_str()
        .unwrap()
        .contains(&format!("Ply {plies} of {plies}")));
    assert_eq!(steps["move_7_clicked"]["ply"], "7", "{seen}");
    assert_eq!(steps["slider_at_4"]["ply"], "4", "{seen}");

    let png = d.join("report.png");
    chromium(
        &d.join("profile"),
        &url,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1200,3000",
            "--hide-scrollbars",
        ],
    );
    let size = std::fs::metadata(&png).map_or(0, |m| m.len());
    assert!(
        size > 60_000,
        "the screenshot is {size} bytes: a blank page?"
    );
}

/// The probe page of `report_html_renders_in_chromium`: loads `report.html` in a frame and reports, as JSON in
/// `<pre id="result">`, each chart's drawn size and laid-out texts, and sample 1 after clicks on its controls.
const PROBE: &str = r#"<!DOCTYPE html><html><body><pre id="result"></pre>
<iframe id="f" src="report.html" style="width:1200px;height:800px"></iframe>
<script>
document.getElementById("f").addEventListener("load", function () {
  var out = {};
  try {
    var doc = this.contentDocument;
    out.charts = Array.prototype.map.call(doc.querySelectorAll("figure[id] > svg"), function (svg) {
      var r = svg.getBoundingClientRect();
      var texts = Array.prototype.filter.call(svg.querySelectorAll("text"), function (t) {
        return t.textContent.trim() !== "" && t.getBBox().width > 0;
      });
      return { id: svg.parentNode.id, width: r.width, height: r.height, texts: texts.length };
    });
    var s = doc.getElementById("sample-1");
    var state = function () {
      return {
        ply: s.getAttribute("data-ply"),
        now: s.querySelector(".now").textContent,
        pieces: Array.prototype.map.call(s.querySelectorAll("g.piece"), function (p) {
          return p.getAttribute("data-cell") + " " + p.textContent;
        }).join(",")
      };
    };
    var click = function (step) { s.querySelector('button[data-step="' + step + '"]').click(); };
    out.steps = { start: state() };
    click("1"); click("1"); click("1");
    out.steps.after_three_forward = state();
    click("-1");
    out.steps.after_one_back = state();
    click("end");
    out.steps.at_the_end = state();
    s.querySelectorAll("ol.moves li")[6].click();
    out.steps.move_7_clicked = state();
    var range = s.querySelector("input[type=range]");
    range.value = 4;
    range.dispatchEvent(new Event("input"));
    out.steps.slider_at_4 = state();
  } catch (e) {
    out.error = String(e);
  }
  document.getElementById("result").textContent = JSON.stringify(out);
});
</script></body></html>
"#;

/// The layout probe of `report_html_renders_at_600_and_1400_px_in_chromium`: loads the page named after
/// `?` in two frames, 600 and 1400 px wide, and reports per width, as JSON in `<pre id="result">`: the page's
/// scroll width against its viewport; every element that reaches past the viewport's left or right edge
/// and is not inside a box that scrolls or clips horizontally (a table scrolling inside its card is fine);
/// every table wider than its section (the card); and every nav anchor whose target, scrolled to as the
/// link does, starts under the sticky bar.
const LAYOUT_PROBE: &str = r##"<!DOCTYPE html><html><body><pre id="result"></pre>
<script>
var page = location.search.slice(1), widths = [600, 1400], out = {}, left = widths.length;
function describe(e) {
  return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (typeof e.className === "string" && e.className ? "." + e.className.split(" ").join(".") : "");
}
function check(w, f) {
  var r = { width: w };
  try {
    var doc = f.contentDocument, win = f.contentWindow, vw = doc.documentElement.clientWidth;
    r.viewport = vw;
    r.scroll_width = doc.documentElement.scrollWidth;
    var clipped = function (e) {
      for (var a = e.parentElement; a && a !== doc.body; a = a.parentElement) {
        var o = win.getComputedStyle(a).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") return true;
      }
      return false;
    };
    r.overflowing = [];
    var all = doc.body.querySelectorAll("*");
    for (var i = 0; i < all.length; i++) {
      var e = all[i], b = e.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) continue;
      if ((b.right > vw + 0.5 || b.left < -0.5) && !clipped(e)) {
        r.overflowing.push(describe(e) + " [" + Math.round(b.left) + ", " + Math.round(b.right) + "]");
      }
    }
    r.tables_wider_than_their_card = [];
    var tables = doc.querySelectorAll("section table");
    for (var i = 0; i < tables.length; i++) {
      var t = tables[i], card = t.closest("section").getBoundingClientRect(), b = t.getBoundingClientRect();
      if (b.right > card.right + 0.5) r.tables_wider_than_their_card.push(describe(t));
    }
    r.hidden_by_the_bar = [];
    var nav = doc.querySelector("nav"), links = doc.querySelectorAll("nav a[href^='#']");
    for (var i = 0; i < links.length; i++) {
      var target = doc.getElementById(links[i].getAttribute("href").slice(1));
      if (!target) { r.hidden_by_the_bar.push(links[i].getAttribute("href") + " (no target)"); continue; }
      target.scrollIntoView();
      var top = target.getBoundingClientRect().top, bottom = nav.getBoundingClientRect().bottom;
      if (top < bottom - 0.5) r.hidden_by_the_bar.push(links[i].getAttribute("href") + " at " + top + " under " + bottom);
    }
  } catch (e) {
    r.error = String(e);
  }
  out[w] = r;
  if (--left === 0) document.getElementById("result").textContent = JSON.stringify(out);
}
widths.forEach(function (w) {
  var f = document.createElement("iframe");
  f.style.width = w + "px";
  f.style.height = "700px";
  f.style.border = "0";
  f.addEventListener("load", function () { check(w, f); });
  f.src = page;
  document.body.appendChild(f);
});
</script></body></html>
"##;

/// What `LAYOUT_PROBE` found on `page` (a file in `dir`), per width; asserts Chromium logged nothing.
fn layout_of(dir: &Path, page: &str) -> serde_json::Value {
    std::fs::write(dir.join("layout-probe.html"), LAYOUT_PROBE).unwrap();
    let (dom, console) = chromium(
        &dir.join("profile-layout"),
        &format!("file://{}?{page}", dir.join("layout-probe.html").display()),
        &[
            "--allow-file-access-from-files",
            "--window-size=2100,900",
            "--virtual-time-budget=5000",
            "--dump-dom",
        ],
    );
    assert!(console.is_empty(), "console messages: {console:#?}");
    let json = &dom[dom.find("<pre id=\"result\">").expect("the probe's result") + 17..];
    serde_json::from_str(&json[..json.find("</pre>").unwrap()].replace("&quot;", "\""))
        .unwrap_or_else(|e| panic!("{e}: {json}"))
}

/// The faults `layout_of` reported at one width, as lines (empty: the page fits).
fn layout_faults(seen: &serde_json::Value, width: u32) -> Vec<String> {
    let r = &seen[width.to_string()];
    let mut out = vec![];
    if let Some(e) = r["error"].as_str() {
        out.push(format!("probe error: {e}"));
    }
    if r["scroll_width"].as_f64() > r["viewport"].as_f64() {
        out.push(format!(
            "the page is {} px wide in a {} px viewport",
            r["scroll_width"], r["viewport"]
        ));
    }
    for k in [
        "overflowing",
        "tables_wider_than_their_card",
        "hidden_by_the_bar",
    ] {
        for x in r[k].as_array().into_iter().flatten() {
            out.push(format!("{k}: {}", x.as_str().unwrap_or_default()));
        }
    }
    out
}

/// The page with the layout fixes of 5e662a1 taken out again (tables that scroll inside their card, anchors
/// that clear the sticky bar, the narrow-screen paddings, sample cards that shrink): the report as it was
/// before them, for the layout check to fail on.
fn without_the_layout_fixes(page: &str) -> String {
    let fixed = [
        (
            "font-variant-numeric: tabular-nums;\n  display: block; max-width: 100%; overflow-x: auto; }",
            "font-variant-numeric: tabular-nums; }",
        ),
        ("[id] { scroll-margin-top: 52px; }\n", ""),
        (
            "@media (max-width: 700px) {\n  header, nav { padding-left: 12px; padding-right: 12px; }\n  main { padding: 10px 8px 32px; }\n  section { padding: 12px 12px 14px; }\n}\n",
            "",
        ),
        ("minmax(min(480px, 100%), 1fr)", "minmax(480px, 1fr)"),
    ];
    let mut out = page.to_string();
    for (now, before) in fixed {
        assert!(out.contains(now), "the page no longer has {now:?}");
        out = out.replacen(now, before, 1);
    }
    out
}

/// report.html at 600 and 1400 px in headless Chromium: nothing reaches past the viewport except inside a
/// box that scrolls (tables scroll inside their cards), no table is wider than its card, every nav anchor
/// lands below the sticky bar, and Chromium logs nothing. The check is shown to fail: on the same page with
/// the layout fixes of 5e662a1 taken out, it finds the overflow at 600 px and the headings under the bar.
/// (A Go run's page: `report_html_draws_go_and_passes_in_chromium`.) Needs Chromium; run with
/// `cargo test --release --test tournament -- --ignored report_html_renders_at`.
#[test]
#[ignore]
fn report_html_renders_at_600_and_1400_px_in_chromium() {
    let out = small_run("layout");
    let seen = layout_of(&out, "report.html");
    for w in [600, 1400] {
        let faults = layout_faults(&seen, w);
        assert!(faults.is_empty(), "at {w} px: {faults:#?}");
    }
    // The standings table is wider than a 600 px card: it scrolls inside it, rather than fitting by luck.
    // The check fails on the page before the fixes: at 600 px something overflows and an anchor is hidden.
    let page = read(&out.join("report.html"));
    std::fs::write(out.join("before.html"), without_the_layout_fixes(&page)).unwrap();
    let seen = layout_of(&out, "before.html");
    let faults = layout_faults(&seen, 600);
    assert!(
        faults.iter().any(|f| f.starts_with("overflowing")),
        "no overflow found on the page before the fixes: {faults:#?}"
    );
    assert!(
        faults.iter().any(|f| f.starts_with("hidden_by_the_bar")),
        "no heading found under the bar on the page before the fixes: {faults:#?}"
    );
    // A deliberately broken page: one wide element outside any scrolling box.
    let broken = page.replacen(
        "<main>",
        "<main><div id=\"too-wide\" style=\"width:900px\">x</div>",
        1,
    );
    std::fs::write(out.join("broken.html"), broken).unwrap();
    let seen = layout_of(&out, "broken.html");
    let faults = layout_faults(&seen, 600);
    assert!(
        faults.iter().any(|f| f.contains("div#too-wide")),
        "{faults:#?}"
    );
    assert!(layout_faults(&seen, 1400).is_empty());
}

/// The Go board of report.html (issue 21, fixed in 2624d24; shown failing on a build of 2624d24^ with
/// `DAGAZ_TEST_BIN`): a Go 5x5 run's page fits at 600 and 1400 px, draws grid lines and coordinates, and after
/// a pass the caption says pass and no stone is marked as the last move. Needs Chromium; run with
/// `cargo test --release --test tournament -- --ignored report_html_draws_go`.
#[test]
#[ignore]
fn report_html_draws_go_and_passes_in_chromium() {
    let d = scratch("layout-go");
    // Go 5x5 between random bots.
    let go = d.join("go");
    dagaz(&[
        "tournament",
        "games/go-9x9.zrf",
        "--variant",
        "2",
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "2",
        "--seed",
        "3",
        "--quiet",
        "--out",
        go.to_str().unwrap(),
    ]);
    // After a pass, the caption says pass and nothing is marked; the stones are drawn.
    let games = csv_rows(&go.join("games.csv"));
    let moves: Vec<&str> = games[1].last().unwrap().split(';').collect();
    let k = 1 + moves
        .iter()
        .position(|m| *m == "pass")
        .expect("a pass in a random game of Go 5x5");
    let url = format!(
        "file://{}#sample-1-ply-{k}",
        go.join("report.html").display()
    );
    let (dom, console) = chromium(&d.join("profile"), &url, &["--dump-dom"]);
    assert!(console.is_empty(), "console messages: {console:#?}");
    let start = dom.find("id=\"sample-1\"").unwrap();
    let sample = &dom[start..];
    let marks = &sample[sample
        .find("<g class=\"lastmove\">")
        .expect("the mark's group")..];
    assert!(
        marks.starts_with("<g class=\"lastmove\"></g>"),
        "a mark after the pass: {}",
        &marks[..200.min(marks.len())]
    );
    let now = &sample[sample.find("<div class=\"now\">").unwrap()..];
    assert!(
        now[..now.find("</div>").unwrap()].contains("<b>pass</b>"),
        "{}",
        &now[..200.min(now.len())]
    );
    assert!(sample.contains("class=\"gridline\"") && sample.contains("class=\"coords\""));
    if k > 1 {
        assert!(
            sample.contains("<g class=\"piece stone\""),
            "no stones drawn at ply {k}"
        );
    }
    // The page fits.
    let seen = layout_of(&go, "report.html");
    for w in [600, 1400] {
        let faults = layout_faults(&seen, w);
        assert!(faults.is_empty(), "Go, at {w} px: {faults:#?}");
    }
}

/// The small run of the report.html checks: three bots, 4 games, seed 2 (one Elo's 95% interval is unbounded).
/// The guard reads as the run folder, `run` in a scratch folder.
fn small_run(name: &str) -> Scratch {
    let d = scratch(name);
    let out = d.join("run");
    dagaz(&[
        "tournament",
        "--bots",
        "alphabeta:depth=1,name=ab1",
        "mcts:iterations=30,playout_plies=30,name=m30",
        "random",
        "--games",
        "4",
        "--seed",
        "2",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    d.at("run")
}

/// A report.html fault of issue 21, fixed in 5e662a1 and failed by the page before it (shown with
/// `DAGAZ_TEST_BIN` set to a build of 5e662a1^): an Elo with an unbounded 95% interval (`-88.74 ± inf`: the
/// interval's upper end is a score of 1) was drawn as a bar with two finite ends; it is a line with open ends
/// (two arrowheads) and the point, and an infinite Elo is one arrowhead at its end of the axis: so the
/// standings chart has one polygon per infinite Elo, two per unbounded interval, and a bar (rectangle) only
/// for bounded intervals.
#[test]
fn report_html_draws_unbounded_intervals_open() {
    let out = small_run("html-inf");
    let page = read(&out.join("report.html"));
    let standings = csv_rows(&out.join("standings.csv"));
    let col = |name: &str| standings[0].iter().position(|c| c == name).unwrap();
    let (mut infinite, mut unbounded, mut bounded) = (0, 0, 0);
    for row in &standings[1..] {
        match (row[col("elo")].as_str(), row[col("elo_error95")].as_str()) {
            ("inf" | "-inf", _) => infinite += 1,
            (_, "inf") => unbounded += 1,
            (e, _) if !e.is_empty() => bounded += 1,
            _ => {}
        }
    }
    assert!(
        unbounded > 0,
        "the run must have an Elo with an unbounded interval: {standings:?}"
    );
    let chart = element(&page, "figure", "standings-chart");
    assert_eq!(
        chart.matches("<polygon").count(),
        infinite + 2 * unbounded,
        "{chart}"
    );
    // The background, and one bar per bounded interval.
    assert_eq!(chart.matches("<rect").count(), 1 + bounded, "{chart}");
}

/// A report.html fault of issue 21, fixed in 5e662a1 and failed by the page before it (shown with
/// `DAGAZ_TEST_BIN` set to a build of 5e662a1^): the sample titles counted from 0 (`Game 0`) while their
/// anchors count from 1 (`#sample-1`); each title is `Sample N (game ID)`, N its anchor's number and ID its
/// game's id in games.csv.
#[test]
fn report_html_numbers_samples_as_their_anchors() {
    let out = small_run("html-samples");
    let page = read(&out.join("report.html"));
    let games = csv_rows(&out.join("games.csv"));
    let mut n = 0;
    for (i, part) in page
        .split("<div class=\"sample\" id=\"sample-")
        .enumerate()
        .skip(1)
    {
        let number: usize = part[..part.find('"').unwrap()].parse().unwrap();
        assert_eq!(number, i);
        let h3 = &part[part.find("<h3>").unwrap() + 4..part.find("</h3>").unwrap()];
        let id = h3
            .strip_prefix(&format!("Sample {number} (game "))
            .unwrap_or_else(|| panic!("sample {number} is titled {h3:?}"));
        let id = &id[..id.find(')').unwrap()];
        assert!(games[1..].iter().any(|g| g[0] == id), "no game {id}");
        n += 1;
    }
    assert!(n >= 2, "{n} samples");
}
