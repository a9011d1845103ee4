//! Shards that recover by themselves (issue 21): `--start-or-resume`, the merge's checks of game ids, of the
//! game file and of the build, `dagaz status`, and an SPRT that stops every shard once it decides over all of
//! them. The Slurm end-to-end check (`scripts/slurm-local.sh`) is the ignored test at the end.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_dagaz");

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("shards-{name}"))
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn run(args: &[&str], dir: Option<&Path>) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).stdin(Stdio::null());
    if let Some(d) = dir {
        c.current_dir(d);
    }
    c.output().unwrap()
}

fn dagaz(args: &[&str]) -> Output {
    let out = run(args, None);
    assert!(
        out.status.success(),
        "dagaz {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn dagaz_fails(args: &[&str]) -> String {
    let out = run(args, None);
    assert!(!out.status.success(), "dagaz {args:?} should have failed");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The game ids of a run's games.csv, in file order.
fn ids(dir: &Path) -> Vec<u64> {
    read(&dir.join("games.csv"))
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect()
}

/// Keeps the header and the first `n` rows of a run's games.csv (what a kill after `n` games leaves).
fn keep_rows(dir: &Path, n: usize) {
    let p = dir.join("games.csv");
    let text = read(&p);
    let lines: Vec<&str> = text.lines().take(n + 1).collect();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
}

const PLAIN: [&str; 9] = [
    "--bots",
    "random",
    "alphabeta:depth=1,name=ab1",
    "mcts:iterations=20,playout_plies=30,name=m20",
    "--games",
    "4",
    "--seed",
    "5",
    "--quiet",
];

/// Plays shard `k` of 4 of PLAIN (the game `game` if given) into `out`.
fn shard(out: &Path, k: u32, game: Option<&Path>, extra: &[&str]) -> Output {
    shard_in(None, out, k, game, extra)
}

/// [`shard`] from the folder `cwd`.
fn shard_in(cwd: Option<&Path>, out: &Path, k: u32, game: Option<&Path>, extra: &[&str]) -> Output {
    let sh = format!("{k}/4");
    let mut args = vec!["tournament"];
    if let Some(g) = game {
        args.push(s(g));
    }
    args.extend(PLAIN);
    args.extend(["--jobs", "1", "--shard", &sh, "--out", s(out)]);
    args.extend(extra);
    run(&args, cwd)
}

/// One command starts a shard or finishes it: a shard cut short (as a kill leaves it) is finished by the same
/// command, with the games an uninterrupted shard plays; other settings are refused, naming the difference.
#[test]
fn start_or_resume_starts_a_shard_or_finishes_it() {
    let d = scratch("start-or-resume");
    let (whole, cut) = (d.join("whole"), d.join("cut"));
    assert!(shard(&whole, 2, None, &[]).status.success());
    let o = shard(&cut, 2, None, &["--start-or-resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(ids(&cut), ids(&whole));
    // Shard 2 of 4 of 3 bots x 4 games (12 games, ids 0..12): ids 1, 5, 9.
    assert_eq!(ids(&whole), [1, 5, 9]);
    keep_rows(&cut, 1);
    let o = shard(&cut, 2, None, &["--start-or-resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&cut.join("games.csv")), read(&whole.join("games.csv")));
    assert_eq!(
        read(&cut.join("standings.csv")),
        read(&whole.join("standings.csv"))
    );
    // Again on a finished shard: nothing to play, the same files.
    let o = shard(&cut, 2, None, &["--start-or-resume"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&cut.join("games.csv")), read(&whole.join("games.csv")));
    // Another shard's settings in the same folder: refused, naming the field.
    let o = shard(&cut, 3, None, &["--start-or-resume"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && e.contains("`shard` was `2/4`"),
        "{e}"
    );
    // Without the flag, a folder that holds a run is refused as before.
    let o = shard(&cut, 2, None, &[]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("already holds a run"));
}

/// Four finished shards of PLAIN in `dir`/s1..s4.
fn four_shards(dir: &Path, game: Option<&Path>) -> Vec<PathBuf> {
    four_shards_in(None, dir, game)
}

/// [`four_shards`] from the folder `cwd`.
fn four_shards_in(cwd: Option<&Path>, dir: &Path, game: Option<&Path>) -> Vec<PathBuf> {
    (1..=4)
        .map(|k| {
            let out = dir.join(format!("s{k}"));
            let o = shard_in(cwd, &out, k, game, &[]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            out
        })
        .collect()
}

/// The merge takes exactly the run's game ids: a shard whose games.csv holds a game twice (with as many rows
/// as it should have: one of its games lost) is refused naming the game and the shard, and so is a game of
/// another shard; a lacking game is named with its shard.
#[test]
fn merge_refuses_a_duplicated_foreign_or_lacking_game() {
    let d = scratch("ids");
    let dirs = four_shards(&d, None);
    let all: Vec<&str> = dirs.iter().map(|p| s(p)).collect();
    let merge = |out: &Path| -> Vec<String> {
        let mut a = vec!["merge".to_string(), s(out).to_string()];
        a.extend(all.iter().map(|x| x.to_string()));
        a
    };
    let merge_fails = |out: &Path| {
        let a = merge(out);
        dagaz_fails(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let games = dirs[1].join("games.csv");
    let good = read(&games);
    let lines: Vec<&str> = good.lines().collect();
    assert_eq!(lines.len(), 4, "{good}");
    // The row of game 5 replaced by a second copy of game 1: three rows, as many as the shard has games.
    let dup = format!("{}\n{}\n{}\n{}\n", lines[0], lines[1], lines[1], lines[3]);
    std::fs::write(&games, &dup).unwrap();
    let e = merge_fails(&d.join("m1"));
    assert!(
        e.contains("game 1 is in") && e.contains("more than once (shard 2/4)"),
        "{e}"
    );
    assert!(!d.join("m1/games.csv").exists());
    // A row of shard 1 (game 0) in shard 2's file.
    let foreign = read(&dirs[0].join("games.csv"));
    let row0 = foreign.lines().nth(1).unwrap();
    std::fs::write(
        &games,
        format!("{}\n{}\n{}\n{}\n", lines[0], row0, lines[2], lines[3]),
    )
    .unwrap();
    let e = merge_fails(&d.join("m2"));
    assert!(
        e.contains("game 0 in") && e.contains("is not a game of shard 2/4"),
        "{e}"
    );
    // Game 5 lacking.
    std::fs::write(
        &games,
        format!("{}\n{}\n{}\n", lines[0], lines[1], lines[3]),
    )
    .unwrap();
    let e = merge_fails(&d.join("m3"));
    assert!(
        e.contains("shard 2/4") && e.contains("lacks game 5") && e.contains("finish it first"),
        "{e}"
    );
    // Put back: merged, 12 games.
    std::fs::write(&games, &good).unwrap();
    let a = merge(&d.join("m4"));
    dagaz(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(ids(&d.join("m4")), (0..12).collect::<Vec<u64>>());
}

/// The merge reads the game file by the hash the shards recorded, not through the first shard's relative
/// path: shard folders moved away from the game are merged with --game, or by finding the file at another
/// shard's recorded path; a file of another hash is refused, naming both hashes.
#[test]
fn merge_finds_the_game_by_its_recorded_hash() {
    let d = scratch("game");
    let games = d.join("games");
    std::fs::create_dir_all(&games).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/breakthrough.zrf");
    let game = games.join("breakthrough.zrf");
    std::fs::copy(&src, &game).unwrap();
    let runs = d.join("runs");
    // The game named relatively (from `d`), as the shards' config.toml then records it: relative to each
    // shard's folder.
    let dirs = four_shards_in(Some(&d), &runs, Some(Path::new("games/breakthrough.zrf")));
    let single = d.join("single");
    let mut a = vec!["tournament", s(&game)];
    a.extend(PLAIN);
    a.extend(["--jobs", "1", "--out", s(&single)]);
    dagaz(&a);
    // The shards moved one folder deeper: their recorded relative path (../../games/...) now misses.
    let moved = d.join("elsewhere/deeper");
    std::fs::create_dir_all(&moved).unwrap();
    let mut moved_dirs = vec![];
    for (k, dir) in dirs.iter().enumerate() {
        let to = moved.join(format!("s{}", k + 1));
        std::fs::rename(dir, &to).unwrap();
        moved_dirs.push(to);
    }
    let all: Vec<&str> = moved_dirs.iter().map(|p| s(p)).collect();
    let m1 = d.join("m1");
    let mut m = vec!["merge", s(&m1)];
    m.extend(&all);
    let e = dagaz_fails(&m);
    assert!(e.contains("give it with --game FILE"), "{e}");
    // A file of the same name but other bytes where the first shard's path now points: not taken.
    let decoy_dir = d.join("elsewhere/games");
    std::fs::create_dir_all(&decoy_dir).unwrap();
    std::fs::write(
        decoy_dir.join("breakthrough.zrf"),
        format!("{}\n; another file of the same name\n", read(&game)),
    )
    .unwrap();
    let e = dagaz_fails(&m);
    assert!(e.contains("(hash "), "{e}");
    // --game with the wrong file: refused, naming both hashes.
    let mut wrong = m.clone();
    let decoy = decoy_dir.join("breakthrough.zrf");
    wrong.extend(["--game", s(&decoy)]);
    let e = dagaz_fails(&wrong);
    assert!(
        e.contains("its hash is") && e.contains("the shards played a file of hash"),
        "{e}"
    );
    // --game with the right file: merged, the same run as one machine's.
    let mut right = m.clone();
    right.extend(["--game", s(&game)]);
    dagaz(&right);
    for f in ["games.csv", "standings.csv", "report.md"] {
        assert_eq!(read(&single.join(f)), read(&d.join("m1").join(f)), "{f}");
    }
    // One shard moved back beside the game: its recorded path finds the file, whichever shard comes first.
    std::fs::rename(&moved_dirs[2], runs.join("s3")).unwrap();
    let m2 = d.join("m2");
    let mut found = vec!["merge", s(&m2)];
    let back = runs.join("s3");
    found.extend([all[0], all[1], s(&back), all[3]]);
    dagaz(&found);
    assert_eq!(
        read(&single.join("games.csv")),
        read(&d.join("m2/games.csv"))
    );
}

/// The fingerprint records the build, and shards of two builds are not merged.
#[test]
fn merge_refuses_shards_of_two_builds() {
    let d = scratch("build");
    let dirs = four_shards(&d, None);
    let fp = read(&dirs[2].join("fingerprint.json"));
    let v: Vec<(String, String)> = serde_json::from_str(&fp).unwrap();
    let build = v
        .iter()
        .find(|(k, _)| k == "dagaz build")
        .map(|(_, b)| b.clone())
        .expect("the fingerprint names the build");
    assert!(
        build.starts_with("git ") || build.starts_with("binary "),
        "{build}"
    );
    let other: Vec<(String, String)> = v
        .into_iter()
        .map(|(k, b)| {
            if k == "dagaz build" {
                (k, "git 0123456789abcdef0123456789abcdef01234567".into())
            } else {
                (k, b)
            }
        })
        .collect();
    std::fs::write(
        dirs[2].join("fingerprint.json"),
        serde_json::to_string_pretty(&other).unwrap(),
    )
    .unwrap();
    let mut m = vec!["merge", "placeholder"];
    let out = d.join("m");
    m[1] = s(&out);
    m.extend(dirs.iter().map(|p| s(p)));
    let e = dagaz_fails(&m);
    assert!(
        e.contains("not shards of the same run") && e.contains("`dagaz build`"),
        "{e}"
    );
}

/// `dagaz status` over shards part-way: each shard's games of its share, the total, the standings so far and
/// the SPRT's LLR over the games of all shards, which on finished shards is the one machine's LLR.
#[test]
fn status_shows_progress_standings_and_the_llr() {
    let d = scratch("status");
    let settings = [
        "--bots",
        "random",
        "random:name=r2",
        "--games",
        "40",
        "--sprt=-5,5,0.05,0.05",
        "--seed",
        "3",
        "--quiet",
        "--jobs",
        "1",
    ];
    let single = d.join("single");
    let mut a = vec!["tournament"];
    a.extend(settings);
    a.extend(["--out", s(&single)]);
    dagaz(&a);
    let dirs: Vec<PathBuf> = (1..=4).map(|k| d.join(format!("s{k}"))).collect();
    for (k, dir) in dirs.iter().enumerate() {
        let sh = format!("{}/4", k + 1);
        let mut a = vec!["tournament"];
        a.extend(settings);
        a.extend(["--shard", &sh, "--out", s(dir)]);
        dagaz(&a);
    }
    let mut st = vec!["status"];
    st.extend(dirs.iter().map(|p| s(p)));
    let text = String::from_utf8(dagaz(&st).stdout).unwrap();
    // 40 games, 10 per shard; all finished; the LLR as one machine's report says it.
    assert!(text.contains("shard 1/4"), "{text}");
    assert!(text.contains("10 of 10 games (finished)"), "{text}");
    assert!(text.contains("total: 40 of 40 games (100.0%)"), "{text}");
    assert!(text.contains("standings so far"), "{text}");
    let report = read(&single.join("report.md"));
    let llr = report
        .split("LLR ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no LLR in {report}"))
        .trim_end_matches(',');
    assert!(text.contains(&format!("LLR {llr} ")), "{llr}\n{text}");
    // Shard 3 cut to 4 games: its progress, the total, and the wins of the standings counted over 34 games.
    keep_rows(&dirs[2], 4);
    let text = String::from_utf8(dagaz(&st).stdout).unwrap();
    assert!(text.contains("4 of 10 games\n"), "{text}");
    assert!(text.contains("total: 34 of 40 games (85.0%)"), "{text}");
    let games_col: u64 = text
        .lines()
        .filter(|l| l.trim_start().starts_with("r2 ") || l.trim_start().starts_with("random "))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(games_col, 2 * 34, "{text}");
    // Only some shards given: said so.
    let text = String::from_utf8(dagaz(&["status", s(&dirs[0]), s(&dirs[1])]).stdout).unwrap();
    assert!(text.contains("not given: shard 3/4, 4/4"), "{text}");
}

/// A sharded SPRT stops every shard once it decides over the games of all of them (a marker file in the
/// shared folder), and the merge is the run one machine plays, which stops at the same pair.
#[test]
fn a_sharded_sprt_stops_every_shard() {
    let d = scratch("sprt");
    let settings = [
        "--bots",
        "alphabeta:depth=2,name=ab2",
        "random",
        "--games",
        "400",
        "--sprt",
        "0,300,0.05,0.05",
        "--seed",
        "11",
        "--quiet",
        "--jobs",
        "1",
    ];
    let single = d.join("single");
    let mut a = vec!["tournament"];
    a.extend(settings);
    a.extend(["--out", s(&single)]);
    dagaz(&a);
    let one = ids(&single).len();
    assert!(
        one < 40,
        "one machine's SPRT did not stop early: {one} games"
    );
    let runs = d.join("runs");
    let dirs: Vec<PathBuf> = (1..=4).map(|k| runs.join(format!("s{k}"))).collect();
    let children: Vec<_> = dirs
        .iter()
        .enumerate()
        .map(|(k, dir)| {
            let mut c = Command::new(BIN);
            c.arg("tournament")
                .args(settings)
                .args(["--shard", &format!("{}/4", k + 1), "--out", s(dir)])
                .arg("--start-or-resume")
                .stdin(Stdio::null());
            c.spawn().unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let markers: Vec<_> = std::fs::read_dir(&runs)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("sprt-stop-"))
        .collect();
    assert_eq!(markers.len(), 1, "no stop marker in {}", runs.display());
    for dir in &dirs {
        let n = ids(dir).len();
        assert!(n < 100, "{} played {n} of its 100 games", dir.display());
    }
    let out = d.join("merged");
    let mut m = vec!["merge", s(&out)];
    m.extend(dirs.iter().map(|p| s(p)));
    dagaz(&m);
    for f in [
        "games.csv",
        "standings.csv",
        "end_conditions.csv",
        "report.md",
        "report.html",
    ] {
        assert_eq!(read(&single.join(f)), read(&out.join(f)), "{f}");
    }
}

/// The Slurm end-to-end check on a one-node cluster (root, Debian's slurm-wlm): a shard killed mid-run and
/// resubmitted alone by scripts/slurm/submit.sh finishes, a requeued shard finishes, the dependent merges run
/// by themselves, and the results are byte-identical to one machine's; the same with an SPRT that stops early
/// across 4 shards. Run with:
///     cargo test --release --test shards -- --ignored slurm --nocapture
#[test]
#[ignore]
fn slurm_end_to_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/slurm-local.sh"))
        .current_dir(root)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "scripts/slurm-local.sh failed");
    assert!(text.contains("slurm end-to-end: ok"), "{text}");
}
