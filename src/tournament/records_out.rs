//! The per-game files written from the sorted records at the end of a run, one record at a time (nothing kept
//! per game): `results_long.csv` (a row per game and seat), `games.pgn` (each game as a PGN record, with
//! standard algebraic notation for chess, so that chess programs and python-chess read it) and, for Go-like
//! games, `games.sgf`.
//! `pairwise.csv` (a row per pair of bots) comes from the summary.

use super::config::Tournament;
use super::record::{GameRecord, GameTiming};
use super::report::{fmt, Summary};
use super::text::csv_line;
use crate::compile::{Game, Player, Pos};
use crate::engine::{Action, Engine, Move, State};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `results_long.csv` and `games.pgn` game by game, each to a temporary file renamed at the end.
pub struct GameFiles {
    long: (PathBuf, BufWriter<File>),
    pgn: (PathBuf, BufWriter<File>),
    /// `games.sgf`, when a variant is Go-like (see [`go_board`]).
    sgf: Option<(PathBuf, BufWriter<File>)>,
    /// Per variant (by index): its Go board, if it is Go-like.
    go_boards: Vec<Option<GoBoard>>,
    /// The date the records are written, for PGN's `Date` tag (`YYYY.MM.DD`).
    date: String,
    event: String,
    /// Per variant title: its compiled game, and whether it is standard chess (SAN is written for it).
    variants: HashMap<String, (usize, bool)>,
    /// `timings.csv`, read beside the games (both in game-id order), for the clocks of PGN's `%clk`.
    timings: TimingCursor,
}

/// Reads `timings.csv` forward, one row at a time, handing out the row of a game id (ids asked in increasing
/// order, as `games.csv` has them). A missing or unreadable file gives no timings: they are informative only.
struct TimingCursor {
    reader: Option<csv::Reader<std::io::BufReader<File>>>,
    header: Vec<String>,
    next: Option<GameTiming>,
}

impl TimingCursor {
    fn open(path: &Path) -> TimingCursor {
        let mut reader = File::open(path).ok().map(|f| {
            csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(std::io::BufReader::new(f))
        });
        let mut header = vec![];
        if let Some(r) = reader.as_mut() {
            let mut row = csv::StringRecord::new();
            match r.read_record(&mut row) {
                Ok(true) => header = row.iter().map(String::from).collect(),
                _ => reader = None,
            }
        }
        TimingCursor {
            reader,
            header,
            next: None,
        }
    }

    fn get(&mut self, id: u64) -> Option<GameTiming> {
        loop {
            if let Some(t) = &self.next {
                if t.game_id > id {
                    return None;
                }
                if t.game_id == id {
                    return self.next.take();
                }
            }
            let r = self.reader.as_mut()?;
            let mut row = csv::StringRecord::new();
            match r.read_record(&mut row) {
                Ok(true) => {
                    let row: Vec<String> = row.iter().map(String::from).collect();
                    self.next = GameTiming::from_row(&self.header, &row).ok();
                }
                _ => {
                    self.reader = None;
                    return None;
                }
            }
        }
    }
}

fn create(path: &Path) -> Result<(PathBuf, BufWriter<File>), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let f = File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    Ok((tmp, BufWriter::new(f)))
}

fn finish(path: &Path, (tmp, mut w): (PathBuf, BufWriter<File>)) -> Result<(), String> {
    w.flush().map_err(|e| format!("{}: {e}", tmp.display()))?;
    drop(w);
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

impl GameFiles {
    pub fn new(dir: &Path, t: &Tournament) -> Result<GameFiles, String> {
        let mut long = create(&dir.join("results_long.csv"))?;
        long.1
            .write_all(&csv_line(&[
                "game_id",
                "pair_id",
                "variant",
                "seat",
                "player",
                "bot",
                "opponents",
                "result",
                "score",
                "end_type",
                "end_name",
                "end_priority",
                "plies",
            ]))
            .map_err(|e| e.to_string())?;
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let (y, m, d, ..) = super::text::utc_fields(secs);
        let variants = t
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| (v.title.clone(), (i, is_standard_chess(&v.game))))
            .collect();
        let go_boards: Vec<Option<GoBoard>> =
            t.variants.iter().map(|v| go_board(&v.game)).collect();
        let sgf = match go_boards.iter().any(Option::is_some) {
            true => Some(create(&dir.join("games.sgf"))?),
            false => None,
        };
        Ok(GameFiles {
            long,
            pgn: create(&dir.join("games.pgn"))?,
            sgf,
            go_boards,
            date: format!("{y:04}.{m:02}.{d:02}"),
            event: format!(
                "dagaz tournament: {}",
                t.config
                    .game
                    .rsplit(['/', '\\'])
                    .next()
                    .unwrap_or(&t.config.game)
            ),
            variants,
            timings: TimingCursor::open(&dir.join("timings.csv")),
        })
    }

    pub fn add(&mut self, t: &Tournament, g: &GameRecord) -> Result<(), String> {
        let v = self.variants.get(&g.variant).copied();
        let players: Vec<String> = match v {
            Some((i, _)) => {
                let game = &t.variants[i].game;
                super::config::seats_of(game)
                    .iter()
                    .map(|&p| game.players[p].name.clone())
                    .collect()
            }
            None => vec![],
        };
        for (seat, bot) in g.bots.iter().enumerate() {
            let r = g.results.get(seat).copied();
            let opponents: Vec<&str> = g
                .bots
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != seat)
                .map(|(_, b)| b.as_str())
                .collect();
            let row = [
                g.game_id.to_string(),
                g.pair_id.to_string(),
                g.variant.clone(),
                (seat + 1).to_string(),
                players.get(seat).cloned().unwrap_or_default(),
                bot.clone(),
                opponents.join(";"),
                r.map_or(String::new(), |r| r.to_string()),
                r.map_or(String::new(), |r| {
                    fmt(Some((r.signum() as f64 + 1.0) / 2.0), 1)
                }),
                g.end_type.clone(),
                g.end_name.clone(),
                g.end_priority.to_string(),
                g.plies.to_string(),
            ];
            self.long
                .1
                .write_all(&csv_line(&row))
                .map_err(|e| e.to_string())?;
        }
        if let (Some((i, _)), Some(w)) = (v, self.sgf.as_mut()) {
            if let Some(board) = &self.go_boards[i] {
                let text = sgf_game(t.variants[i].rules.engine(), board, g, &self.date);
                w.1.write_all(text.as_bytes()).map_err(|e| e.to_string())?;
            }
        }
        let clocks = self.timings.get(g.game_id).map(|t| t.clock_ms);
        let clocks = clocks.filter(|c| c.iter().any(Option::is_some));
        let text = pgn_game(
            t,
            g,
            v,
            &players,
            &self.event,
            &self.date,
            clocks.as_deref(),
        );
        self.pgn
            .1
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string())
    }

    pub fn finish(self, dir: &Path) -> Result<(), String> {
        finish(&dir.join("results_long.csv"), self.long)?;
        if let Some(w) = self.sgf {
            finish(&dir.join("games.sgf"), w)?;
        }
        finish(&dir.join("games.pgn"), self.pgn)
    }
}

/// Per pair of bots (each pair once, in the order the bots were given): games, W/D/L from the first bot's
/// view, its score, Elo ± 95% and the likelihood of superiority.
pub fn pairwise_csv(s: &Summary) -> Vec<u8> {
    let mut out = csv_line(&[
        "bot",
        "opponent",
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_error95",
        "los",
    ]);
    for h in &s.head2head {
        let los = s
            .standings
            .iter()
            .find(|st| st.bot == h.a)
            .and_then(|st| st.los.get(h.b).copied().flatten());
        out.extend(csv_line(&[
            s.bots[h.a].clone(),
            s.bots[h.b].clone(),
            h.wdl.games().to_string(),
            h.wdl.wins.to_string(),
            h.wdl.draws.to_string(),
            h.wdl.losses.to_string(),
            fmt(h.wdl.score(), 4),
            fmt(h.elo.map(|e| e.elo), 2),
            fmt(h.elo.map(|e| e.error95), 2),
            los.map_or(String::new(), |x| fmt(Some(x), 4)),
        ]));
    }
    out
}

/// A PGN tag value: backslashes and quotes escaped.
fn tag(name: &str, value: &str) -> String {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{v}\"]\n")
}

fn pgn_game(
    t: &Tournament,
    g: &GameRecord,
    variant: Option<(usize, bool)>,
    players: &[String],
    event: &str,
    date: &str,
    clocks: Option<&[Option<u64>]>,
) -> String {
    let two = g.bots.len() == 2;
    // PGN's White and Black: the seats of the players so named (Go's Black moves first), else seats 1 and 2.
    let (w, b) = if two && players.len() == 2 && players[0] == "Black" && players[1] == "White" {
        (1, 0)
    } else {
        (0, 1)
    };
    let result = if !g.is_rated() {
        "*"
    } else if g.results.iter().all(|&r| r == g.results[0]) {
        if two {
            "1/2-1/2"
        } else {
            "*"
        }
    } else if two {
        if g.results[w] > g.results[b] {
            "1-0"
        } else {
            "0-1"
        }
    } else {
        "*"
    };
    let mut out = String::new();
    out.push_str(&tag("Event", event));
    out.push_str(&tag("Site", "dagaz"));
    out.push_str(&tag("Date", date));
    out.push_str(&tag("Round", &(g.pair_id + 1).to_string()));
    if two {
        out.push_str(&tag("White", &g.bots[w]));
        out.push_str(&tag("Black", &g.bots[b]));
    } else {
        out.push_str(&tag("White", "?"));
        out.push_str(&tag("Black", "?"));
    }
    out.push_str(&tag("Result", result));
    for (i, b) in g.bots.iter().enumerate() {
        let who = players
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("seat {}", i + 1));
        if !two {
            out.push_str(&tag(&format!("Seat{}", i + 1), &format!("{who}: {b}")));
        }
    }
    out.push_str(&tag("Variant", &g.variant));
    out.push_str(&tag("Termination", &g.end_name));
    out.push_str(&tag("PlyCount", &g.plies.to_string()));
    out.push_str(&tag("GameId", &g.game_id.to_string()));
    out.push_str(&tag("Seed", &g.seed.to_string()));
    if !g.error.is_empty() {
        out.push_str(&tag("Annotator", &format!("dagaz: {}", g.error)));
    }
    // A game from an opening book's position: FEN's tags, and the moves numbered from its ply.
    let start = match variant {
        Some((i, _)) if !g.start.is_empty() => {
            let engine = t.variants[i].rules.engine();
            super::openings::decode_start(engine.game, &g.start)
                .ok()
                .map(|s| (engine, s))
        }
        _ => None,
    };
    let first_ply = start.as_ref().map_or(0, |(_, s)| s.ply() as usize);
    if let Some((engine, s)) = &start {
        if let Ok(n) = crate::bot::protocol::notation::ChessNotation::of(engine.game) {
            let moves = engine.legal_moves(s).unwrap_or_default();
            out.push_str(&tag("SetUp", "1"));
            out.push_str(&tag(
                "FEN",
                &n.fen(engine.game, s, engine.to_move(s), &moves),
            ));
        }
    }
    out.push('\n');
    let san = match variant {
        Some((i, true)) => {
            let engine = t.variants[i].rules.engine();
            let from = match &start {
                Some((_, s)) => s.clone(),
                None => engine.initial(),
            };
            san_moves_with(engine, from, &g.moves).ok()
        }
        _ => None,
    };
    let moves = san.unwrap_or_else(|| g.moves.clone());
    let mut line = String::new();
    let mut text = String::new();
    for (i, m) in moves.iter().enumerate() {
        let ply = first_ply + i;
        let mut token = if ply % 2 == 0 {
            format!("{}. {m}", ply / 2 + 1)
        } else if i == 0 {
            format!("{}... {m}", ply / 2 + 1)
        } else {
            m.clone()
        };
        // The mover's clock after the move, where it plays on one; a move after a comment is numbered again.
        let clock = clocks.and_then(|c| c.get(i).copied().flatten());
        if ply % 2 == 1
            && i > 0
            && clocks
                .and_then(|c| c.get(i - 1).copied().flatten())
                .is_some()
        {
            token = format!("{}... {m}", ply / 2 + 1);
        }
        if let Some(ms) = clock {
            token.push_str(&format!(" {{[%clk {}]}}", super::clock::clk(ms)));
        }
        if line.len() + token.len() + 1 > 79 {
            text.push_str(line.trim_end());
            text.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(result);
    text.push_str(&line);
    out.push_str(&text);
    out.push_str("\n\n");
    out
}

/// A Go-like board as SGF sees it: its size and each position's (column, row) from the top left.
pub struct GoBoard {
    size: usize,
    coords: Vec<Option<(usize, usize)>>,
}

/// Whether a game is Go-like, for SGF: players Black and White, one piece type that is only dropped, and a square
/// grid of at most 25 by 25 (the positions' screen rectangles give the columns and rows).
pub fn go_board(game: &Game) -> Option<GoBoard> {
    let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
    if names != ["Black", "White"]
        || game.pieces.len() != 1
        || !game.pieces[0].moves.is_empty()
        || game.pieces[0].drops.is_empty()
    {
        return None;
    }
    // Where each position is drawn: its screen rectangle, else its name read as file letters and a rank number
    // (`c3`), ranks counted from the top as the highest.
    let by_name = |name: &str| -> Option<[i32; 4]> {
        let split = name.find(|c: char| c.is_ascii_digit())?;
        let (file, rank) = name.split_at(split);
        if file.is_empty() || !file.chars().all(|c| c.is_ascii_lowercase()) {
            return None;
        }
        let f = file
            .bytes()
            .fold(0i32, |a, b| a * 26 + (b - b'a') as i32 + 1);
        let r: i32 = rank.parse().ok()?;
        Some([f, -r, f, -r])
    };
    let on: Vec<(usize, [i32; 4])> = game
        .board
        .positions
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.dummy)
        .map(|(i, p)| p.rect.or_else(|| by_name(&p.name)).map(|r| (i, r)))
        .collect::<Option<_>>()?;
    let mut xs: Vec<i32> = on.iter().map(|(_, r)| r[0]).collect();
    let mut ys: Vec<i32> = on.iter().map(|(_, r)| r[1]).collect();
    xs.sort();
    xs.dedup();
    ys.sort();
    ys.dedup();
    let n = xs.len();
    if n != ys.len() || n * n != on.len() || !(2..=25).contains(&n) {
        return None;
    }
    let mut coords = vec![None; game.board.positions.len()];
    for (i, r) in on {
        let c = xs.binary_search(&r[0]).ok()?;
        let row = ys.binary_search(&r[1]).ok()?;
        coords[i] = Some((c, row));
    }
    Some(GoBoard { size: n, coords })
}

/// One game as an SGF game tree: size, players, result, then a node per move (`B[cd]`; a pass is `B[]`).
fn sgf_game(engine: &Engine, board: &GoBoard, g: &GameRecord, date: &str) -> String {
    let game = engine.game;
    let esc = |v: &str| v.replace('\\', "\\\\").replace(']', "\\]");
    // Replayed to find each move's point: a drop's notation names its position, a pass has none.
    let mut nodes = String::new();
    let mut s = engine.initial();
    for m in &g.moves {
        let Ok(legal) = engine.legal_moves(&s) else {
            break;
        };
        let notes = Move::notations(game, &legal);
        let Some(i) = notes.iter().position(|n| n == m) else {
            break;
        };
        let color = if engine.to_move(&s).0 == 0 { 'B' } else { 'W' };
        let point = legal[i]
            .parts
            .first()
            .and_then(|p| p.to)
            .and_then(|p| board.coords[p.idx()])
            .map_or(String::new(), |(c, r)| {
                format!("{}{}", (b'a' + c as u8) as char, (b'a' + r as u8) as char)
            });
        nodes.push_str(&format!(";{color}[{point}]"));
        s = engine.apply(&s, &legal[i]);
    }
    // The komi where the end conditions state one (`KM`), and the result with its margin when the game was
    // scored (`B+3.5`), else how it ended: `R` resignation, `T` time, `F` forfeit (a bot error).
    let komi = super::komi::komi(game);
    let how = match g.end_type.as_str() {
        "resign" | "adjudicated-resign" => "R".to_string(),
        "time-forfeit" => "T".to_string(),
        "bot-error" => "F".to_string(),
        _ => match komi {
            Some(k) if g.end_name == "area" => {
                format!("{}", super::komi::margin(game, &s, k).abs())
            }
            _ => String::new(),
        },
    };
    let result = match g.results.as_slice() {
        [b, w] if b > w => format!("B+{how}"),
        [b, w] if w > b => format!("W+{how}"),
        [_, _] => "0".to_string(),
        _ => "?".to_string(),
    };
    let km = komi.map_or(String::new(), |k| format!("KM[{k}]"));
    let mut out = format!(
        "(;GM[1]FF[4]CA[UTF-8]AP[dagaz]SZ[{}]{km}GN[{} game {}]DT[{}]PB[{}]PW[{}]RE[{}]GC[{}]",
        board.size,
        esc(&g.variant),
        g.game_id,
        date.replace('.', "-"),
        esc(g.bots.first().map_or("", |b| b.as_str())),
        esc(g.bots.get(1).map_or("", |b| b.as_str())),
        result,
        esc(&format!("end: {}; seed {}", g.end_name, g.seed))
    );
    out.push_str(&nodes);
    out.push_str(")\n");
    out
}

/// Chess as PGN knows it: players White and Black, the 64 squares a1-h8, and the six chess pieces by name.
pub fn is_standard_chess(game: &Game) -> bool {
    let names: Vec<&str> = game.players.iter().map(|p| p.name.as_str()).collect();
    if names != ["White", "Black"] || game.board.positions.len() != 64 {
        return false;
    }
    let squares = (0..64).all(|i| {
        let name = format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1);
        game.board.position(&name).is_some()
    });
    let mut pieces: Vec<&str> = game.pieces.iter().map(|p| p.name.as_str()).collect();
    pieces.sort();
    squares && pieces == ["Bishop", "King", "Knight", "Pawn", "Queen", "Rook"]
}

fn letter(name: &str) -> &'static str {
    match name {
        "King" => "K",
        "Queen" => "Q",
        "Rook" => "R",
        "Bishop" => "B",
        "Knight" => "N",
        _ => "",
    }
}

/// The moves in standard algebraic notation, replaying the game; an error if a move of the record is not
/// among the legal moves (the record is then written in dagaz's notation).
pub fn san_moves(game: &Game, moves: &[String]) -> Result<Vec<String>, String> {
    san_moves_from(game, State::initial(game), moves)
}

/// As [`san_moves`], from a given position.
pub fn san_moves_from(game: &Game, start: State, moves: &[String]) -> Result<Vec<String>, String> {
    san_moves_with(&Engine::new(game), start, moves)
}

/// As [`san_moves_from`], with an engine already built (a run's, shared by all its games).
pub fn san_moves_with(
    engine: &Engine,
    start: State,
    moves: &[String],
) -> Result<Vec<String>, String> {
    let game = engine.game;
    let mut s = start;
    let mut out = vec![];
    for m in moves {
        let legal = engine.legal_moves(&s).map_err(|e| e.to_string())?;
        let notes = Move::notations(game, &legal);
        let i = notes
            .iter()
            .position(|n| n == m)
            .ok_or_else(|| format!("`{m}` is not legal here"))?;
        let mut san = san_of(game, &s, &legal, i);
        let after = engine.apply(&s, &legal[i]);
        let replies = engine.legal_moves(&after).map_err(|e| e.to_string())?;
        let mover = engine.to_move(&s);
        let other = engine.to_move(&after);
        if other != mover && in_check(game, &after, other) {
            san.push(if replies.is_empty() { '#' } else { '+' });
        }
        out.push(san);
        s = after;
    }
    Ok(out)
}

fn in_check(game: &Game, s: &State, player: Player) -> bool {
    let kings: Vec<_> = (0..game.pieces.len())
        .filter(|&k| game.pieces[k].name == "King")
        .map(|k| crate::compile::PieceType(k as u16))
        .collect();
    crate::engine::gen::royal_attacked(game, s, player, &kings).unwrap_or(false)
}

fn square(game: &Game, p: Pos) -> String {
    game.board.positions[p.idx()].name.clone()
}

/// Where the moving piece starts: the origin of the move's first step (a castling's part names the rook's
/// squares, since `cascade` hands the move on to it, but the king moves first).
fn origin(m: &Move) -> Option<Pos> {
    let p = m.parts.first()?;
    p.actions
        .iter()
        .find_map(|a| match a {
            Action::Move { from, .. } => Some(*from),
            _ => None,
        })
        .or(p.from)
}

/// Where the moving piece ends: the target of its own first step, so that castling (where the rook moves after
/// the king, `cascade`) names the king's square, then of its later parts (a chain of captures).
fn dest(m: &Move) -> Option<Pos> {
    let mut at = origin(m)?;
    for (i, p) in m.parts.iter().enumerate() {
        if i > 0 && p.from != Some(at) {
            break; // another piece moves on (the rook of a castling)
        }
        let step = p.actions.iter().find_map(|a| match a {
            Action::Move { from: f, to } if *f == at => Some(*to),
            _ => None,
        });
        at = step.or(p.to)?;
    }
    Some(at)
}

/// The SAN of `legal[i]` in `s` (without the check mark).
fn san_of(game: &Game, s: &State, legal: &[Move], i: usize) -> String {
    let m = &legal[i];
    let (Some(from), Some(to)) = (origin(m), dest(m)) else {
        return "--".into();
    };
    let Some(piece) = s.get(from) else {
        return "--".into();
    };
    let name = game.pieces[piece.kind.idx()].name.as_str();
    let (ff, ft) = (
        square(game, from).as_bytes()[0],
        square(game, to).as_bytes()[0],
    );
    if name == "King" && (ff as i32 - ft as i32).abs() == 2 {
        return if ft > ff {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let captures = m.captures() > 0 || s.get(to).is_some_and(|p| p.owner != piece.owner);
    let mut out = String::new();
    if name == "Pawn" {
        if captures {
            out.push(ff as char);
            out.push('x');
        }
    } else {
        out.push_str(letter(name));
        // Disambiguation: other moves of the same piece type to the same square.
        let rivals: Vec<Pos> = legal
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .filter_map(|(_, o)| {
                let f = origin(o)?;
                let t = dest(o)?;
                let p = s.get(f)?;
                (t == to && f != from && p.kind == piece.kind && p.owner == piece.owner)
                    .then_some(f)
            })
            .collect();
        if !rivals.is_empty() {
            let fs = square(game, from);
            let (file, rank) = (&fs[..1], &fs[1..]);
            let same_file = rivals.iter().any(|&r| square(game, r)[..1] == *file);
            let same_rank = rivals.iter().any(|&r| square(game, r)[1..] == *rank);
            if !same_file {
                out.push_str(file);
            } else if !same_rank {
                out.push_str(rank);
            } else {
                out.push_str(&fs);
            }
        }
        if captures {
            out.push('x');
        }
    }
    out.push_str(&square(game, to));
    // Promotion: the piece at the destination changes type.
    let promoted = m
        .parts
        .iter()
        .flat_map(|p| &p.actions)
        .find_map(|a| match a {
            Action::ChangeType { at, kind } if *at == to => Some(*kind),
            Action::Place { at, piece: p, .. } if *at == to && p.kind != piece.kind => Some(p.kind),
            _ => None,
        });
    if let Some(k) = promoted {
        out.push('=');
        out.push_str(letter(&game.pieces[k.idx()].name));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::{load_game, VariantSel};

    fn chess() -> Game {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf");
        load_game(&path, &VariantSel::First).unwrap()
    }

    /// The moves of a known game in dagaz's notation, from the legal moves, by (from, to) squares.
    fn play(game: &Game, squares: &[(&str, &str)]) -> Vec<String> {
        let engine = Engine::new(game);
        let mut s = engine.initial();
        let mut out = vec![];
        for (f, t) in squares {
            let legal = engine.legal_moves(&s).unwrap();
            let notes = Move::notations(game, &legal);
            let i = legal
                .iter()
                .position(|m| {
                    origin(m).map(|p| square(game, p)).as_deref() == Some(*f)
                        && dest(m).map(|p| square(game, p)).as_deref() == Some(*t)
                })
                .unwrap_or_else(|| panic!("{f}-{t} not legal"));
            out.push(notes[i].clone());
            s = engine.apply(&s, &legal[i]);
        }
        out
    }

    /// SGF's points: columns from the left, rows from the top, `a` first; the Go file skips the letter i.
    #[test]
    fn a_go_board_maps_to_sgf_points() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/go-9x9.zrf");
        let g = load_game(&path, &VariantSel::First).unwrap();
        let b = go_board(&g).unwrap();
        assert_eq!(b.size, 9);
        let at = |n: &str| b.coords[g.board.position(n).unwrap().idx()];
        assert_eq!(at("a1"), Some((0, 8)));
        assert_eq!(at("j9"), Some((8, 0)));
        assert_eq!(at("h2"), Some((7, 7)));
        assert!(go_board(&chess()).is_none());
    }

    #[test]
    fn standard_chess_is_recognised() {
        assert!(is_standard_chess(&chess()));
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/breakthrough.zrf");
        assert!(!is_standard_chess(
            &load_game(&path, &VariantSel::First).unwrap()
        ));
    }

    /// The scholar's mate in SAN, as any chess book writes it: pawn moves, piece letters, a capture and mate.
    #[test]
    fn a_short_game_reads_as_a_chess_book_writes_it() {
        let g = chess();
        let moves = play(
            &g,
            &[
                ("e2", "e4"),
                ("e7", "e5"),
                ("f1", "c4"),
                ("b8", "c6"),
                ("d1", "h5"),
                ("g8", "f6"),
                ("h5", "f7"),
            ],
        );
        assert_eq!(
            san_moves(&g, &moves).unwrap(),
            ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"]
        );
    }

    /// Disambiguation by file, a pawn capture, check and castling, as the notation rules write them.
    #[test]
    fn disambiguation_captures_check_and_castling() {
        let g = chess();
        let moves = play(
            &g,
            &[
                ("d2", "d4"),
                ("d7", "d5"),
                ("g1", "f3"),
                ("g8", "f6"),
                ("b1", "d2"),
                ("e7", "e6"),
                ("e2", "e4"),
                ("d5", "e4"),
                ("f1", "b5"),
                ("c7", "c6"),
                ("e1", "g1"),
            ],
        );
        assert_eq!(
            san_moves(&g, &moves).unwrap(),
            ["d4", "d5", "Nf3", "Nf6", "Nbd2", "e6", "e4", "dxe4", "Bb5+", "c6", "O-O"]
        );
    }

    /// A capture that promotes, to each piece, with check where the new piece gives it.
    #[test]
    fn promotions_name_the_new_piece() {
        let g = chess();
        let s = crate::engine::position::parse(
            &g,
            "turn White\npiece White Pawn b7\npiece White King e1\npiece Black King h8\npiece Black Rook a8\n",
        )
        .unwrap();
        let engine = Engine::new(&g);
        let legal = engine.legal_moves(&s).unwrap();
        let notes = Move::notations(&g, &legal);
        let mut got: Vec<String> = legal
            .iter()
            .zip(&notes)
            .filter(|(m, _)| {
                m.parts[0].from.map(|p| square(&g, p)).as_deref() == Some("b7")
                    && m.parts[0].to.map(|p| square(&g, p)).as_deref() == Some("a8")
            })
            .map(|(_, n)| {
                san_moves_from(&g, s.clone(), std::slice::from_ref(n)).unwrap()[0].clone()
            })
            .collect();
        got.sort();
        assert_eq!(got, ["bxa8=B", "bxa8=N", "bxa8=Q+", "bxa8=R+"]);
    }
}
