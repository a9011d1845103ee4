//! What the shards of a run (`--shard K/N`) share besides their settings: which build played them, the SPRT
//! decided across all of them, and a view of their progress (`dagaz status`).
//!
//! The shards of one run write to sibling folders of one shared folder (`runs/s1`, `runs/s2`, ...; on a
//! cluster, a network file system). A shard of a run with an SPRT reads, about once a second, the games its
//! siblings have finished and counts the complete pairs in pair order as one machine would; once the test
//! decides at pair P, the shard that saw it writes `sprt-stop-<run>.json` into the shared folder, and every
//! shard plays no game of a later pair (the games of pairs up to P are all finished: the test counted them).
//! `dagaz merge` then cuts the merged games at P, as one machine's run would have stopped there.

use super::config::{Shard, Tournament, TournamentConfig};
use super::record::GameRecord;
use super::schedule::Schedule;
use super::sprt::{SprtStatus, SprtTracker};
use super::writers::{write_atomic, RunFiles};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The git commit the program was built from, as [`set_build_commit`] was told.
static BUILD_COMMIT: OnceLock<&'static str> = OnceLock::new();

/// Records the git commit the program was built from: the `dagaz` binary and the Python module call it first
/// with `dagaz_build_stamp::build_commit!()` (an empty text without git). The stamp is made there and not in
/// the library so that a commit recompiles that one caller, not the library and every test binary.
pub fn set_build_commit(commit: &'static str) {
    let _ = BUILD_COMMIT.set(commit);
}

/// Which build of dagaz is running: the git commit it was built from (with `-dirty-` and a hash of the
/// uncommitted changes, see `build-stamp/`), or, built without git or used by a program that does not call
/// [`set_build_commit`] (the test binaries), `binary ` and a hash of the executable.
pub fn build_id() -> String {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let commit = BUILD_COMMIT.get().copied().unwrap_or("");
        if !commit.is_empty() {
            return format!("git {commit}");
        }
        match std::env::current_exe().and_then(std::fs::read) {
            Ok(bytes) => format!("binary {}", super::config::fnv1a(&bytes)),
            Err(e) => format!("unknown ({e})"),
        }
    })
    .clone()
}

/// Fingerprint fields that may differ between the shards of one run: the shard, and the paths of the game and
/// of the opening book (each shard records them relative to its own folder; their hashes must be the same).
pub const MAY_DIFFER: [&str; 3] = ["shard", "game", "openings"];

/// The fields that make the shards of one run one run.
pub fn run_fields(fingerprint: &[(String, String)]) -> Vec<(String, String)> {
    fingerprint
        .iter()
        .filter(|(k, _)| !MAY_DIFFER.contains(&k.as_str()))
        .cloned()
        .collect()
}

/// A short name of the run the shards share (a hash of [`run_fields`]).
pub fn run_key(fingerprint: &[(String, String)]) -> String {
    let text = serde_json::to_string(&run_fields(fingerprint)).unwrap_or_default();
    super::config::fnv1a(text.as_bytes())
}

/// Reads a run folder's `fingerprint.json`.
pub fn read_fingerprint(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let path = dir.join("fingerprint.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not a fingerprint ({e})", path.display()))
}

fn shard_of(fingerprint: &[(String, String)]) -> Option<Shard> {
    fingerprint
        .iter()
        .find(|(k, _)| k == "shard")
        .and_then(|(_, v)| v.parse().ok())
}

/// The SPRT of a sharded run, watched from one shard.
pub(crate) struct SprtWatch {
    /// The shared folder: the parent of the shard's folder.
    shared: PathBuf,
    key: String,
    marker: PathBuf,
    config: super::config::SprtConfig,
    first_bot: String,
    seats: usize,
}

/// What the stop marker says.
#[derive(serde::Serialize, serde::Deserialize)]
struct Marker {
    run: String,
    stop_pair: u64,
    llr: f64,
    decision: String,
    pairs: u64,
}

impl SprtWatch {
    /// The watch of a shard of a run with an SPRT whose folder is `out`; `None` for any other run.
    pub(crate) fn new(t: &Tournament, out: &Path) -> Result<Option<SprtWatch>, String> {
        let (Some(config), Some(_)) = (t.config.sprt, t.config.shard) else {
            return Ok(None);
        };
        let abs = std::path::absolute(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let shared = abs.parent().unwrap_or(Path::new("/")).to_path_buf();
        let key = run_key(&t.fingerprint());
        Ok(Some(SprtWatch {
            marker: shared.join(format!("sprt-stop-{key}.json")),
            shared,
            key,
            config,
            first_bot: t.bots[0].name.clone(),
            seats: t.max_seats(),
        }))
    }

    /// The pair after which no game is played, if the SPRT has decided: read from the marker, or decided now
    /// from the games every shard of the run in the shared folder has finished (and then the marker written).
    pub(crate) fn poll(&self, sched: &Schedule) -> Result<Option<u64>, String> {
        if let Ok(text) = std::fs::read_to_string(&self.marker) {
            if let Ok(m) = serde_json::from_str::<Marker>(&text) {
                if m.run == self.key {
                    return Ok(Some(m.stop_pair));
                }
            }
        }
        let (status, _) = sprt_over(
            &shard_dirs(&self.shared, &self.key),
            self.seats,
            self.config,
            sched,
            &self.first_bot,
        )?;
        let Some(p) = status.stop_pair else {
            return Ok(None);
        };
        let m = Marker {
            run: self.key.clone(),
            stop_pair: p,
            llr: status.llr,
            decision: format!("{:?}", status.decision),
            pairs: status.pairs,
        };
        let text = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())?;
        write_atomic(&self.marker, format!("{text}\n").as_bytes())?;
        Ok(Some(p))
    }
}

/// The folders in `shared` holding a shard of the run `key`.
fn shard_dirs(shared: &Path, key: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(shared) else {
        return vec![];
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|d| read_fingerprint(d).is_ok_and(|f| shard_of(&f).is_some() && run_key(&f) == key))
        .collect();
    dirs.sort();
    dirs
}

/// The SPRT over the games finished in `dirs` (each game counted once), and how many games that is.
fn sprt_over(
    dirs: &[PathBuf],
    seats: usize,
    config: super::config::SprtConfig,
    sched: &Schedule,
    first_bot: &str,
) -> Result<(SprtStatus, u64), String> {
    let mut tracker = SprtTracker::new(config, sched);
    let mut seen = HashSet::new();
    for d in dirs {
        RunFiles::new(d, seats).for_each_game(|g| {
            if seen.insert(g.game_id) {
                tracker.add(&g, first_bot);
            }
            Ok(())
        })?;
    }
    Ok((tracker.status, seen.len() as u64))
}

/// Where the game file of shards is: `--game` if given (its hash must be the recorded one), else the first
/// file with the recorded hash among the path each shard recorded (from its own folder) and the same path
/// and file name from the current folder. A built-in game needs no file. The configuration returned reads
/// it from there.
pub fn locate_game(
    config: &TournamentConfig,
    dirs: &[(PathBuf, TournamentConfig)],
    given: Option<&Path>,
) -> Result<TournamentConfig, String> {
    let mut c = config.clone();
    if c.game.starts_with(super::config::BUILTIN_PREFIX) {
        return Ok(c);
    }
    let Some(want) = config.game_hash.clone() else {
        return Err(format!(
            "the shards' config.toml records no `game_hash`: give the game file with --game FILE ({})",
            config.game
        ));
    };
    let hash_of = |p: &Path| lang_read(p).ok().map(|b| super::config::fnv1a(&b));
    if let Some(g) = given {
        return match lang_read(g) {
            Ok(bytes) if super::config::fnv1a(&bytes) == want => {
                c.game = g.to_string_lossy().into_owned();
                c.base_dir = None;
                Ok(c)
            }
            Ok(bytes) => Err(format!(
                "--game {}: its hash is {}, the shards played a file of hash {want}",
                g.display(),
                super::config::fnv1a(&bytes)
            )),
            Err(e) => Err(format!("--game {}: {e}", g.display())),
        };
    }
    let mut tried: Vec<String> = vec![];
    let mut seen: Vec<PathBuf> = vec![];
    let mut candidates: Vec<PathBuf> = dirs.iter().map(|(dir, sc)| dir.join(&sc.game)).collect();
    candidates.push(PathBuf::from(&config.game));
    if let Some(name) = Path::new(&config.game).file_name() {
        candidates.push(PathBuf::from(name));
    }
    for p in candidates {
        if seen.contains(&p) {
            continue;
        }
        seen.push(p.clone());
        match hash_of(&p) {
            Some(h) if h == want => {
                // Relative to the current folder, without `..` detours: the merged run then records it
                // relative to its own folder, as a run started from here would.
                let abs =
                    std::path::absolute(&p).map_or(p.clone(), |a| super::config::normalize(&a));
                c.game = match std::env::current_dir() {
                    Ok(cwd) => super::config::relative_path(&abs, &super::config::normalize(&cwd)),
                    Err(_) => abs,
                }
                .to_string_lossy()
                .replace('\\', "/");
                c.base_dir = None;
                return Ok(c);
            }
            Some(h) => tried.push(format!("{} (hash {h})", p.display())),
            None => tried.push(format!("{} (not found)", p.display())),
        }
    }
    Err(format!(
        "the game file the shards played (hash {want}) is not at {}: give it with --game FILE",
        tried.join(", ")
    ))
}

fn lang_read(p: &Path) -> Result<Vec<u8>, String> {
    crate::lang::read_capped(p, crate::lang::MAX_FILE_BYTES).map_err(|e| e.to_string())
}

/// One folder as `dagaz status` reads it.
struct StatusDir {
    dir: PathBuf,
    config: TournamentConfig,
    fingerprint: Vec<(String, String)>,
}

/// `dagaz status DIR...`: the progress of each shard (or run) and of the whole run, the standings over the
/// games finished so far, and the SPRT over the games finished in all shards. The text printed.
pub fn status(dirs: &[PathBuf], game: Option<&Path>) -> Result<String, String> {
    use std::fmt::Write;
    if dirs.is_empty() {
        return Err("status: give the run's folders (its shards' folders)".into());
    }
    let mut read = vec![];
    for d in dirs {
        let config = TournamentConfig::read_file(&d.join("config.toml"))
            .map_err(|e| format!("{} is not a run folder: {e}", d.display()))?;
        let fingerprint = read_fingerprint(d)?;
        read.push(StatusDir {
            dir: d.clone(),
            config,
            fingerprint,
        });
    }
    let key = run_key(&read[0].fingerprint);
    for s in &read[1..] {
        if run_key(&s.fingerprint) != key {
            return Err(format!(
                "{} and {} are not shards of the same run",
                read[0].dir.display(),
                s.dir.display()
            ));
        }
    }
    let pairs: Vec<(PathBuf, TournamentConfig)> = read
        .iter()
        .map(|s| (s.dir.clone(), s.config.clone()))
        .collect();
    let mut config = locate_game(&read[0].config, &pairs, game)?;
    config.shard = None;
    let t = config.load()?;
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
    let mut out = String::new();
    // The SPRT first: once it has decided, the run ends with the pair it decided at.
    let sprt = match t.config.sprt {
        Some(c) => {
            let shard_dirs: Vec<PathBuf> = read.iter().map(|s| s.dir.clone()).collect();
            Some((
                c,
                sprt_over(&shard_dirs, seats, c, &sched, &t.bots[0].name)?.0,
            ))
        }
        None => None,
    };
    let end = match sprt.as_ref().and_then(|(_, st)| st.stop_pair) {
        Some(p) => last_game_of_pair(&sched, p) + 1,
        None => sched.len(),
    };
    // Per shard: its games.
    let mut seen = HashSet::new();
    let mut scores: Vec<(String, f64, u64, u64, u64, u64)> = t
        .bots
        .iter()
        .map(|b| (b.name.clone(), 0.0, 0, 0, 0, 0))
        .collect();
    let mut n_of: Option<u64> = None;
    for s in &read {
        let shard = s.config.shard;
        let want = shard.map_or(end, |sh| sh.count(end));
        let mut have = 0u64;
        RunFiles::new(&s.dir, seats).for_each_game(|g: GameRecord| {
            if g.game_id >= end {
                return Ok(());
            }
            have += 1;
            if seen.insert(g.game_id) {
                tally(&mut scores, &g);
            }
            Ok(())
        })?;
        if let Some(sh) = shard {
            n_of.get_or_insert(sh.n);
        }
        let _ = writeln!(
            out,
            "{:<8} {}: {have} of {want} games{}",
            shard.map_or("run".to_string(), |sh| format!("shard {sh}")),
            s.dir.display(),
            match (have >= want, end < sched.len()) {
                (true, true) => " (finished: the SPRT stopped the run)",
                (true, false) => " (finished)",
                _ => "",
            }
        );
    }
    if let Some(n) = n_of {
        let given: HashSet<u64> = read
            .iter()
            .filter_map(|s| s.config.shard)
            .map(|s| s.k)
            .collect();
        let missing: Vec<String> = (1..=n)
            .filter(|k| !given.contains(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() {
            let _ = writeln!(out, "not given: shard {}", missing.join(", "));
        }
    }
    let done = seen.len() as u64;
    let _ = writeln!(
        out,
        "total: {done} of {end} games ({:.1}%){}",
        100.0 * done as f64 / end.max(1) as f64,
        if end < sched.len() {
            format!(", of {} scheduled", sched.len())
        } else {
            String::new()
        }
    );
    // Standings over the games finished.
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    let _ = writeln!(out, "\nstandings so far (a win 1, a draw 1/2):");
    let width = scores.iter().map(|s| s.0.len()).max().unwrap_or(3).max(3);
    let _ = writeln!(
        out,
        "  {:<width$}  {:>7}  {:>6}  {:>5}  {:>5}  {:>5}",
        "bot", "points", "games", "wins", "draws", "losses"
    );
    for (name, points, games, w, d, l) in &scores {
        let _ = writeln!(
            out,
            "  {name:<width$}  {points:>7.1}  {games:>6}  {w:>5}  {d:>5}  {l:>5}"
        );
    }
    if let Some((c, st)) = sprt {
        let _ = writeln!(
            out,
            "\nSPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} in [{:.3}, {:.3}] over {} complete pairs in \
             order; {}",
            c.elo0,
            c.elo1,
            c.alpha,
            c.beta,
            st.llr,
            st.lower,
            st.upper,
            st.pairs,
            match st.stop_pair {
                Some(p) => format!(
                    "decided ({:?}) at pair {p}: games after game {} are not part of the run",
                    st.decision,
                    last_game_of_pair(&sched, p)
                ),
                None => "not decided".into(),
            }
        );
    }
    Ok(out)
}

/// Adds a game to the per-bot counts (name, points, games, wins, draws, losses); unrated games count for
/// nobody.
fn tally(scores: &mut [(String, f64, u64, u64, u64, u64)], g: &GameRecord) {
    if !g.is_rated() {
        return;
    }
    for (i, bot) in g.bots.iter().enumerate() {
        if let Some(s) = scores.iter_mut().find(|s| &s.0 == bot) {
            s.2 += 1;
            match g.results[i] {
                r if r > 0 => {
                    s.1 += 1.0;
                    s.3 += 1;
                }
                0 => {
                    s.1 += 0.5;
                    s.4 += 1;
                }
                _ => s.5 += 1,
            }
        }
    }
}

/// The last game id of pair `pair` (the games of a pair have consecutive ids, and pair ids grow with them).
fn last_game_of_pair(sched: &Schedule, pair: u64) -> u64 {
    let (mut lo, mut hi) = (0u64, sched.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match sched.get(mid) {
            Some(p) if p.pair_id <= pair => lo = mid + 1,
            _ => hi = mid,
        }
    }
    lo.saturating_sub(1)
}
