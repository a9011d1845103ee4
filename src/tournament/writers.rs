//! The files of a run (`results/<run>/`): `config.toml`, `games.csv`, `timings.csv`, `standings.csv`,
//! `end_conditions.csv`, `report.md`.
//!
//! While a run goes on, each finished game is appended to `games.csv` and `timings.csv` as one line, written
//! with one call and flushed, in the order games finish: a killed run loses no finished game, and the worst a
//! kill can leave is a half-written last line, which a resume drops. At the end both files are rewritten in
//! game-id order (through a temporary file and a rename), so that they are the same bytes for any number of
//! jobs and after a resume.

use super::config::{Tournament, TournamentConfig};
use super::record::{GameRecord, GameTiming};
use super::report::{fmt, render_markdown, Summary};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The paths of a run's files.
pub struct RunFiles {
    pub dir: PathBuf,
    pub config: PathBuf,
    pub games: PathBuf,
    pub timings: PathBuf,
    pub standings: PathBuf,
    pub end_conditions: PathBuf,
    pub report: PathBuf,
    /// What shaped the run's results, recorded when it started (see [`Tournament::fingerprint`]).
    pub fingerprint: PathBuf,
    /// Held (flock) by the process running the run; it names that process.
    pub lock: PathBuf,
    /// Width of the per-seat columns.
    pub seats: usize,
}

/// One CSV line (quoted as needed, ending in a newline).
pub fn csv_line<S: AsRef<[u8]>>(fields: &[S]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(vec![]);
    // Writing to memory cannot fail.
    let _ = w.write_record(fields);
    w.into_inner().unwrap_or_default()
}

fn io_err(path: &Path, e: std::io::Error) -> String {
    format!("{}: {e}", path.display())
}

/// Writes a file whole: to a temporary file beside it, then renamed over it.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// Like [`write_atomic`], with the contents streamed by `fill`.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    let f = File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
    fill(&mut w)
        .and_then(|_| w.flush())
        .map_err(|e| io_err(&tmp, e))?;
    let f = w.into_inner().map_err(|e| io_err(&tmp, e.into_error()))?;
    f.sync_all().map_err(|e| io_err(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io_err(path, e))
}

/// The complete lines of a CSV file, header first (a last line without its newline was cut by a kill).
fn read_lines(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(io_err(path, e)),
    };
    let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(&bytes[..end]);
    let mut out = vec![];
    for row in r.records() {
        let row = row.map_err(|e| format!("{}: {e}", path.display()))?;
        out.push(row.iter().map(String::from).collect());
    }
    Ok(out)
}

impl RunFiles {
    pub fn new(dir: &Path, seats: usize) -> RunFiles {
        RunFiles {
            dir: dir.to_path_buf(),
            config: dir.join("config.toml"),
            games: dir.join("games.csv"),
            timings: dir.join("timings.csv"),
            standings: dir.join("standings.csv"),
            end_conditions: dir.join("end_conditions.csv"),
            report: dir.join("report.md"),
            fingerprint: dir.join("fingerprint.json"),
            lock: dir.join("run.lock"),
            seats,
        }
    }

    /// Takes the run's folder for this process (creating it if needed): a second process on the same folder
    /// gets an error naming the holder. The lock is the kernel's (flock), so it ends with the process that
    /// holds it, however that ends: a killed run leaves no stale lock.
    pub fn lock(&self) -> Result<RunLock, String> {
        std::fs::create_dir_all(&self.dir).map_err(|e| io_err(&self.dir, e))?;
        RunLock::acquire(&self.lock)
    }

    /// Records the fingerprint of a new run.
    pub fn write_fingerprint(&self, fields: &[(String, String)]) -> Result<(), String> {
        let text = serde_json::to_string_pretty(fields).map_err(|e| e.to_string())?;
        write_atomic(&self.fingerprint, format!("{text}\n").as_bytes())
    }

    /// Checks that a resume runs what the run started with: every field of `now` equal to the recorded one.
    /// The error names each field that differs, with both values.
    pub fn check_fingerprint(&self, now: &[(String, String)]) -> Result<(), String> {
        let text = match std::fs::read_to_string(&self.fingerprint) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "cannot resume {}: it has no fingerprint.json (a run started by an older dagaz, or not a \
                     run folder), so what its games were played with cannot be checked",
                    self.dir.display()
                ))
            }
            Err(e) => return Err(io_err(&self.fingerprint, e)),
        };
        let then: Vec<(String, String)> = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a fingerprint ({e})", self.fingerprint.display()))?;
        let mut diffs = vec![];
        for (k, v) in now {
            match then.iter().find(|(k2, _)| k2 == k) {
                Some((_, old)) if old == v => {}
                Some((_, old)) => {
                    diffs.push(format!("`{k}` was `{old}` when the run started, now `{v}`"))
                }
                None => diffs.push(format!("`{k}` was not recorded when the run started")),
            }
        }
        for (k, old) in &then {
            if !now.iter().any(|(k2, _)| k2 == k) {
                diffs.push(format!("`{k}` was `{old}` when the run started, now absent"));
            }
        }
        if diffs.is_empty() {
            return Ok(());
        }
        Err(format!(
            "cannot resume {}: {}; resuming would mix the games of two different runs (start a new run with \
             another --out instead)",
            self.dir.display(),
            diffs.join("; ")
        ))
    }

    /// Starts a new run: the folder (which must not hold one already) and its `config.toml`.
    pub fn create(&self, config: &TournamentConfig) -> Result<(), String> {
        if self.games.exists() || self.fingerprint.exists() {
            return Err(format!(
                "{} already holds a run; give another --out, or --resume to finish it",
                self.dir.display()
            ));
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| io_err(&self.dir, e))?;
        let text = format!(
            "# dagaz tournament: everything needed to rerun this run (`dagaz tournament --config {0}`)\n\
             # or to finish it (`dagaz tournament --resume --out {1}`).\n{2}",
            self.config.display(),
            self.dir.display(),
            config.to_toml()
        );
        write_atomic(&self.config, text.as_bytes())
    }

    /// The games a run has finished (in file order).
    pub fn read_games(&self) -> Result<Vec<GameRecord>, String> {
        let lines = read_lines(&self.games)?;
        let Some((header, rows)) = lines.split_first() else {
            return Ok(vec![]);
        };
        if *header != GameRecord::header(self.seats) {
            return Err(format!(
                "{}: not the games file of this run (its header differs)",
                self.games.display()
            ));
        }
        rows.iter()
            .enumerate()
            .map(|(i, r)| {
                GameRecord::from_row(header, r)
                    .map_err(|e| format!("{}:{}: {e}", self.games.display(), i + 2))
            })
            .collect()
    }

    pub fn read_timings(&self) -> Result<Vec<GameTiming>, String> {
        let lines = read_lines(&self.timings)?;
        let Some((header, rows)) = lines.split_first() else {
            return Ok(vec![]);
        };
        // Timings are informative only: rows that do not read are dropped.
        Ok(rows
            .iter()
            .filter_map(|r| GameTiming::from_row(header, r).ok())
            .collect())
    }

    /// Rewrites `games.csv` and `timings.csv` with exactly these rows.
    pub fn rewrite<'a>(
        &self,
        games: impl Iterator<Item = &'a GameRecord>,
        timings: impl Iterator<Item = &'a GameTiming>,
    ) -> Result<(), String> {
        let seats = self.seats;
        write_atomic_with(&self.games, |w| {
            w.write_all(&csv_line(&GameRecord::header(seats)))?;
            for r in games {
                w.write_all(&csv_line(&r.row(seats)))?;
            }
            Ok(())
        })?;
        write_atomic_with(&self.timings, |w| {
            w.write_all(&csv_line(&GameTiming::header(seats)))?;
            for r in timings {
                w.write_all(&csv_line(&r.row(seats)))?;
            }
            Ok(())
        })
    }

    /// Opens both files for appending finished games.
    pub fn appender(&self) -> Result<Appender, String> {
        let open = |p: &Path| {
            OpenOptions::new()
                .append(true)
                .open(p)
                .map_err(|e| io_err(p, e))
        };
        Ok(Appender {
            games: open(&self.games)?,
            timings: open(&self.timings)?,
            seats: self.seats,
            paths: (self.games.clone(), self.timings.clone()),
        })
    }
}

/// The lock on a run's folder, released when dropped (or when the process ends).
pub struct RunLock {
    _file: File,
}

impl RunLock {
    fn acquire(path: &Path) -> Result<RunLock, String> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| io_err(path, e))?;
        if !try_flock(&file).map_err(|e| io_err(path, e))? {
            // The holder writes its name right after it locks: give it a moment.
            let mut holder = String::new();
            for _ in 0..20 {
                holder = std::fs::read_to_string(path).unwrap_or_default();
                if !holder.trim().is_empty() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            let holder = holder.trim();
            let dir = path.parent().unwrap_or(Path::new("."));
            return Err(format!(
                "{} is in use by another dagaz run ({}); wait for it to end, or give another --out",
                dir.display(),
                if holder.is_empty() {
                    "its process did not say who it is"
                } else {
                    holder
                }
            ));
        }
        let host = hostname();
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let who = format!(
            "pid {} on {host}, started at {started} (seconds since 1970, UTC)\n",
            std::process::id()
        );
        file.set_len(0)
            .and_then(|_| file.write_all(who.as_bytes()))
            .and_then(|_| file.flush())
            .map_err(|e| io_err(path, e))?;
        Ok(RunLock { _file: file })
    }
}

/// Takes an exclusive flock without waiting: `Ok(false)` if another open file holds it.
fn try_flock(file: &File) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on a descriptor we own; no memory is shared.
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if r == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            Ok(false)
        } else {
            Err(e)
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(true)
    }
}

fn hostname() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
        if r == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            return String::from_utf8_lossy(&buf[..end]).into_owned();
        }
    }
    "unknown host".into()
}

/// Appends finished games, one line per game and file, each written with one call and flushed.
pub struct Appender {
    games: File,
    timings: File,
    seats: usize,
    paths: (PathBuf, PathBuf),
}

impl Appender {
    pub fn append(&mut self, r: &GameRecord, t: &GameTiming) -> Result<(), String> {
        self.games
            .write_all(&csv_line(&r.row(self.seats)))
            .and_then(|_| self.games.flush())
            .map_err(|e| io_err(&self.paths.0, e))?;
        self.timings
            .write_all(&csv_line(&t.row(self.seats)))
            .and_then(|_| self.timings.flush())
            .map_err(|e| io_err(&self.paths.1, e))
    }
}

/// `standings.csv`, `end_conditions.csv` and `report.md`.
pub fn write_outputs(
    files: &RunFiles,
    t: &Tournament,
    s: &Summary,
    _records: &[GameRecord],
) -> Result<(), String> {
    write_atomic(&files.standings, &standings_csv(s))?;
    write_atomic(&files.end_conditions, &end_conditions_csv(s))?;
    write_atomic(&files.report, render_markdown(t, s).as_bytes())
}

/// Per bot, in rank order: games, W/D/L, score, Elo ± 95%, Bradley-Terry rating, pentanomial counts, LOS
/// against each other bot.
pub fn standings_csv(s: &Summary) -> Vec<u8> {
    let mut header: Vec<String> = [
        "rank",
        "bot",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_error95",
        "bt_rating",
        "penta_0",
        "penta_1",
        "penta_2",
        "penta_3",
        "penta_4",
    ]
    .map(String::from)
    .to_vec();
    header.extend(s.bots.iter().map(|b| format!("los_vs_{b}")));
    let mut out = csv_line(&header);
    for (i, st) in s.standings.iter().enumerate() {
        let mut r = vec![
            (i + 1).to_string(),
            st.name.clone(),
            st.wdl.games().to_string(),
            st.wdl.wins.to_string(),
            st.wdl.draws.to_string(),
            st.wdl.losses.to_string(),
            fmt(st.wdl.score(), 4),
            fmt(st.elo.map(|e| e.elo), 2),
            fmt(st.elo.map(|e| e.error95), 2),
            fmt(st.rating, 2),
        ];
        for k in 0..5 {
            r.push(st.penta.map_or(String::new(), |p| p.0[k].to_string()));
        }
        r.extend(
            st.los
                .iter()
                .map(|l| l.map_or(String::new(), |x| fmt(Some(x), 4))),
        );
        out.extend(csv_line(&r));
    }
    out
}

/// Per bot, variant, seat and end condition: wins, draws and losses.
pub fn end_conditions_csv(s: &Summary) -> Vec<u8> {
    let mut out = csv_line(&[
        "bot",
        "variant",
        "seat",
        "player",
        "end_type",
        "end_name",
        "end_priority",
        "wins",
        "draws",
        "losses",
    ]);
    for e in &s.ends {
        let v = &s.variants[e.variant];
        out.extend(csv_line(&[
            s.bots[e.bot].clone(),
            v.title.clone(),
            (e.seat + 1).to_string(),
            v.seats.get(e.seat).cloned().unwrap_or_default(),
            e.end_type.clone(),
            e.end_name.clone(),
            e.end_priority.to_string(),
            e.wins.to_string(),
            e.draws.to_string(),
            e.losses.to_string(),
        ]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: u64) -> GameRecord {
        GameRecord {
            game_id: id,
            pair_id: id / 2,
            seed: 1,
            variant: "V".into(),
            bots: vec!["a".into(), "b".into()],
            results: vec![1, -1],
            end_type: "stalemated".into(),
            end_name: "no moves".into(),
            end_priority: 0,
            plies: 2,
            opening_plies: 0,
            legal_moves: 5,
            error: String::new(),
            moves: vec!["a1-a2".into(), "b7-b6".into()],
        }
    }

    #[test]
    fn a_half_written_last_line_is_dropped_and_appends_go_on() {
        let dir = std::env::temp_dir().join(format!("dagaz-writers-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let files = RunFiles::new(&dir, 2);
        let recs = [record(0), record(1)];
        files.rewrite(recs.iter(), [].iter()).unwrap();
        let mut a = files.appender().unwrap();
        a.append(&record(5), &GameTiming::default()).unwrap();
        drop(a);
        // A kill in the middle of a line.
        let mut f = OpenOptions::new().append(true).open(&files.games).unwrap();
        f.write_all(b"6,3,1,V,a,b,1,-1,a,stalem").unwrap();
        drop(f);
        let back = files.read_games().unwrap();
        assert_eq!(back, vec![record(0), record(1), record(5)]);
        // A file of another shape is refused, not misread.
        let other = RunFiles::new(&dir, 3);
        assert!(other.read_games().unwrap_err().contains("header differs"));
        // No file yet: nothing finished.
        let none = RunFiles::new(&dir.join("none"), 2);
        assert!(none.read_games().unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
