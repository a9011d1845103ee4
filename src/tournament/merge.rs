//! `dagaz merge OUT DIR...`: the shards of a run (`--shard K/N`, each played anywhere) put together into the
//! run one machine would have played: the same `games.csv`, `standings.csv`, `end_conditions.csv`,
//! `pairwise.csv`, `report.md` and `report.html`, byte for byte, with the SPRT decided on the merged pairs.
//!
//! The shards must be the same run (their fingerprints equal but for the shard and where the game file and
//! the opening book were read from: their hashes must match; the same build of dagaz), each shard 1..N exactly once, and each finished:
//! its games.csv holds exactly its own game ids, each once, up to the end of the run (or, with an SPRT that
//! stopped the shards, up to the pair it decided at). The game file is `--game`, or found by the hash the
//! shards recorded (`shards::locate_game`), not through one shard's relative path. Rows are copied as they
//! are and put in order by the same external sort a run ends with.

use super::config::{Shard, TournamentConfig};
use super::runner::{conclude, replay_sprt, RunOutcome, SprtTracker};
use super::schedule::Schedule;
use super::shards::{locate_game, run_fields};
use super::writers::RunFiles;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

struct ShardDir {
    dir: PathBuf,
    shard: Shard,
    config: TournamentConfig,
    fingerprint: Vec<(String, String)>,
}

/// Why shard folders cannot be merged; each names the folder or file at fault. Displayed as the messages
/// were when they were strings.
#[derive(Debug)]
pub enum MergeError {
    /// No folder given.
    NoShards,
    /// The folder's `config.toml` cannot be read as a run's.
    NotARunFolder { dir: PathBuf, error: String },
    /// The run was not played with `--shard`.
    NotAShard { dir: PathBuf },
    /// A file of a shard or of the merged run cannot be read or written.
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// `fingerprint.json` is not a fingerprint.
    NotAFingerprint {
        path: PathBuf,
        error: serde_json::Error,
    },
    /// Two shards of different N.
    DifferentN {
        dir: PathBuf,
        shard: Shard,
        first_dir: PathBuf,
        first: Shard,
    },
    /// Shard k of n is not among the folders.
    Missing { k: u64, n: u64 },
    /// Shard k of n is given by two folders.
    Twice {
        k: u64,
        n: u64,
        a: PathBuf,
        b: PathBuf,
    },
    /// Two shards whose fingerprints differ (beyond the shard and the game's path): the first field.
    NotSameRun {
        a: PathBuf,
        b: PathBuf,
        field: String,
    },
    /// A shard that has not played all its games: the first it lacks.
    Unfinished {
        shard: Shard,
        dir: PathBuf,
        have: u64,
        want: u64,
        lacks: u64,
    },
    /// A game id twice in a shard's games.csv.
    Duplicate { id: u64, shard: Shard, dir: PathBuf },
    /// A game id in a shard's games.csv that is not one of the shard's games.
    Foreign { id: u64, shard: Shard, dir: PathBuf },
    /// Loading the merged run's settings, or writing its files.
    Run(String),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::NoShards => f.write_str("merge: give the shard folders to merge"),
            MergeError::NotARunFolder { dir, error } => {
                write!(f, "{} is not a run folder: {error}", dir.display())
            }
            MergeError::NotAShard { dir } => write!(
                f,
                "{} is not a shard: its config.toml has no `shard` (a run played with --shard K/N)",
                dir.display()
            ),
            MergeError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            MergeError::NotAFingerprint { path, error } => {
                write!(f, "{}: not a fingerprint ({error})", path.display())
            }
            MergeError::DifferentN {
                dir,
                shard,
                first_dir,
                first,
            } => write!(
                f,
                "{} is shard {shard} but {} is shard {first}: shards of one run share N",
                dir.display(),
                first_dir.display()
            ),
            MergeError::Missing { k, n } => write!(f, "shard {k}/{n} is missing"),
            MergeError::Twice { k, n, a, b } => write!(
                f,
                "shard {k}/{n} is given twice: {} and {}",
                a.display(),
                b.display()
            ),
            MergeError::NotSameRun { a, b, field } => write!(
                f,
                "{} and {} are not shards of the same run ({field})",
                a.display(),
                b.display()
            ),
            MergeError::Unfinished {
                shard,
                dir,
                have,
                want,
                lacks,
            } => write!(
                f,
                "shard {shard} in {} lacks game {lacks} ({have} of its {want} games): finish it first (`dagaz \
                 tournament --resume --out {}`)",
                dir.display(),
                dir.display()
            ),
            MergeError::Duplicate { id, shard, dir } => write!(
                f,
                "game {id} is in {} more than once (shard {shard}): refused, a merged run would count it twice",
                dir.join("games.csv").display()
            ),
            MergeError::Foreign { id, shard, dir } => write!(
                f,
                "game {id} in {} is not a game of shard {shard} of this run",
                dir.join("games.csv").display()
            ),
            MergeError::Run(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for MergeError {}

impl From<String> for MergeError {
    fn from(e: String) -> MergeError {
        MergeError::Run(e)
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> MergeError + '_ {
    move |error| MergeError::Io {
        path: path.to_path_buf(),
        error,
    }
}

fn read_shard(dir: &Path) -> Result<ShardDir, MergeError> {
    let config = TournamentConfig::read_file(&dir.join("config.toml")).map_err(|error| {
        MergeError::NotARunFolder {
            dir: dir.to_path_buf(),
            error,
        }
    })?;
    let shard = config.shard.ok_or_else(|| MergeError::NotAShard {
        dir: dir.to_path_buf(),
    })?;
    let path = dir.join("fingerprint.json");
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    let fingerprint: Vec<(String, String)> =
        serde_json::from_str(&text).map_err(|error| MergeError::NotAFingerprint {
            path: path.clone(),
            error,
        })?;
    Ok(ShardDir {
        dir: dir.to_path_buf(),
        shard,
        config,
        fingerprint,
    })
}

/// Appends the rows of `from` (after its header) whose game id (the first field) is below `below` to `to`.
fn append_rows(from: &Path, to: &Path, below: u64) -> Result<(), MergeError> {
    let f = std::fs::File::open(from).map_err(io(from))?;
    let mut w = std::io::BufWriter::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(to)
            .map_err(io(to))?,
    );
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.map_err(io(from))?;
        let id = line.split(',').next().and_then(|x| x.parse::<u64>().ok());
        if i > 0 && !line.is_empty() && id.is_some_and(|id| id < below) {
            w.write_all(line.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .map_err(io(to))?;
        }
    }
    w.flush().map_err(io(to))
}

/// Merges the shard folders `dirs` into a new run folder `out`.
pub fn merge(out: &Path, dirs: &[PathBuf], game: Option<&Path>) -> Result<RunOutcome, MergeError> {
    let start = std::time::Instant::now();
    if dirs.is_empty() {
        return Err(MergeError::NoShards);
    }
    let shards = dirs
        .iter()
        .map(|d| read_shard(d))
        .collect::<Result<Vec<_>, _>>()?;
    let n = shards[0].shard.n;
    for s in &shards {
        if s.shard.n != n {
            return Err(MergeError::DifferentN {
                dir: s.dir.clone(),
                shard: s.shard,
                first_dir: shards[0].dir.clone(),
                first: shards[0].shard,
            });
        }
    }
    for k in 1..=n {
        let have: Vec<&ShardDir> = shards.iter().filter(|s| s.shard.k == k).collect();
        match have.len() {
            0 => return Err(MergeError::Missing { k, n }),
            1 => {}
            _ => {
                return Err(MergeError::Twice {
                    k,
                    n,
                    a: have[0].dir.clone(),
                    b: have[1].dir.clone(),
                })
            }
        }
    }
    // One run: the same fingerprint but for the shard and the game's path (its hash must match).
    let first = &shards[0];
    for s in &shards[1..] {
        let (a, b) = (run_fields(&first.fingerprint), run_fields(&s.fingerprint));
        if a != b {
            let field = a
                .iter()
                .zip(&b)
                .find(|(x, y)| x != y)
                .map_or("the field list".to_string(), |(x, y)| {
                    format!("`{}`: `{}` against `{}`", x.0, x.1, y.1)
                });
            return Err(MergeError::NotSameRun {
                a: first.dir.clone(),
                b: s.dir.clone(),
                field,
            });
        }
    }
    let located: Vec<(PathBuf, TournamentConfig)> = shards
        .iter()
        .map(|s| (s.dir.clone(), s.config.clone()))
        .collect();
    let mut config = locate_game(&first.config, &located, game)?;
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
    // Each shard's game ids: its own, each once; the first game id any shard lacks.
    let mut lacking: Option<(u64, usize, u64)> = None;
    for (i, s) in shards.iter().enumerate() {
        let mut ids = vec![];
        RunFiles::new(&s.dir, seats).for_each_game(|g| {
            ids.push(g.game_id);
            Ok(())
        })?;
        if let Some(&id) = ids
            .iter()
            .find(|&&id| !s.shard.contains(id) || id >= sched.len())
        {
            return Err(MergeError::Foreign {
                id,
                shard: s.shard,
                dir: s.dir.clone(),
            });
        }
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(MergeError::Duplicate {
                id: w[0],
                shard: s.shard,
                dir: s.dir.clone(),
            });
        }
        let held = ids
            .iter()
            .enumerate()
            .take_while(|&(j, &id)| s.shard.game(j as u64) == Some(id))
            .count() as u64;
        if let Some(id) = s.shard.game(held).filter(|&id| id < sched.len()) {
            if lacking.is_none_or(|(l, _, _)| id < l) {
                lacking = Some((id, i, ids.len() as u64));
            }
        }
    }
    let below = lacking.map_or(sched.len(), |(id, _, _)| id);
    // An SPRT decides on the games of every shard up to the first one lacking, as one machine counts them:
    // shards that stopped at its decision lack only games past it.
    let decided = match t.config.sprt {
        Some(c) => {
            let mut tracker = SprtTracker::new(c, &sched);
            let first_bot = t.bots[0].name.clone();
            for s in &shards {
                RunFiles::new(&s.dir, seats).for_each_game(|g| {
                    if g.game_id < below {
                        tracker.add(&g, &first_bot);
                    }
                    Ok(())
                })?;
            }
            tracker.status.stop_pair
        }
        None => None,
    };
    if let (None, Some((id, i, have))) = (decided, lacking) {
        let s = &shards[i];
        return Err(MergeError::Unfinished {
            shard: s.shard,
            dir: s.dir.clone(),
            have,
            want: s.shard.count(sched.len()),
            lacks: id,
        });
    }
    let files = RunFiles::new(out, seats);
    let _lock = files.lock()?;
    t.config.rebase(out)?;
    files.create(&t.config)?;
    files.write_fingerprint(&t.fingerprint())?;
    files.rewrite([].iter(), [].iter())?;
    for s in &shards {
        let from = RunFiles::new(&s.dir, seats);
        append_rows(&from.games, &files.games, below)?;
        append_rows(&from.timings, &files.timings, below)?;
    }
    let mut games = files.finish_files(None)?;
    let sprt = replay_sprt(&t, &files, &sched)?;
    let stop = sprt.as_ref().and_then(|(_, stop)| *stop);
    if let Some(sp) = stop {
        games = files.finish_files(Some(sp))?;
    }
    let complete = stop.is_some() || games == sched.len();
    let summary = conclude(&t, &files, sprt.map(|(s, _)| s), complete, games)?;
    Ok(RunOutcome {
        out: out.to_path_buf(),
        seats,
        summary,
        played: 0,
        resumed: games,
        seconds: start.elapsed().as_secs_f64(),
    })
}
