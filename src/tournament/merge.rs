//! `dagaz merge OUT DIR...`: the shards of a run (`--shard K/N`, each played anywhere) put together into the
//! run one machine would have played: the same `games.csv`, `standings.csv`, `end_conditions.csv`,
//! `pairwise.csv`, `report.md` and `report.html`, byte for byte, with the SPRT decided on the merged pairs.
//!
//! The shards must be the same run (their fingerprints equal but for the shard and where the game file was
//! read from: its hash must match), each shard 1..N exactly once, and each finished. Rows are copied as they
//! are and put in order by the same external sort a run ends with, so memory does not grow with the run.

use super::config::{Shard, TournamentConfig};
use super::runner::{conclude, replay_sprt, RunOutcome};
use super::schedule::Schedule;
use super::writers::RunFiles;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// Fingerprint fields that may differ between the shards of one run.
const MAY_DIFFER: [&str; 2] = ["shard", "game"];

struct ShardDir {
    dir: PathBuf,
    shard: Shard,
    config: TournamentConfig,
    fingerprint: Vec<(String, String)>,
}

fn read_shard(dir: &Path) -> Result<ShardDir, String> {
    let config = TournamentConfig::read_file(&dir.join("config.toml"))
        .map_err(|e| format!("{} is not a run folder: {e}", dir.display()))?;
    let shard = config.shard.ok_or_else(|| {
        format!(
            "{} is not a shard: its config.toml has no `shard` (a run played with --shard K/N)",
            dir.display()
        )
    })?;
    let path = dir.join("fingerprint.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let fingerprint: Vec<(String, String)> = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a fingerprint ({e})", path.display()))?;
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        shard,
        config,
        fingerprint,
    })
}

/// Appends the rows of `from` (after its header) to `to`.
fn append_rows(from: &Path, to: &Path) -> Result<(), String> {
    let f = std::fs::File::open(from).map_err(|e| format!("{}: {e}", from.display()))?;
    let mut w = std::io::BufWriter::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(to)
            .map_err(|e| format!("{}: {e}", to.display()))?,
    );
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", from.display()))?;
        if i > 0 && !line.is_empty() {
            w.write_all(line.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .map_err(|e| format!("{}: {e}", to.display()))?;
        }
    }
    w.flush().map_err(|e| format!("{}: {e}", to.display()))
}

/// Merges the shard folders `dirs` into a new run folder `out`.
pub fn merge(out: &Path, dirs: &[PathBuf]) -> Result<RunOutcome, String> {
    let start = std::time::Instant::now();
    if dirs.is_empty() {
        return Err("merge: give the shard folders to merge".into());
    }
    let shards = dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<Vec<_>, _>>()?;
    let n = shards[0].shard.n;
    for s in &shards {
        if s.shard.n != n {
            return Err(format!(
                "{} is shard {} but {} is shard {}: shards of one run share N",
                s.dir.display(),
                s.shard,
                shards[0].dir.display(),
                shards[0].shard
            ));
        }
    }
    for k in 1..=n {
        let have: Vec<&ShardDir> = shards.iter().filter(|s| s.shard.k == k).collect();
        match have.len() {
            0 => return Err(format!("shard {k}/{n} is missing")),
            1 => {}
            _ => {
                return Err(format!(
                    "shard {k}/{n} is given twice: {} and {}",
                    have[0].dir.display(),
                    have[1].dir.display()
                ))
            }
        }
    }
    // One run: the same fingerprint but for the shard and the game's path (its hash must match).
    let first = &shards[0];
    for s in &shards[1..] {
        let norm = |f: &[(String, String)]| -> Vec<(String, String)> {
            f.iter()
                .filter(|(k, _)| !MAY_DIFFER.contains(&k.as_str()))
                .cloned()
                .collect()
        };
        let (a, b) = (norm(&first.fingerprint), norm(&s.fingerprint));
        if a != b {
            let field = a
                .iter()
                .zip(&b)
                .find(|(x, y)| x != y)
                .map_or("the field list".to_string(), |(x, y)| {
                    format!("`{}`: `{}` against `{}`", x.0, x.1, y.1)
                });
            return Err(format!(
                "{} and {} are not shards of the same run ({field})",
                first.dir.display(),
                s.dir.display()
            ));
        }
    }
    let mut config = first.config.clone();
    config.shard = None;
    let mut t = config.load()?;
    let seats = t.max_seats();
    let sched = Schedule::new(
        t.config.format,
        t.bots.len(),
        &t.variants
            .iter()
            .map(|v| v.seats().len())
            .collect::<Vec<_>>(),
        t.config.games,
    )?;
    for s in &shards {
        let files = RunFiles::new(&s.dir, seats);
        let have = files.for_each_game(|_| Ok(()))?;
        let want = s.shard.count(sched.len());
        if have != want {
            return Err(format!(
                "shard {} in {} has {have} of its {want} games: finish it first (`dagaz tournament --resume \
                 --out {}`)",
                s.shard,
                s.dir.display(),
                s.dir.display()
            ));
        }
    }
    let files = RunFiles::new(out, seats);
    let _lock = files.lock()?;
    t.config.rebase(out)?;
    files.create(&t.config)?;
    files.write_fingerprint(&t.fingerprint())?;
    files.rewrite([].iter(), [].iter())?;
    for s in &shards {
        let from = RunFiles::new(&s.dir, seats);
        append_rows(&from.games, &files.games)?;
        append_rows(&from.timings, &files.timings)?;
    }
    let mut games = files.finish_files(None)?;
    let sprt = replay_sprt(&t, &files, &sched)?;
    let stop = sprt.as_ref().and_then(|(_, stop)| *stop);
    if let Some(sp) = stop {
        games = files.finish_files(Some(sp))?;
    }
    let complete = stop.is_some() || games == sched.len();
    let summary = conclude(&t, &files, sprt.map(|(s, _)| s), complete)?;
    Ok(RunOutcome {
        out: out.to_path_buf(),
        seats,
        summary,
        played: 0,
        resumed: games,
        seconds: start.elapsed().as_secs_f64(),
    })
}
