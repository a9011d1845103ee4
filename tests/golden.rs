//! Golden traces: the legal-move sets of every variant of every `games/` file and every corpus file, along
//! deterministic lines of play, recorded with the engine of main 7da45ba (before issue 11's rewrite) and
//! checked after every change of the engine. A changed trace is a changed rule: a bug unless the old trace can
//! be shown wrong (then re-record, and say why in the commit).
//!
//! What is recorded, per source file and variant (the loader's numbering, as `dagaz variants` prints it), and
//! for corpus files that have an extension module, once more with the module on:
//! * the title and the missing rules (`Game::missing_rules`, as the tools load with `--allow-missing-rules`),
//!   or `load error` and the first line of the first error;
//! * [`LINES`] lines of play. Line `L` at ply `k` plays the move at index `(k * 7 + L * 13 + 1) % n` of the
//!   legal moves sorted by their net effect (no random stream). A ply records `n` and a hash of the sorted
//!   multiset of the moves' net effects; the line ends with the outcome (end type, name, result per player),
//!   `limit` after [`PLIES`] plies (fewer for the files of [`SHORT`]), `budget` once the moves expanded along
//!   the line pass [`MOVE_BUDGET`], or the engine error or panic.
//!
//! The net effect of a move is a canonical text of the state after it ([`dump`]), independent of how a move or
//! a state is represented: every occupied position by name with owner, type, true attributes, integer
//! attributes and the dead mark, the column under it (bottom first); non-zero reserves; variables; the turn
//! (entry index and player), the ply, the passes in a row, and the last move's from and to (programs read them:
//! `last-from?`, `last-to?`, en passant). Not in it: the Zobrist hash (issue 11 may change it) and the history
//! of earlier keys (`State::past`, Zobrist keys; what it decides shows in the later plies' move sets). The
//! text is hashed with FNV-1a 64, written here, so the traces do not depend on the engine's hashing.
//!
//! `GOLDEN_RECORD=1 cargo test --release --test golden` rewrites the files under `tests/golden/` (a
//! re-recording needs its reason in the commit message). `GOLDEN_SHOW=FILE:VARIANT:LINE:PLY` (FILE a part of
//! the path; VARIANT as in the trace, `3` or `3+go`) prints the readable sorted effects at that ply.
//!
//! The default run checks `games/` and the whole corpus: about 30 s of one core (load and compile included),
//! twice: once with the engine's default backends, listing the moves the fastest way the engine has (a move
//! buffer from the draughts kernel or the composer, the royal-listed candidates), once with the general path
//! forced (`EngineOptions::general`: `legal_moves` from the interpreter and the composer alone).

mod common;

use dagaz::compile::Game;
use dagaz::engine::apply::Undo;
use dagaz::engine::{Engine, EngineError, EngineOptions, Move, MoveList, State};
use dagaz::lang::{read_file_with, ReadOptions};
use dagaz::load::{compile_selected_with, VariantSel};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Lines of play per variant.
const LINES: u32 = 3;
/// Plies per line at most.
const PLIES: u32 = 40;
/// Moves expanded (applied and dumped) along one line at most: a line past it ends as `budget`. Keeps huge
/// boards and huge move lists (several thousand moves a ply) from dominating the run.
const MOVE_BUDGET: usize = 40_000;

/// Files slow per ply: fewer plies (path suffix, plies).
/// Gwangsanghui (ZoG's and the old ZRF one) takes about 0.5 s a ply (about 100 moves, each tested against its
/// invariants and end conditions), gess about 0.07 s.
const SHORT: &[(&str, u32)] = &[
    ("Gwangsanghui.zrf", 4),
    ("Gwangsanghui.old.zrf", 4),
    ("gess.zrf", 16),
];

/// Corpus files with an extension module: path relative to the corpus, module.
const MODULES: &[(&str, &str)] = &[
    ("DagazProject.github.io/go/zrf/go.zrf", "go"),
    ("DagazProject.github.io/go/zrf/atari-go.zrf", "atari-go"),
    ("DagazProject.github.io/go/zrf/alak.zrf", "alak"),
    ("DagazProject.github.io/arrange/zrf/hex.zrf", "hex"),
    ("GlukKazan-Dagaz/src/debug/games/arrange/hex.zrf", "hex"),
    (
        "DagazProject.github.io/arrange/zrf/connect-four.zrf",
        "connect-four",
    ),
    (
        "DagazProject.github.io/checkers/zrf/stapeldammen.zrf",
        "stapeldammen",
    ),
    (
        "GlukKazan-Dagaz/src/debug/games/checkers/stapeldammen.zrf",
        "stapeldammen",
    ),
    (
        "DagazProject.github.io/checkers/zrf/adiuh-checkers.zrf",
        "adiuh-checkers",
    ),
    (
        "GlukKazan-Dagaz/src/debug/games/checkers/adiuh-checkers.zrf",
        "adiuh-checkers",
    ),
    ("DagazProject.github.io/mancala/zrf/oware.zrf", "oware"),
    ("DagazProject.github.io/mancala/zrf/kalah.zrf", "kalah"),
    (
        "DagazProject.github.io/mancala/zrf/mini-mancala.zrf",
        "mini-mancala",
    ),
    ("DagazProject.github.io/mancala/zrf/bakuk.zrf", "bakuk"),
    (
        "DagazProject.github.io/mancala/zrf/alemungula.zrf",
        "alemungula",
    ),
    ("DagazProject.github.io/mancala/zrf/dakon.zrf", "dakon"),
    ("DagazProject.github.io/mancala/zrf/ohvalhu.zrf", "ohvalhu"),
];

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn u64(&mut self, x: u64) {
        self.bytes(&x.to_le_bytes());
    }
}

fn fnv(b: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.bytes(b);
    h.0
}

/// The canonical text of a state: see the module's paragraph.
fn dump(game: &Game, s: &State, out: &mut String) {
    out.clear();
    let piece = |out: &mut String, p: &dagaz::engine::Piece| {
        let _ = write!(
            out,
            " {} {}",
            game.players
                .get(p.owner.idx())
                .map_or("?", |x| x.name.as_str()),
            game.pieces
                .get(p.kind.idx())
                .map_or("?", |x| x.name.as_str())
        );
        for (a, name) in game.attributes.iter().enumerate() {
            if p.attrs.get(a) {
                let _ = write!(out, " {name}");
            }
        }
        for (k, a) in game.int_attributes.iter().enumerate() {
            let v = p.attrs.get_int(k);
            if v != 0 {
                let _ = write!(out, " {}={v}", game.attributes[a.idx()]);
            }
        }
        if p.dead {
            out.push_str(" dead");
        }
    };
    let entry = game.turn_order.entries.get(s.turn());
    let _ = writeln!(
        out,
        "turn {} {}\nply {}\npasses {}",
        s.turn(),
        entry.map_or("?", |e| game.players[e.player.idx()].name.as_str()),
        s.ply(),
        s.passes()
    );
    let pos = |p: Option<dagaz::compile::Pos>| {
        p.map_or("-".to_string(), |p| {
            game.board.positions[p.idx()].name.clone()
        })
    };
    let _ = writeln!(out, "last {} {}", pos(s.last_from()), pos(s.last_to()));
    for (i, c) in s.cells().iter().enumerate() {
        let Some(p) = c else { continue };
        out.push_str(&game.board.positions[i].name);
        piece(out, p);
        out.push('\n');
        if s.has_columns() {
            let under = s.under(dagaz::compile::Pos(i as u16));
            if !under.is_empty() {
                out.push_str("  under");
                // `under` lists from just under the top down to the bottom: written bottom first.
                for q in under.iter().rev() {
                    piece(out, q);
                    out.push(';');
                }
                out.push('\n');
            }
        }
    }
    let np = game.pieces.len().max(1);
    for (slot, &n) in s.reserves().iter().enumerate() {
        if n != 0 {
            let _ = writeln!(
                out,
                "reserve {} {} {n}",
                game.players.get(slot / np).map_or("?", |x| x.name.as_str()),
                game.pieces.get(slot % np).map_or("?", |x| x.name.as_str())
            );
        }
    }
    for v in &game.variables {
        let n = if v.per_player { game.players.len() } else { 1 };
        for k in 0..n {
            let value = s.vars().get(v.slot + k).copied().unwrap_or(0);
            if v.per_player {
                let _ = writeln!(out, "var {} {} {value}", v.name, game.players[k].name);
            } else {
                let _ = writeln!(out, "var {} {value}", v.name);
            }
        }
    }
}

/// One line of play, as recorded: per ply `count:hash`, then how it ended.
/// The legal moves of `s`, listed the fastest way the engine has on its path: into a move buffer where one
/// serves the game (the draughts kernel's or the composer's list), as the royal-listed candidates each tested
/// by make and unmake, else [`Engine::legal_moves`] (the only way on the general path but for the composer's
/// buffer). Every way gives the same moves.
fn listed_moves(engine: &Engine, s: &State) -> Result<Vec<Move>, EngineError> {
    if engine.flat() {
        let mut list = MoveList::new();
        engine.legal_into(s, &mut list)?;
        return list.to_moves();
    }
    if engine.royal_listed() {
        let mut list = MoveList::new();
        engine.candidates_into(s, &mut list)?;
        let player = engine.to_move(s);
        let (mut work, mut undo) = (s.clone(), Undo::new());
        let mut legal = vec![];
        for i in 0..list.len() {
            if engine.listed_legal(&mut work, &list, i, player, &mut undo)? {
                legal.push(list.to_move(i)?);
            }
        }
        return Ok(legal);
    }
    engine.legal_moves(s)
}

fn play_line(engine: &Engine, line: u32, plies: u32, show: Option<u32>) -> (Vec<String>, String) {
    let game = engine.game;
    let mut s = engine.initial();
    let mut history: Vec<u64> = vec![];
    let mut plies_out = vec![];
    let mut expanded = 0usize;
    let mut buf = String::new();
    for k in 0.. {
        let moves: Vec<Move> = match listed_moves(engine, &s) {
            Ok(m) => m,
            Err(e) => return (plies_out, format!("error {}", first_line(&e.to_string()))),
        };
        let outcome = match engine.outcome(&s, &moves, &history) {
            Ok(o) => o,
            Err(e) => return (plies_out, format!("error {}", first_line(&e.to_string()))),
        };
        if let Some(o) = outcome {
            let results: Vec<String> = o.results.iter().map(|r| r.to_string()).collect();
            return (
                plies_out,
                format!(
                    "end {} [{}] {}",
                    o.end_type.replace(' ', "_"),
                    o.name.replace(' ', "_"),
                    results.join(",")
                ),
            );
        }
        if k >= plies {
            return (plies_out, "limit".into());
        }
        if expanded + moves.len() > MOVE_BUDGET {
            return (plies_out, "budget".into());
        }
        expanded += moves.len();
        // (digest, index into moves), sorted: the multiset of net effects.
        let mut effects: Vec<(u64, usize)> = Vec::with_capacity(moves.len());
        let mut texts = vec![];
        for (i, m) in moves.iter().enumerate() {
            let after = engine.apply(&s, m);
            dump(game, &after, &mut buf);
            effects.push((fnv(buf.as_bytes()), i));
            if show == Some(k) {
                texts.push((
                    fnv(buf.as_bytes()),
                    engine_notation(engine, &s, &moves, i),
                    buf.clone(),
                ));
            }
        }
        effects.sort();
        let mut h = Fnv::new();
        h.u64(effects.len() as u64);
        for (d, _) in &effects {
            h.u64(*d);
        }
        plies_out.push(format!(
            "{}:{:08x}",
            effects.len(),
            h.0 as u32 ^ (h.0 >> 32) as u32
        ));
        if show == Some(k) {
            texts.sort();
            println!(
                "--- line {line} ply {k}: {} moves, sorted by net effect",
                texts.len()
            );
            for (i, (d, n, t)) in texts.iter().enumerate() {
                println!("[{i}] {d:016x} ({n})\n{t}");
            }
        }
        if effects.is_empty() {
            // No move and no outcome: the engine would end it as stalemated; record what it says.
            return (plies_out, "no-moves".into());
        }
        let pick = ((k as usize) * 7 + (line as usize) * 13 + 1) % effects.len();
        history.push(s.key());
        s = engine.apply(&s, &moves[effects[pick].1]);
    }
    unreachable!()
}

fn engine_notation(engine: &Engine, _s: &State, moves: &[Move], i: usize) -> String {
    moves[i].notation(engine.game)
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").trim().to_string()
}

/// Where the trace of a source file is kept.
fn golden_file(source: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = common::corpus_root();
    let dir = root.join("tests/golden");
    if let Ok(rel) = source.strip_prefix(&corpus) {
        let parent = rel.parent().map_or(String::new(), |p| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("--")
        });
        dir.join("corpus").join(format!("{parent}.txt"))
    } else {
        dir.join("games.txt")
    }
}

/// A source's name in the traces: relative to the corpus, or `games/NAME`.
fn source_name(source: &Path) -> String {
    let corpus = common::corpus_root();
    if source.starts_with(&corpus) {
        common::corpus_name(source)
    } else {
        format!("games/{}", source.file_name().unwrap().to_string_lossy())
    }
}

/// `GOLDEN_SHOW=FILE:VARIANT:LINE:PLY`.
fn show_request() -> Option<(String, String, u32, u32)> {
    let v = std::env::var("GOLDEN_SHOW").ok()?;
    let parts: Vec<&str> = v.rsplitn(4, ':').collect();
    if parts.len() != 4 {
        panic!("GOLDEN_SHOW=FILE:VARIANT:LINE:PLY, got {v}");
    }
    Some((
        parts[3].to_string(),
        parts[2].to_string(),
        parts[1].parse().expect("GOLDEN_SHOW line"),
        parts[0].parse().expect("GOLDEN_SHOW ply"),
    ))
}

/// The trace of one source file: its lines of text, each `name<TAB>key<TAB>payload`.
fn trace_file(source: &Path, options: EngineOptions) -> Vec<String> {
    let name = source_name(source);
    let plies = SHORT
        .iter()
        .find(|(suffix, _)| name.ends_with(suffix))
        .map_or(PLIES, |&(_, p)| p);
    let module = MODULES.iter().find(|(f, _)| *f == name).map(|&(_, m)| m);
    let show = show_request();
    let mut out = vec![];
    for ext in std::iter::once(None).chain(module.map(Some)) {
        let opts = ReadOptions {
            extensions: ext.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        };
        let file = read_file_with(source, &opts);
        let tag = |v: &str| match ext {
            Some(m) => format!("{v}+{m}"),
            None => v.to_string(),
        };
        if let Some(d) = file.diagnostics.iter().find(|d| d.is_error()) {
            out.push(format!(
                "{name}\t{}\tload error {}",
                tag("*"),
                first_line(&d.message)
            ));
            continue;
        }
        if file.games.is_empty() {
            out.push(format!("{name}\t{}\tno game", tag("*")));
        }
        for src in &file.games {
            let v = tag(&src.number.to_string());
            let (game, diags) =
                compile_selected_with(&file, &VariantSel::Number(src.number), &opts.extensions);
            let mut game = match game {
                Some(g) => g,
                None => {
                    let msg = diags
                        .iter()
                        .find(|d| d.is_error())
                        .map_or(String::new(), |d| first_line(&d.message));
                    out.push(format!("{name}\t{v}\tload error {msg}"));
                    continue;
                }
            };
            if let Some(m) = ext {
                if let Err(e) = dagaz::extension::attach(&mut game, m) {
                    out.push(format!("{name}\t{v}\tload error {}", first_line(&e)));
                    continue;
                }
            }
            let missing: Vec<String> = game
                .missing_rules
                .iter()
                .map(|r| r.what_with_value())
                .collect();
            out.push(format!(
                "{name}\t{v}\tgame {} | missing: {}",
                game.title,
                missing.join("; ")
            ));
            let engine = Engine::with_options(&game, options);
            for line in 0..LINES {
                let show_here = show.as_ref().and_then(|(f, sv, sl, sp)| {
                    (name.contains(f.as_str()) && *sv == v && *sl == line).then_some(*sp)
                });
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    play_line(&engine, line, plies, show_here)
                }));
                let text = match r {
                    Ok((p, end)) => format!("{} {end}", p.join(" ")),
                    Err(_) => "panic".to_string(),
                };
                out.push(format!("{name}\t{v}/L{line}\t{}", text.trim_start()));
            }
        }
    }
    out
}

fn games_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "zrf"))
        .collect();
    v.sort();
    v
}

/// Traces the files on two threads with engines built with `options`, then compares with (or, under
/// `GOLDEN_RECORD=1`, writes) their golden files. `whole` says whether the golden files are checked whole
/// (every file they list was traced).
fn run(files: &[PathBuf], whole: bool, options: EngineOptions) {
    let record = std::env::var_os("GOLDEN_RECORD").is_some_and(|v| v == "1");
    if record && options.general_path {
        // The default backends record; the general path is checked against the recording afterwards.
        return;
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<BTreeMap<PathBuf, Vec<String>>> = Mutex::new(BTreeMap::new());
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(2);
    std::thread::scope(|sc| {
        for _ in 0..threads {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(f) = files.get(i) else { break };
                let t = std::time::Instant::now();
                let lines = trace_file(f, options);
                if std::env::var_os("GOLDEN_TIMES").is_some() {
                    eprintln!("{:6.2} s {}", t.elapsed().as_secs_f64(), f.display());
                }
                results.lock().unwrap().insert(f.clone(), lines);
            });
        }
    });
    let results = results.into_inner().unwrap();
    // Group by golden file.
    let mut by_golden: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    let mut traced_names: BTreeMap<PathBuf, Vec<String>> = BTreeMap::new();
    for (f, lines) in &results {
        let g = golden_file(f);
        by_golden
            .entry(g.clone())
            .or_default()
            .extend(lines.iter().cloned());
        traced_names.entry(g).or_default().push(source_name(f));
    }
    let mut failures = vec![];
    for (g, lines) in &by_golden {
        let header = "# golden traces (tests/golden.rs): source<TAB>variant[/line]<TAB>record; \
                      re-record with GOLDEN_RECORD=1 and give the reason in the commit\n";
        if record {
            // Keep the lines of sources this run did not trace (the default run traces a share).
            let mut all: BTreeMap<(String, usize), String> = BTreeMap::new();
            let traced = &traced_names[g];
            if let Ok(old) = std::fs::read_to_string(g) {
                for (i, l) in old.lines().filter(|l| !l.starts_with('#')).enumerate() {
                    let src = l.split('\t').next().unwrap_or("").to_string();
                    if !traced.contains(&src) {
                        all.insert((src, i), l.to_string());
                    }
                }
            }
            for (i, l) in lines.iter().enumerate() {
                let src = l.split('\t').next().unwrap_or("").to_string();
                all.insert((src, 1_000_000 + i), l.clone());
            }
            std::fs::create_dir_all(g.parent().unwrap()).unwrap();
            let mut text = header.to_string();
            for l in all.values() {
                text.push_str(l);
                text.push('\n');
            }
            std::fs::write(g, text).unwrap();
            continue;
        }
        let old = match std::fs::read_to_string(g) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{}: cannot read: {e}", g.display()));
                continue;
            }
        };
        let traced = &traced_names[g];
        let expected: BTreeMap<(String, String), String> = old
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter_map(|l| {
                let mut it = l.splitn(3, '\t');
                let (src, key, rest) = (it.next()?, it.next()?, it.next()?);
                (whole || traced.iter().any(|t| t == src))
                    .then(|| ((src.to_string(), key.to_string()), rest.to_string()))
            })
            .collect();
        let got: BTreeMap<(String, String), String> = lines
            .iter()
            .filter_map(|l| {
                let mut it = l.splitn(3, '\t');
                Some((
                    (it.next()?.to_string(), it.next()?.to_string()),
                    it.next()?.to_string(),
                ))
            })
            .collect();
        for (k, want) in &expected {
            match got.get(k) {
                None => failures.push(format!(
                    "{} variant {}: recorded but not produced now",
                    k.0, k.1
                )),
                Some(have) if have != want => failures.push(describe(&k.0, &k.1, want, have)),
                _ => {}
            }
        }
        for k in got.keys() {
            if !expected.contains_key(k) {
                failures.push(format!(
                    "{} variant {}: produced but not recorded",
                    k.0, k.1
                ));
            }
        }
    }
    if record {
        println!("recorded {} golden files", by_golden.len());
        return;
    }
    assert!(
        failures.is_empty(),
        "{} golden trace(s) differ (GOLDEN_SHOW=FILE:VARIANT:LINE:PLY prints a ply's effects):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A readable difference: the first differing ply of a line of play, or the whole record.
fn describe(src: &str, key: &str, want: &str, have: &str) -> String {
    if let Some((variant, line)) = key.split_once("/L") {
        let w: Vec<&str> = want.split(' ').collect();
        let h: Vec<&str> = have.split(' ').collect();
        let k = w.iter().zip(&h).take_while(|(a, b)| a == b).count();
        return format!(
            "{src} variant {variant} line {line}: first differing ply {k}: recorded `{}`, now `{}`",
            w[k..].iter().take(3).cloned().collect::<Vec<_>>().join(" "),
            h[k..].iter().take(3).cloned().collect::<Vec<_>>().join(" "),
        );
    }
    format!("{src} variant {key}: recorded `{want}`, now `{have}`")
}

#[test]
fn golden_games() {
    run(&games_files(), true, EngineOptions::default());
}

#[test]
fn golden_corpus() {
    run(&common::corpus_files(), true, EngineOptions::default());
}

/// [`golden_games`] with the general path forced.
#[test]
fn golden_games_general_path() {
    run(&games_files(), true, EngineOptions::general());
}

/// [`golden_corpus`] with the general path forced.
#[test]
fn golden_corpus_general_path() {
    run(&common::corpus_files(), true, EngineOptions::general());
}

/// A share of the corpus, for a quick look while working on the engine:
/// `cargo test --release --test golden -- --ignored golden_corpus_quarter`.
#[test]
#[ignore]
fn golden_corpus_quarter() {
    let files: Vec<PathBuf> = common::corpus_files().into_iter().step_by(4).collect();
    run(&files, false, EngineOptions::default());
}
