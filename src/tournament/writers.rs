//! The files of a run (`results/<run>/`): `config.toml`, `games.csv`, `timings.csv`, `standings.csv`,
//! `end_conditions.csv`, `report.md`.
//!
//! While a run goes on, each finished game is appended to `games.csv` and `timings.csv` as one line, written
//! with one call and flushed, in the order games finish: a killed run loses no finished game, and the worst a
//! kill can leave is a half-written last line, which a resume drops. At the end both files are rewritten in
//! game-id order (through a temporary file and a rename), so that they are the same bytes for any number of
//! jobs and after a resume; the rewrite is an external merge sort, so its memory does not depend on the
//! files' size.
//!
//! `fingerprint.json` records what shaped the results when the run started, for a resume to compare, and
//! `run.lock` keeps a second process off the folder while a run goes on.

use super::config::{Tournament, TournamentConfig};
use super::record::{GameRecord, GameTiming};
use super::report::{fmt, render_markdown, Summary};
pub use super::text::{csv_line, utc_fields};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
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
    /// Passes over `games.csv` made through [`RunFiles::for_each_game`] (a test counts them).
    reads: std::sync::atomic::AtomicU64,
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

/// A CSV reader over a file's complete lines (a last line without its newline was cut by a kill); `None`
/// if the file does not exist.
fn complete_lines(path: &Path) -> Result<Option<csv::Reader<std::io::Take<File>>>, String> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path, e)),
    };
    let end = last_newline_end(&mut f).map_err(|e| io_err(path, e))?;
    f.seek(SeekFrom::Start(0)).map_err(|e| io_err(path, e))?;
    Ok(Some(
        csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(f.take(end)),
    ))
}

/// The length of the file up to and including its last newline (0 without one).
fn last_newline_end(f: &mut File) -> std::io::Result<u64> {
    let len = f.seek(SeekFrom::End(0))?;
    let mut pos = len;
    let mut buf = vec![0u8; 64 * 1024];
    while pos > 0 {
        let n = buf.len().min(pos as usize);
        pos -= n as u64;
        f.seek(SeekFrom::Start(pos))?;
        f.read_exact(&mut buf[..n])?;
        if let Some(i) = buf[..n].iter().rposition(|&b| b == b'\n') {
            return Ok(pos + i as u64 + 1);
        }
    }
    Ok(0)
}

/// Bytes of rows held in memory at once by [`sort_csv`] (the rest waits on disk in sorted runs).
const SORT_CHUNK_BYTES: usize = 4 << 20;
/// Runs merged at once (more are merged in several passes).
const MERGE_FAN_IN: usize = 64;

/// One row waiting to be written: its game id, a second key for the filter, the row's CSV bytes, and its
/// place in the input (ties keep the first).
struct SortRow {
    id: u64,
    aux: u64,
    seq: u64,
    line: Vec<u8>,
}

/// Sorts a CSV file by game id in place (through a temporary file and a rename), streaming: rows read one
/// at a time, sorted in chunks of [`SORT_CHUNK_BYTES`], chunks spilled to run files beside it and merged.
/// `key` gives a row's (game id, second key), `None` to drop it, or an error (with the row's line number);
/// of rows with the same id the first is kept; `keep` is asked in output order. A missing file becomes the
/// header alone; a file whose header is not `header` is an error starting with "header".
fn sort_csv(
    path: &Path,
    header: &[String],
    key: impl FnMut(&csv::StringRecord, u64) -> Result<Option<(u64, u64)>, String>,
    keep: impl FnMut(u64, u64) -> bool,
) -> Result<(), String> {
    sort_csv_with(path, header, SORT_CHUNK_BYTES, MERGE_FAN_IN, key, keep)
}

/// [`sort_csv`] with its chunk size and fan-in given (small ones in tests).
fn sort_csv_with(
    path: &Path,
    header: &[String],
    chunk_bytes: usize,
    fan_in: usize,
    mut key: impl FnMut(&csv::StringRecord, u64) -> Result<Option<(u64, u64)>, String>,
    mut keep: impl FnMut(u64, u64) -> bool,
) -> Result<(), String> {
    let fan_in = fan_in.max(2);
    remove_stale_runs(path);
    let mut runs: Vec<PathBuf> = vec![];
    let result = (|| {
        let mut chunk: Vec<SortRow> = vec![];
        let mut bytes = 0usize;
        if let Some(mut r) = complete_lines(path)? {
            let mut row = csv::StringRecord::new();
            let mut line = 0u64;
            loop {
                match r.read_record(&mut row) {
                    Ok(false) => break,
                    Ok(true) => {}
                    Err(e) => return Err(format!("{}: {e}", path.display())),
                }
                line += 1;
                if line == 1 {
                    if row.iter().ne(header.iter().map(String::as_str)) {
                        return Err("header differs".into());
                    }
                    continue;
                }
                let Some((id, aux)) = key(&row, line)? else {
                    continue;
                };
                let l = csv_line(&row.iter().collect::<Vec<_>>());
                bytes += l.len() + std::mem::size_of::<SortRow>();
                chunk.push(SortRow {
                    id,
                    aux,
                    seq: line,
                    line: l,
                });
                if bytes >= chunk_bytes {
                    runs.push(spill(path, runs.len(), &mut chunk)?);
                    bytes = 0;
                }
            }
        }
        sort_chunk(&mut chunk);
        if runs.is_empty() {
            return write_atomic_with(path, |w| {
                w.write_all(&csv_line(header))?;
                for r in &chunk {
                    if keep(r.id, r.aux) {
                        w.write_all(&r.line)?;
                    }
                }
                Ok(())
            });
        }
        if !chunk.is_empty() {
            runs.push(spill(path, runs.len(), &mut chunk)?);
        }
        drop(chunk);
        // Merge passes until one pass can take every run.
        let mut next = runs.len();
        while runs.len() > fan_in {
            let group: Vec<PathBuf> = runs.drain(..fan_in).collect();
            let out = run_path(path, next);
            next += 1;
            let f = File::create(&out).map_err(|e| io_err(&out, e))?;
            let mut w = std::io::BufWriter::new(f);
            runs.push(out.clone());
            merge_runs(&group, |r| write_run_row(&mut w, r))?;
            w.flush().map_err(|e| io_err(&out, e))?;
            for g in &group {
                let _ = std::fs::remove_file(g);
            }
        }
        let mut failure = None;
        write_atomic_with(path, |w| {
            w.write_all(&csv_line(header))?;
            let merged = merge_runs(&runs, |r| {
                if keep(r.id, r.aux) {
                    w.write_all(&r.line)?;
                }
                Ok(())
            });
            if let Err(e) = merged {
                failure = Some(e.clone());
                return Err(std::io::Error::other(e));
            }
            Ok(())
        })
        .map_err(|e| failure.unwrap_or(e))
    })();
    for r in &runs {
        let _ = std::fs::remove_file(r);
    }
    result
}

/// Removes the run files a sort killed midway left beside `path` (the run's lock keeps other processes
/// away, so none is in use).
fn remove_stale_runs(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!("{}.sort", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return;
    };
    for e in entries.flatten() {
        let n = e.file_name();
        let n = n.to_string_lossy();
        if n.strip_prefix(&prefix)
            .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

fn run_path(path: &Path, i: usize) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".sort{i}"));
    path.with_file_name(name)
}

/// Sorted by id, then input order; one row per id (the first).
fn sort_chunk(chunk: &mut Vec<SortRow>) {
    chunk.sort_unstable_by_key(|r| (r.id, r.seq));
    chunk.dedup_by_key(|r| r.id);
}

/// Writes a sorted chunk to a run file: per row, id, second key, input order and length, then the bytes.
fn spill(path: &Path, i: usize, chunk: &mut Vec<SortRow>) -> Result<PathBuf, String> {
    sort_chunk(chunk);
    let out = run_path(path, i);
    let f = File::create(&out).map_err(|e| io_err(&out, e))?;
    let mut w = std::io::BufWriter::new(f);
    for r in chunk.iter() {
        write_run_row(&mut w, r).map_err(|e| io_err(&out, e))?;
    }
    w.flush().map_err(|e| io_err(&out, e))?;
    chunk.clear();
    Ok(out)
}

fn write_run_row(w: &mut impl Write, r: &SortRow) -> std::io::Result<()> {
    w.write_all(&r.id.to_le_bytes())?;
    w.write_all(&r.aux.to_le_bytes())?;
    w.write_all(&r.seq.to_le_bytes())?;
    w.write_all(&(r.line.len() as u64).to_le_bytes())?;
    w.write_all(&r.line)
}

fn read_run_row(r: &mut impl Read) -> std::io::Result<Option<SortRow>> {
    let mut head = [0u8; 32];
    match r.read_exact(&mut head[..8]) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    r.read_exact(&mut head[8..])?;
    let num = |i: usize| u64::from_le_bytes(head[i..i + 8].try_into().expect("8 bytes"));
    let mut line = vec![0u8; num(24) as usize];
    r.read_exact(&mut line)?;
    Ok(Some(SortRow {
        id: num(0),
        aux: num(8),
        seq: num(16),
        line,
    }))
}

/// Merges sorted runs into `out`, in (id, input order), one row per id.
fn merge_runs(
    runs: &[PathBuf],
    mut out: impl FnMut(&SortRow) -> std::io::Result<()>,
) -> Result<(), String> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut readers = vec![];
    for p in runs {
        let f = File::open(p).map_err(|e| io_err(p, e))?;
        readers.push(std::io::BufReader::with_capacity(64 * 1024, f));
    }
    let mut heads: Vec<Option<SortRow>> = vec![];
    let mut heap = BinaryHeap::new();
    for (i, r) in readers.iter_mut().enumerate() {
        let row = read_run_row(r).map_err(|e| io_err(&runs[i], e))?;
        if let Some(row) = &row {
            heap.push(Reverse((row.id, row.seq, i)));
        }
        heads.push(row);
    }
    let mut last = None;
    while let Some(Reverse((_, _, i))) = heap.pop() {
        let row = heads[i].take().expect("a head for every heap entry");
        if last != Some(row.id) {
            out(&row).map_err(|e| e.to_string())?;
            last = Some(row.id);
        }
        let next = read_run_row(&mut readers[i]).map_err(|e| io_err(&runs[i], e))?;
        if let Some(n) = &next {
            heap.push(Reverse((n.id, n.seq, i)));
        }
        heads[i] = next;
    }
    Ok(())
}

/// The game ids of a sorted `games.csv`, read one at a time, for walking another sorted file beside it.
struct GameIds {
    reader: Option<csv::Reader<std::io::Take<File>>>,
    row: csv::StringRecord,
    current: Option<u64>,
    started: bool,
}

impl GameIds {
    fn open(path: &Path) -> Result<GameIds, String> {
        Ok(GameIds {
            reader: complete_lines(path)?,
            row: csv::StringRecord::new(),
            current: None,
            started: false,
        })
    }

    fn advance(&mut self) {
        self.current = None;
        let Some(r) = self.reader.as_mut() else {
            return;
        };
        loop {
            match r.read_record(&mut self.row) {
                Ok(true) => {
                    if let Some(id) = self.row.get(0).and_then(|x| x.parse::<u64>().ok()) {
                        self.current = Some(id);
                        return;
                    }
                    // The header.
                }
                _ => {
                    self.reader = None;
                    return;
                }
            }
        }
    }

    /// Whether `id` is a game of the file; ids must be asked in increasing order.
    fn contains(&mut self, id: u64) -> bool {
        if !self.started {
            self.started = true;
            self.advance();
        }
        while let Some(c) = self.current {
            if c >= id {
                return c == id;
            }
            self.advance();
        }
        false
    }
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
            reads: Default::default(),
        }
    }

    /// How many times `games.csv` was read through [`RunFiles::for_each_game`] with these files.
    pub fn games_reads(&self) -> u64 {
        self.reads.load(std::sync::atomic::Ordering::Relaxed)
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
                diffs.push(format!(
                    "`{k}` was `{old}` when the run started, now absent"
                ));
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

    /// The games a run has finished (in file order), all in memory: for small runs, tests and tools.
    pub fn read_games(&self) -> Result<Vec<GameRecord>, String> {
        let mut out = vec![];
        self.for_each_game(|g| {
            out.push(g);
            Ok(())
        })?;
        Ok(out)
    }

    /// Reads `games.csv` one game at a time, in file order (a half-written last line left out), without
    /// holding more than one row; returns the number of games.
    pub fn for_each_game(
        &self,
        mut f: impl FnMut(GameRecord) -> Result<(), String>,
    ) -> Result<u64, String> {
        self.reads
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(mut r) = complete_lines(&self.games)? else {
            return Ok(0);
        };
        let header = GameRecord::header(self.seats);
        let mut row = csv::StringRecord::new();
        let mut line = 0u64;
        let mut n = 0u64;
        let mut fields: Vec<String> = vec![];
        loop {
            match r.read_record(&mut row) {
                Ok(false) => break,
                Ok(true) => {}
                Err(e) => return Err(format!("{}: {e}", self.games.display())),
            }
            line += 1;
            fields.clear();
            fields.extend(row.iter().map(String::from));
            if line == 1 {
                if fields != header {
                    return Err(format!(
                        "{}: not the games file of this run (its header differs)",
                        self.games.display()
                    ));
                }
                continue;
            }
            let g = GameRecord::from_row(&header, &fields)
                .map_err(|e| format!("{}:{line}: {e}", self.games.display()))?;
            f(g)?;
            n += 1;
        }
        Ok(n)
    }

    /// Puts `games.csv` and `timings.csv` in their final form, streaming (an external merge sort: sorted
    /// runs of a bounded size on disk, merged), whatever their size: rows in game-id order, one per game
    /// (the first if a game appears twice), a half-written last line dropped, games of pairs after
    /// `last_pair` dropped, and timings only for the games kept. Returns the number of games.
    pub fn finish_files(&self, last_pair: Option<u64>) -> Result<u64, String> {
        let header = GameRecord::header(self.seats);
        let games_path = self.games.display().to_string();
        let mut kept = 0u64;
        sort_csv(
            &self.games,
            &header,
            |row, line| {
                let id = row
                    .get(0)
                    .and_then(|x| x.parse::<u64>().ok())
                    .ok_or_else(|| {
                        format!("{games_path}:{line}: column `game_id` is not a number")
                    })?;
                let pair = row
                    .get(1)
                    .and_then(|x| x.parse::<u64>().ok())
                    .ok_or_else(|| {
                        format!("{games_path}:{line}: column `pair_id` is not a number")
                    })?;
                if row.len() != header.len() {
                    return Err(format!(
                        "{games_path}:{line}: {} fields where the header has {}",
                        row.len(),
                        header.len()
                    ));
                }
                Ok(Some((id, pair)))
            },
            |_, pair| {
                let keep = last_pair.is_none_or(|last| pair <= last);
                kept += keep as u64;
                keep
            },
        )
        .map_err(|e| {
            if e.starts_with("header") {
                format!("{games_path}: not the games file of this run (its header differs)")
            } else {
                e
            }
        })?;
        // The ids kept, in order, walked beside the sorted timings.
        let ids = std::cell::RefCell::new(GameIds::open(&self.games)?);
        let theader = GameTiming::header(self.seats);
        let timings = sort_csv(
            &self.timings,
            &theader,
            // Timings are informative only: rows that do not read are dropped.
            |row, _| {
                Ok((row.len() == theader.len())
                    .then(|| row.get(0).and_then(|x| x.parse::<u64>().ok()))
                    .flatten()
                    .map(|id| (id, 0)))
            },
            |id, _| ids.borrow_mut().contains(id),
        );
        match timings {
            Ok(()) => {}
            // A timings file of another shape: started anew (it is the one file allowed to differ).
            Err(e) if e.starts_with("header") => {
                write_atomic(&self.timings, &csv_line(&theader))?;
            }
            Err(e) => return Err(e),
        }
        Ok(kept)
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
            "pid {} on {host}, started {}\n",
            std::process::id(),
            utc_text(started)
        );
        file.set_len(0)
            .and_then(|_| file.write_all(who.as_bytes()))
            .and_then(|_| file.flush())
            .map_err(|e| io_err(path, e))?;
        Ok(RunLock { _file: file })
    }
}

/// `YYYY-MM-DD HH:MM:SS UTC` for seconds since 1970.
fn utc_text(secs: u64) -> String {
    let (year, month, day, h, m, s) = utc_fields(secs as i64);
    format!("{year:04}-{month:02}-{day:02} {h:02}:{m:02}:{s:02} UTC")
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
pub fn write_outputs(files: &RunFiles, t: &Tournament, s: &Summary) -> Result<(), String> {
    write_atomic(&files.standings, &standings_csv(s))?;
    write_atomic(&files.end_conditions, &end_conditions_csv(s))?;
    write_atomic(
        &files.dir.join("pairwise.csv"),
        &super::records_out::pairwise_csv(s),
    )?;
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
            evals: Default::default(),
            error: String::new(),
            start: String::new(),
            moves: vec!["a1-a2".into(), "b7-b6".into()],
        }
    }

    /// The external sort, with chunks of a few rows and a fan-in of 3 (several merge passes), gives what an
    /// in-memory sort gives: rows by game id, the first of duplicates, the half-written last line dropped,
    /// `keep` asked in order; no run file is left behind.
    #[test]
    fn the_external_sort_matches_an_in_memory_sort() {
        let dir = crate::test_scratch::Scratch::new("sort");
        let path = dir.join("games.csv");
        let header: Vec<String> = ["id", "pair", "text"].map(String::from).to_vec();
        // A fixed pseudo-random order of 500 ids with some repeated (the first copy says "first").
        let mut ids: Vec<u64> = (0..500).map(|i| (i * 7919) % 500).collect();
        ids.extend([3, 250, 499]);
        let mut text = csv_line(&header);
        for (n, id) in ids.iter().enumerate() {
            let tag = if n < 500 {
                "first"
            } else {
                "second, \"quoted\"\nline"
            };
            text.extend(csv_line(&[
                id.to_string(),
                (id / 2).to_string(),
                format!("{tag} {id}"),
            ]));
        }
        text.extend(b"77,38,half a li");
        std::fs::write(&path, &text).unwrap();
        // What a sort killed midway leaves behind.
        std::fs::write(dir.join("games.csv.sort999"), b"junk").unwrap();
        let mut asked = vec![];
        sort_csv_with(
            &path,
            &header,
            300,
            3,
            |row, _| {
                Ok(row
                    .get(0)
                    .unwrap()
                    .parse::<u64>()
                    .ok()
                    .map(|id| (id, id / 2)))
            },
            |id, pair| {
                asked.push(id);
                pair != 10
            },
        )
        .unwrap();
        assert_eq!(asked, (0..500).collect::<Vec<u64>>());
        let mut want = csv_line(&header);
        for id in 0..500u64 {
            if id / 2 != 10 {
                want.extend(csv_line(&[
                    id.to_string(),
                    (id / 2).to_string(),
                    format!("first {id}"),
                ]));
            }
        }
        assert!(
            std::fs::read(&path).unwrap() == want,
            "{}",
            std::fs::read_to_string(&path).unwrap()
        );
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["games.csv"]);
        // Another header is refused, the file left as it was.
        let err =
            sort_csv_with(&path, &header[..2], 300, 3, |_, _| Ok(None), |_, _| true).unwrap_err();
        assert!(err.starts_with("header"), "{err}");
        assert!(std::fs::read(&path).unwrap() == want);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn lock_times_read_as_dates() {
        assert_eq!(utc_text(0), "1970-01-01 00:00:00 UTC");
        // date -u -d @951782400: Tue Feb 29 00:00:00 UTC 2000; @1795430096: 2026-11-23 10:34:56.
        assert_eq!(utc_text(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_text(1_795_430_096), "2026-11-23 10:34:56 UTC");
    }

    #[test]
    fn a_half_written_last_line_is_dropped_and_appends_go_on() {
        let dir = crate::test_scratch::Scratch::new("writers");
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
