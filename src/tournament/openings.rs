//! Opening books (`--openings FILE`): positions and move lines the games of a run start from, read from EPD or
//! FEN lines, PGN, SGF or move lists in dagaz's notation, and checked against the rules of every variant
//! before the run starts. Each error names the file and the line.
//!
//! An opening is a start position (a FEN or a PGN's `[FEN]` tag; `None` for the game's own start) and moves
//! played from it, kept in dagaz's notation (the names `games.csv` records, which name one legal move each).
//! A start position is kept as the position text of [`crate::engine::position`] on one line (its lines
//! joined by `; `, [`encode_start`]), so that `games.csv` can record it and the writers replay from it.
//!
//! FEN into a state: pieces by their one-letter `(notation ...)` (the first player's in upper case, as FEN
//! writes them: [`crate::bot::protocol::notation::ChessNotation`]); the castling field sets the attribute
//! that king and rook both start with (`never-moved` in `games/chess.zrf`) on the king and the named rooks,
//! which must stand on their setup squares, and leaves it off every other king and rook; the en-passant
//! square becomes the last move (`last`), the double step of the pawn beside it, which `last-from?` and
//! `last-to?` read; the full-move number gives the ply. A castling right or en-passant square that cannot be
//! so mapped is an error. The half-move clock is read and not used: no game of ours has the fifty-move rule.

use crate::bot::protocol::notation::{ChessNotation, GoNotation};
use crate::compile::{AttrId, Game, PieceType, Player, Pos};
use crate::engine::playout::{below, game_rng};
use crate::engine::{position, Engine, Move, State};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The formats of an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum OpeningsFormat {
    /// One position a line: EPD (four fields, then operations) or FEN (six fields).
    Epd,
    /// Games in PGN: each game's main line (SAN moves), from its `[FEN]` tag if it has one.
    Pgn,
    /// Games in SGF (Go): each game tree's main line of `B[..]`/`W[..]` moves.
    Sgf,
    /// One line of moves in dagaz's notation a line, separated by `;` (as `games.csv`'s `moves` column).
    Moves,
    /// One shogi position a line: SFEN (board, side, hands, move number).
    Sfen,
}

impl OpeningsFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            OpeningsFormat::Epd => "epd",
            OpeningsFormat::Pgn => "pgn",
            OpeningsFormat::Sgf => "sgf",
            OpeningsFormat::Moves => "moves",
            OpeningsFormat::Sfen => "sfen",
        }
    }

    /// The format a file's extension names (`.epd`, `.fen`, `.pgn`, `.sgf`, `.txt`/`.moves`), if any.
    pub fn from_path(p: &Path) -> Option<OpeningsFormat> {
        let ext = p.extension()?.to_str()?.to_ascii_lowercase();
        ext.parse().ok()
    }
}

impl std::str::FromStr for OpeningsFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "epd" | "fen" => Ok(OpeningsFormat::Epd),
            "pgn" => Ok(OpeningsFormat::Pgn),
            "sgf" => Ok(OpeningsFormat::Sgf),
            "moves" | "txt" | "dagaz" => Ok(OpeningsFormat::Moves),
            "sfen" => Ok(OpeningsFormat::Sfen),
            _ => Err(format!(
                "unknown openings format `{s}`; formats are epd, fen, pgn, sgf, moves, sfen"
            )),
        }
    }
}

impl TryFrom<String> for OpeningsFormat {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        s.parse()
    }
}

impl From<OpeningsFormat> for String {
    fn from(f: OpeningsFormat) -> String {
        f.as_str().into()
    }
}

impl std::fmt::Display for OpeningsFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The order in which pairs take the openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpeningsOrder {
    /// The file's order: round r of every encounter plays opening r (modulo their number).
    #[default]
    Sequential,
    /// A shuffle of the file drawn from the run's seed, then in that order.
    Random,
}

impl OpeningsOrder {
    pub fn as_str(self) -> &'static str {
        match self {
            OpeningsOrder::Sequential => "sequential",
            OpeningsOrder::Random => "random",
        }
    }
}

impl std::str::FromStr for OpeningsOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sequential" => Ok(OpeningsOrder::Sequential),
            "random" => Ok(OpeningsOrder::Random),
            _ => Err(format!(
                "unknown openings order `{s}`; orders are sequential, random"
            )),
        }
    }
}

/// One opening, ready to play on one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The line of the file it starts on (1-based).
    pub line: usize,
    /// The start position as one line of position text ([`encode_start`]); `None`: the game's start.
    pub start: Option<String>,
    /// The moves from the start, in dagaz's notation (each names one legal move where it is played).
    pub moves: Vec<String>,
}

/// A run's openings: per variant, every opening of the file, and the order pairs take them in.
#[derive(Clone, Debug)]
pub struct Book {
    /// `per_variant[v][i]`: opening `i` of the file on variant `v`.
    pub per_variant: Vec<Vec<Opening>>,
    /// Indices into the openings, in the order rounds take them.
    pub order: Vec<u32>,
}

impl Book {
    /// The opening of round `round` (of every encounter) of variant `v`: the order's `round`-th, from the
    /// first again once all are used.
    pub fn for_round(&self, variant: usize, round: u64) -> Option<&Opening> {
        let n = self.order.len() as u64;
        if n == 0 {
            return None;
        }
        let i = self.order[(round % n) as usize] as usize;
        self.per_variant.get(variant)?.get(i)
    }
}

/// Mixed into the run seed for the random order of the openings.
const ORDER_SALT: u64 = 0x626f_6f6b_6f72_6472; // "bookordr"

/// The order of `n` openings.
pub fn order(n: usize, how: OpeningsOrder, seed: u64) -> Vec<u32> {
    let mut v: Vec<u32> = (0..n as u32).collect();
    if how == OpeningsOrder::Random {
        let mut rng = game_rng(seed ^ ORDER_SALT, 0);
        for i in (1..n).rev() {
            let j = below(&mut rng, i + 1);
            v.swap(i, j);
        }
    }
    v
}

/// A start position's text on one line (the position format's lines joined by `; `: no name of a ZRF file
/// holds `;`, which starts a comment there).
pub fn encode_start(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The state a one-line start position ([`encode_start`]) stands for.
pub fn decode_start(game: &Game, line: &str) -> Result<State, String> {
    position::parse(game, &line.replace(';', "\n"))
}

/// An opening as read from the file, before it is matched against a game's moves.
#[derive(Clone, Debug)]
struct Raw {
    line: usize,
    /// A FEN to start from.
    fen: Option<(String, usize)>,
    /// Moves as written, with their line.
    moves: Vec<(String, usize)>,
}

/// Reads the openings in `text` (the file `name`) and checks each against the rules of each game: every
/// start position maps onto the game and is not over, with the side not to move not in check; every move
/// names exactly one legal move where it is played, and no move of the line ends the game. `plies`, if
/// given, keeps that many moves of each line (the whole line is still checked).
pub fn load(
    name: &str,
    text: &str,
    format: OpeningsFormat,
    plies: Option<u32>,
    engines: &[&Engine],
) -> Result<Vec<Vec<Opening>>, String> {
    let raws = match format {
        OpeningsFormat::Epd | OpeningsFormat::Sfen => read_epd(text),
        OpeningsFormat::Pgn => read_pgn(name, text)?,
        OpeningsFormat::Sgf => read_sgf(name, text)?,
        OpeningsFormat::Moves => read_moves(text),
    };
    if raws.is_empty() {
        return Err(format!("{name}: no opening in the file"));
    }
    let mut out = vec![];
    for e in engines {
        let mut v = Vec::with_capacity(raws.len());
        for r in &raws {
            let mut o =
                check(e, format, r).map_err(|(line, msg)| format!("{name}:{line}: {msg}"))?;
            if let Some(p) = plies {
                o.moves.truncate(p as usize);
            }
            v.push(o);
        }
        out.push(v);
    }
    Ok(out)
}

/// One opening checked on one game: its start and its moves in dagaz's notation; else the line and what is
/// wrong.
fn check(e: &Engine, format: OpeningsFormat, r: &Raw) -> Result<Opening, (usize, String)> {
    let game = e.game;
    let title = &game.title;
    let (mut s, start) = match &r.fen {
        Some((fen, line)) => {
            let text = if format == OpeningsFormat::Sfen {
                sfen_to_position(game, fen)
            } else {
                fen_to_position(game, fen)
            }
            .map_err(|m| (*line, m))?;
            let s = position::parse(game, &text)
                .map_err(|m| (*line, format!("{m} (the position read from `{fen}`)")))?;
            check_position(e, &s).map_err(|m| (*line, format!("`{fen}`: {m}")))?;
            (s, Some(encode_start(&text)))
        }
        None => (e.initial(), None),
    };
    let chess = match format {
        OpeningsFormat::Pgn => Some(
            ChessNotation::of(game)
                .map_err(|m| (r.line, format!("PGN openings need FEN's notation: {m}")))?,
        ),
        _ => None,
    };
    let go = match format {
        OpeningsFormat::Sgf => Some(
            GoNotation::of(game)
                .map_err(|m| (r.line, format!("SGF openings need GTP's points: {m}")))?,
        ),
        _ => None,
    };
    let mut history: Vec<u64> = vec![];
    let mut names = vec![];
    for (k, (tok, line)) in r.moves.iter().enumerate() {
        let moves = e.legal_moves(&s).map_err(|x| (*line, x.to_string()))?;
        if let Some(o) = e
            .outcome(&s, &moves, &history)
            .map_err(|x| (*line, x.to_string()))?
        {
            return Err((
                *line,
                format!(
                    "the game is over before ply {} `{tok}` ({} {})",
                    k + 1,
                    o.end_type,
                    o.name
                ),
            ));
        }
        let found: Vec<usize> = match format {
            OpeningsFormat::Pgn => {
                san_matches(game, chess.as_ref().expect("set for PGN"), &s, &moves, tok)
                    .map_err(|m| (*line, m))?
            }
            OpeningsFormat::Sgf => {
                let n = go.as_ref().expect("set for SGF");
                (0..moves.len())
                    .filter(|&i| n.move_name(&moves[i]).as_deref() == Some(tok.as_str()))
                    .collect()
            }
            _ => {
                let all = Move::notations(game, &moves);
                (0..moves.len()).filter(|&i| all[i] == *tok).collect()
            }
        };
        let i = match found.as_slice() {
            [i] => *i,
            [] => {
                return Err((
                    *line,
                    format!(
                        "ply {} `{tok}` is not a legal move of `{title}` here ({} legal moves)",
                        k + 1,
                        moves.len()
                    ),
                ))
            }
            many => {
                return Err((
                    *line,
                    format!(
                        "move {} `{tok}` names {} legal moves of `{title}`",
                        k + 1,
                        many.len()
                    ),
                ))
            }
        };
        names.push(Move::notations(game, &moves).swap_remove(i));
        history.push(s.key());
        s = e.apply(&s, &moves[i]);
    }
    let moves = e.legal_moves(&s).map_err(|x| (r.line, x.to_string()))?;
    if let Some(o) = e
        .outcome(&s, &moves, &history)
        .map_err(|x| (r.line, x.to_string()))?
    {
        return Err((
            r.line,
            format!(
                "the game is over at the end of the opening ({} {})",
                o.end_type, o.name
            ),
        ));
    }
    if moves.is_empty() {
        return Err((r.line, "no legal move at the end of the opening".into()));
    }
    Ok(Opening {
        line: r.line,
        start,
        moves: names,
    })
}

/// A start position the game can go on from: not over, a legal move to play, and the player who has just
/// moved not left in check.
fn check_position(e: &Engine, s: &State) -> Result<(), String> {
    let moves = e.legal_moves(s).map_err(|x| x.to_string())?;
    if let Some(o) = e.outcome(s, &moves, &[]).map_err(|x| x.to_string())? {
        return Err(format!(
            "the game is already over there ({} {})",
            o.end_type, o.name
        ));
    }
    if moves.is_empty() {
        return Err("the player to move has no legal move".into());
    }
    // The other player to move in the same position: in check there means the last move left its king
    // attacked, which no legal game reaches.
    let n = e.game.turn_order.entries.len();
    let me = e.to_move(s);
    for k in 1..n {
        let t = (s.turn() + k) % n;
        let p = e.game.turn_order.entries[t].player;
        if p != me {
            let mut o = s.clone();
            o.set_turn(t);
            if e.in_check(&o).map_err(|x| x.to_string())? {
                return Err(format!(
                    "{} is in check with {} to move",
                    e.game.players[p.idx()].name,
                    e.game.players[me.idx()].name
                ));
            }
            break;
        }
    }
    Ok(())
}

/// One position a line; `#` starts a comment line; blank lines are skipped.
fn read_epd(text: &str) -> Vec<Raw> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Raw {
            line: i + 1,
            fen: Some((l.trim().to_string(), i + 1)),
            moves: vec![],
        })
        .collect()
}

/// One line of `;`-separated moves a line; `#` at the start of a line makes it a comment.
fn read_moves(text: &str) -> Vec<Raw> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Raw {
            line: i + 1,
            fen: None,
            moves: l
                .split(';')
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(|m| (m.to_string(), i + 1))
                .collect(),
        })
        .collect()
}

/// The games of a PGN file: tags (`[FEN "..."]` gives the start), then the main line of the movetext:
/// comments (`{...}`, `;` to the end of the line), variations (`(...)`), NAGs (`$1`), move numbers and the
/// result are skipped. A game ends at its result or at the next tag section.
fn read_pgn(name: &str, text: &str) -> Result<Vec<Raw>, String> {
    // Tokens with their lines: tag lines whole, movetext words.
    enum Tok {
        Tag(String, String),
        Word(String),
    }
    let mut toks: Vec<(Tok, usize)> = vec![];
    let mut comment: Option<usize> = None;
    let mut depth: Vec<usize> = vec![];
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if comment.is_none() && depth.is_empty() && t.starts_with('[') {
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            let (tag, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            toks.push((
                Tok::Tag(tag.to_string(), value.trim().trim_matches('"').to_string()),
                line,
            ));
            continue;
        }
        if comment.is_none() && t.starts_with('%') {
            continue; // an escape line
        }
        let mut word = String::new();
        let push = |w: &mut String, depth: &Vec<usize>, toks: &mut Vec<(Tok, usize)>| {
            if !w.is_empty() && depth.is_empty() {
                toks.push((Tok::Word(std::mem::take(w)), line));
            }
            w.clear();
        };
        for c in raw.chars() {
            if comment.is_some() {
                if c == '}' {
                    comment = None;
                }
                continue;
            }
            match c {
                '{' => {
                    push(&mut word, &depth, &mut toks);
                    comment = Some(line);
                }
                ';' => {
                    push(&mut word, &depth, &mut toks);
                    break;
                }
                '(' => {
                    push(&mut word, &depth, &mut toks);
                    depth.push(line);
                }
                ')' => {
                    push(&mut word, &depth, &mut toks);
                    if depth.pop().is_none() {
                        return Err(format!("{name}:{line}: `)` closes no variation"));
                    }
                }
                c if c.is_whitespace() => push(&mut word, &depth, &mut toks),
                c => word.push(c),
            }
        }
        push(&mut word, &depth, &mut toks);
    }
    if let Some(l) = comment {
        return Err(format!(
            "{name}:{l}: this `{{` comment is not closed by the end of the file"
        ));
    }
    if let Some(l) = depth.first() {
        return Err(format!(
            "{name}:{l}: this `(` variation is not closed by the end of the file"
        ));
    }
    let mut games: Vec<Raw> = vec![];
    let mut cur: Option<Raw> = None;
    let mut in_moves = false;
    for (t, line) in toks {
        match t {
            Tok::Tag(tag, value) => {
                if in_moves || cur.is_none() {
                    games.extend(cur.take());
                    cur = Some(Raw {
                        line,
                        fen: None,
                        moves: vec![],
                    });
                    in_moves = false;
                }
                if tag.eq_ignore_ascii_case("FEN") {
                    if let Some(g) = cur.as_mut() {
                        g.fen = Some((value, line));
                    }
                }
            }
            Tok::Word(w) => {
                if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
                    games.extend(cur.take());
                    in_moves = false;
                    continue;
                }
                if w.starts_with('$') || w == "e.p." {
                    continue;
                }
                // A move number (`12.`, `12...`), perhaps glued to the move (`12.e4`).
                let m = w.trim_start_matches(|c: char| c.is_ascii_digit());
                let m = if w.starts_with("0-0") || m.len() == w.len() {
                    w.as_str()
                } else if m.starts_with('.') {
                    m.trim_start_matches('.')
                } else {
                    ""
                };
                if m.is_empty() {
                    continue;
                }
                let g = cur.get_or_insert_with(|| Raw {
                    line,
                    fen: None,
                    moves: vec![],
                });
                g.moves.push((m.to_string(), line));
                in_moves = true;
            }
        }
    }
    games.extend(cur.take());
    Ok(games)
}

/// A legal move in UCI's words, split: from and to squares, their files and ranks, and the promotion letter.
type UciSplit = (Pos, Pos, usize, usize, usize, usize, Option<char>);

/// Which legal moves a SAN move names: the piece's letter (none for a pawn), the destination, the origin's
/// file or rank or both where given, the promotion (`=Q`, `Q`); `O-O` and `O-O-O` (or with zeros) are the
/// king's move two files or more towards the h or the a side. Check and annotation marks are ignored.
fn san_matches(
    game: &Game,
    n: &ChessNotation,
    s: &State,
    moves: &[Move],
    san: &str,
) -> Result<Vec<usize>, String> {
    let t = san.trim_end_matches(['+', '#', '!', '?']);
    let letter_of = |kind: PieceType| -> Option<char> {
        let l = game.pieces[kind.idx()]
            .notation
            .as_deref()?
            .trim()
            .chars()
            .next()?;
        Some(l.to_ascii_uppercase())
    };
    // Every legal move in UCI's words, split: from, to, promotion.
    let split = |i: usize| -> Option<UciSplit> {
        let u = n.move_name(s, &moves[i])?;
        let (fs, rest) = square_prefix(&u)?;
        let (ts, promo) = square_prefix(rest)?;
        let (ff, fr) = fs;
        let (tf, tr) = ts;
        if ff >= n.grid.files || tf >= n.grid.files || fr >= n.grid.ranks || tr >= n.grid.ranks {
            return None;
        }
        let promo = promo.chars().next().map(|c| c.to_ascii_uppercase());
        Some((n.grid.at(ff, fr), n.grid.at(tf, tr), ff, fr, tf, tr, promo))
    };
    let castle = match t {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(short) = castle {
        return Ok((0..moves.len())
            .filter(|&i| {
                split(i).is_some_and(|(from, _, ff, _, tf, _, _)| {
                    s.get(from).and_then(|p| letter_of(p.kind)) == Some('K')
                        && if short { tf >= ff + 2 } else { tf + 2 <= ff }
                })
            })
            .collect());
    }
    // [piece][from file][from rank][x]to[=promotion]
    let b = t.as_bytes();
    let mut k = 0;
    let piece = if !b.is_empty() && b[0].is_ascii_uppercase() {
        k = 1;
        b[0] as char
    } else {
        'P'
    };
    let body = &t[k..];
    // The promotion: a trailing letter, perhaps after `=`.
    let (body, promo) = match body.char_indices().last() {
        Some((j, c)) if c.is_ascii_alphabetic() && c.is_ascii_uppercase() => {
            (body[..j].trim_end_matches('='), Some(c))
        }
        _ => (body, None),
    };
    let body = body.replace(['x', ':', '-'], "");
    // The destination is the last square of the body; what is before it disambiguates.
    let dest_at = body
        .char_indices()
        .filter(|(_, c)| c.is_ascii_lowercase())
        .map(|(j, _)| j)
        .next_back()
        .ok_or_else(|| format!("`{san}` is not a move in SAN"))?;
    let (pre, dest) = body.split_at(dest_at);
    let ((df, dr), rest) =
        square_prefix(dest).ok_or_else(|| format!("`{san}` is not a move in SAN"))?;
    if !rest.is_empty() {
        return Err(format!("`{san}` is not a move in SAN"));
    }
    let pre_file = pre
        .chars()
        .find(|c| c.is_ascii_lowercase())
        .map(|c| (c as u8 - b'a') as usize);
    let pre_rank = pre
        .trim_start_matches(|c: char| c.is_ascii_lowercase())
        .parse::<usize>()
        .ok()
        .map(|r| r.saturating_sub(1));
    if !pre.is_empty() && pre_file.is_none() && pre_rank.is_none() {
        return Err(format!("`{san}` is not a move in SAN"));
    }
    Ok((0..moves.len())
        .filter(|&i| {
            let Some((from, _, ff, fr, tf, tr, pr)) = split(i) else {
                return false;
            };
            s.get(from).and_then(|p| letter_of(p.kind)) == Some(piece)
                && (tf, tr) == (df, dr)
                && pre_file.is_none_or(|f| f == ff)
                && pre_rank.is_none_or(|r| r == fr)
                && pr == promo
        })
        .collect())
}

/// A square at the start of `s` (`e4`, `a10`): its file and rank from 0, and the rest of `s`.
fn square_prefix(s: &str) -> Option<((usize, usize), &str)> {
    let mut it = s.char_indices();
    let (_, f) = it.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let digits_end = s[1..]
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map(|(j, _)| j + 1)
        .unwrap_or(s.len());
    if digits_end == 1 {
        return None;
    }
    let r: usize = s[1..digits_end].parse().ok()?;
    if r == 0 {
        return None;
    }
    Some((((f as u8 - b'a') as usize, r - 1), &s[digits_end..]))
}

/// The game trees of an SGF file, each an opening: the main line's `B[..]` and `W[..]` moves as GTP vertices
/// (`B[]`, and `B[tt]` on boards up to 19x19, are passes). Setup stones (`AB`, `AW`, `AE`) are refused: a
/// Go opening here is a line of moves from the empty board.
fn read_sgf(name: &str, text: &str) -> Result<Vec<Raw>, String> {
    let b: Vec<char> = text.chars().collect();
    let mut line = 1usize;
    let mut i = 0usize;
    let mut out: Vec<Raw> = vec![];
    // Depth in game-tree parentheses; within a tree, whether we are still on its main line (the first
    // variation at each branch).
    let mut depth = 0usize;
    // Depth at which the current main line continues; variations opened past the first are skipped.
    let mut skip_below: Option<usize> = None;
    let mut seen_child: Vec<bool> = vec![];
    let mut size: Option<usize> = None;
    let mut prop = String::new();
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
        }
        match c {
            '(' => {
                depth += 1;
                if depth == 1 {
                    out.push(Raw {
                        line,
                        fen: None,
                        moves: vec![],
                    });
                    seen_child = vec![false; 2];
                    skip_below = None;
                    size = None;
                } else {
                    if seen_child.len() <= depth {
                        seen_child.resize(depth + 1, false);
                    }
                    // The first child tree of a node continues the main line; later ones are variations.
                    if skip_below.is_none() && seen_child[depth - 1] {
                        skip_below = Some(depth);
                    }
                    seen_child[depth - 1] = true;
                    seen_child[depth] = false;
                }
                prop.clear();
                i += 1;
            }
            ')' => {
                if depth == 0 {
                    return Err(format!("{name}:{line}: `)` closes no game tree"));
                }
                if skip_below == Some(depth) {
                    skip_below = None;
                }
                depth -= 1;
                prop.clear();
                i += 1;
            }
            ';' => {
                prop.clear();
                i += 1;
            }
            '[' => {
                // A value, up to the next `]` not escaped by `\`.
                let start_line = line;
                let mut v = String::new();
                i += 1;
                while i < b.len() && b[i] != ']' {
                    if b[i] == '\\' && i + 1 < b.len() {
                        i += 1;
                    }
                    if b[i] == '\n' {
                        line += 1;
                    }
                    v.push(b[i]);
                    i += 1;
                }
                if i >= b.len() {
                    return Err(format!("{name}:{start_line}: a value `[` is not closed"));
                }
                i += 1;
                if depth == 0 {
                    return Err(format!(
                        "{name}:{start_line}: a property outside a game tree"
                    ));
                }
                if skip_below.is_some() {
                    continue;
                }
                match prop.as_str() {
                    "SZ" => {
                        let n: usize =
                            v.trim()
                                .split(':')
                                .next()
                                .unwrap_or("")
                                .parse()
                                .map_err(|_| {
                                    format!("{name}:{start_line}: SZ[{v}] is not a board size")
                                })?;
                        size = Some(n);
                    }
                    "AB" | "AW" | "AE" => {
                        return Err(format!(
                            "{name}:{start_line}: setup stones ({prop}[{v}]) are not read: an SGF opening is a line of moves"
                        ));
                    }
                    "B" | "W" => {
                        let n = size.unwrap_or(19);
                        let v = v.trim();
                        let vertex = if v.is_empty() || (v == "tt" && n <= 19) {
                            "pass".to_string()
                        } else {
                            let cs: Vec<char> = v.chars().collect();
                            if cs.len() != 2 || !cs.iter().all(|c| c.is_ascii_lowercase()) {
                                return Err(format!(
                                    "{name}:{start_line}: {prop}[{v}] is not a point"
                                ));
                            }
                            let (col, row) =
                                ((cs[0] as u8 - b'a') as usize, (cs[1] as u8 - b'a') as usize);
                            if col >= n || row >= n {
                                return Err(format!(
                                    "{name}:{start_line}: {prop}[{v}] is off the {n}x{n} board"
                                ));
                            }
                            const COLS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";
                            format!("{}{}", COLS[col] as char, n - row)
                        };
                        if let Some(g) = out.last_mut() {
                            g.moves.push((vertex, start_line));
                        }
                    }
                    _ => {}
                }
            }
            c if c.is_ascii_uppercase() => {
                // A property name (a new one after a value, or the same continued).
                if i > 0 && !b[i - 1].is_ascii_uppercase() {
                    prop.clear();
                }
                prop.push(c);
                i += 1;
            }
            _ => i += 1,
        }
    }
    if depth > 0 {
        return Err(format!(
            "{name}: a game tree `(` is not closed by the end of the file"
        ));
    }
    Ok(out)
}

/// The letter of each piece type (upper case), from its one-letter `(notation ...)`.
fn letters(game: &Game) -> Result<Vec<char>, String> {
    game.pieces
        .iter()
        .map(|p| match p.notation.as_deref().map(str::trim) {
            Some(n) if n.len() == 1 && n.chars().all(|c| c.is_ascii_alphabetic()) => {
                Ok(n.chars().next().unwrap_or('?').to_ascii_uppercase())
            }
            _ => Err(format!(
                "piece `{}` has no one-letter `(notation ...)` to read it from FEN",
                p.name
            )),
        })
        .collect()
}

/// The attribute king and rook both start with (the castling right), if the game has one.
fn unmoved_attr(game: &Game, king: Option<PieceType>, rook: Option<PieceType>) -> Option<AttrId> {
    let (k, r) = (king?, rook?);
    let ka = &game.pieces[k.idx()].attributes;
    game.pieces[r.idx()]
        .attributes
        .iter()
        .find(|(a, v)| *v && ka.contains(&(*a, true)))
        .map(|(a, _)| *a)
}

/// The position text ([`crate::engine::position`]) of a FEN or EPD line on `game`; an error names what
/// cannot be mapped.
pub fn fen_to_position(game: &Game, fen: &str) -> Result<String, String> {
    let n = ChessNotation::of(game)?;
    let grid = &n.grid;
    let letters = letters(game)?;
    let kind_of = |c: char| -> Option<PieceType> {
        letters
            .iter()
            .position(|&l| l == c.to_ascii_uppercase())
            .map(|i| PieceType(i as u16))
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "`{fen}` is not a FEN or EPD position: it needs at least the board, side to move, castling and en-passant fields"
        ));
    }
    let (board, side, castling, ep) = (fields[0], fields[1], fields[2], fields[3]);
    // Six fields: FEN's clocks; more, or other words: EPD operations (ignored).
    let fullmove = match fields.get(4..6) {
        Some([h, f]) if h.parse::<u32>().is_ok() && f.parse::<u32>().is_ok() => {
            f.parse::<u32>().ok()
        }
        _ => None,
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != grid.ranks {
        return Err(format!(
            "the board field has {} ranks; `{}` has {}",
            rows.len(),
            game.title,
            grid.ranks
        ));
    }
    let mut cells: Vec<(Player, PieceType, Pos)> = vec![];
    for (ri, row) in rows.iter().enumerate() {
        let rank = grid.ranks - 1 - ri;
        let mut file = 0usize;
        let mut num = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                num = num * 10 + (c as u8 - b'0') as usize;
                if chars.peek().is_some_and(|d| d.is_ascii_digit()) {
                    continue;
                }
                file += num;
                num = 0;
                continue;
            }
            let kind = kind_of(c).ok_or_else(|| {
                format!(
                    "`{c}` on rank {} names no piece of `{}`",
                    rank + 1,
                    game.title
                )
            })?;
            if file >= grid.files {
                break;
            }
            let owner = if c.is_ascii_uppercase() {
                Player(0)
            } else {
                Player(1)
            };
            cells.push((owner, kind, grid.at(file, rank)));
            file += 1;
        }
        if file != grid.files {
            return Err(format!(
                "rank {} of the board field covers {file} files; the board has {}",
                rank + 1,
                grid.files
            ));
        }
    }
    let to_move = match side {
        "w" => Player(0),
        "b" => Player(1),
        _ => {
            return Err(format!(
                "the side to move is `{side}`; FEN's are `w` and `b`"
            ))
        }
    };
    let king = kind_of('K');
    let rook = kind_of('R');
    let pawn = kind_of('P');
    let unmoved = unmoved_attr(game, king, rook);
    // Castling: the kings and rooks that keep the right.
    let mut keep: Vec<Pos> = vec![];
    if castling != "-" {
        let Some(a) = unmoved else {
            return Err(format!(
                "castling rights `{castling}`, but `{}` has no attribute that king and rook both start with to keep them",
                game.title
            ));
        };
        let _ = a;
        let (k, r) = (
            king.expect("unmoved needs a king"),
            rook.expect("and a rook"),
        );
        for c in castling.chars() {
            let player = if c.is_ascii_uppercase() {
                Player(0)
            } else {
                Player(1)
            };
            let name = &game.players[player.idx()].name;
            let home = |kind: PieceType| -> Vec<Pos> {
                game.setup
                    .pieces
                    .iter()
                    .filter(|(o, t, _)| *o == player && *t == kind)
                    .map(|(_, _, p)| *p)
                    .filter(|p| cells.contains(&(player, kind, *p)))
                    .collect()
            };
            let Some(kp) = home(k).first().copied() else {
                return Err(format!(
                    "castling right `{c}`: {name}'s king is not on its setup square"
                ));
            };
            let kf = grid.coord(kp).map_or(0, |c| c.0);
            let rooks: Vec<(Pos, usize)> = home(r)
                .into_iter()
                .filter_map(|p| grid.coord(p).map(|c| (p, c.0)))
                .collect();
            let pick = match c.to_ascii_uppercase() {
                'K' => rooks
                    .iter()
                    .filter(|(_, f)| *f > kf)
                    .max_by_key(|(_, f)| *f),
                'Q' => rooks
                    .iter()
                    .filter(|(_, f)| *f < kf)
                    .min_by_key(|(_, f)| *f),
                f @ 'A'..='Z' => {
                    let file = (f as u8 - b'A') as usize;
                    rooks.iter().find(|(_, rf)| *rf == file)
                }
                _ => {
                    return Err(format!(
                        "castling field `{castling}`: `{c}` is not a castling right"
                    ))
                }
            };
            let Some((rp, _)) = pick else {
                return Err(format!(
                    "castling right `{c}`: no rook of {name} on its setup square on that side"
                ));
            };
            keep.push(kp);
            keep.push(*rp);
        }
    }
    // En passant: the pawn that has just moved two squares past it.
    let mut last: Option<(Pos, Pos)> = None;
    if ep != "-" {
        let ((f, r), rest) = square_prefix(ep)
            .filter(|(_, rest)| rest.is_empty())
            .ok_or_else(|| format!("the en-passant field `{ep}` is not a square"))?;
        let _ = rest;
        let Some(p) = pawn else {
            return Err(format!(
                "an en-passant square `{ep}`, but `{}` has no pawn (`P`)",
                game.title
            ));
        };
        // The mover's opponent advanced: up for the first player, down for the second.
        let (from_r, to_r) = if to_move == Player(1) {
            (r.checked_sub(1), r.checked_add(1))
        } else {
            (r.checked_add(1), r.checked_sub(1))
        };
        let ok = f < grid.files
            && r < grid.ranks
            && from_r.is_some_and(|x| x < grid.ranks)
            && to_r.is_some_and(|x| x < grid.ranks);
        if !ok {
            return Err(format!(
                "the en-passant square `{ep}` has no square on both sides"
            ));
        }
        let (from, mid, to) = (
            grid.at(f, from_r.unwrap_or(0)),
            grid.at(f, r),
            grid.at(f, to_r.unwrap_or(0)),
        );
        let opp = Player(1 - to_move.0);
        let pawn_there = cells.contains(&(opp, p, to));
        let empty = |q: Pos| !cells.iter().any(|(_, _, c)| *c == q);
        if !pawn_there || !empty(mid) || !empty(from) {
            return Err(format!(
                "the en-passant square `{ep}` is not behind a pawn that has just advanced two squares"
            ));
        }
        last = Some((from, to));
    }
    let mut out = String::new();
    let entry = game
        .turn_order
        .entries
        .iter()
        .position(|e| e.player == to_move)
        .ok_or_else(|| {
            format!(
                "{} has no turn in the turn order",
                game.players[to_move.idx()].name
            )
        })?;
    out += &format!("turn {entry}\n");
    let ply = fullmove.map_or(to_move.0 as u32, |f| {
        f.saturating_sub(1) * 2 + to_move.0 as u32
    });
    out += &format!("ply {ply}\n");
    if let Some((f, t)) = last {
        out += &format!(
            "last {} {}\n",
            game.board.pos_name(f),
            game.board.pos_name(t)
        );
    }
    for (owner, kind, at) in &cells {
        out += &format!(
            "piece {} {} {}",
            game.players[owner.idx()].name,
            game.pieces[kind.idx()].name,
            game.board.pos_name(*at)
        );
        // Attributes: the piece's defaults, but for the castling right, which the castling field decides.
        for (a, v) in &game.pieces[kind.idx()].attributes {
            let on = if Some(*a) == unmoved {
                keep.contains(at)
            } else {
                *v
            };
            if on && !game.int_attributes.contains(a) {
                out += " ";
                out += &game.attributes[a.idx()];
            }
        }
        out += "\n";
    }
    Ok(out)
}

/// Reads an openings file (at most 64 MB) in `format` (else the one its extension names).
pub fn read_file(
    path: &Path,
    format: Option<OpeningsFormat>,
) -> Result<(String, OpeningsFormat), String> {
    let format = match format.or_else(|| OpeningsFormat::from_path(path)) {
        Some(f) => f,
        None => {
            return Err(format!(
                "{}: give --openings-format (epd, fen, pgn, sgf, moves, sfen): the file's extension names none",
                path.display()
            ))
        }
    };
    let bytes = crate::lang::read_capped(path, 64 << 20)
        .map_err(|e| format!("cannot read openings `{}`: {e}", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|e| format!("{}: not UTF-8 text ({e})", path.display()))?;
    Ok((text, format))
}

/// The position text of an SFEN line on `game` (a shogi-like game: see
/// [`crate::bot::protocol::notation::ShogiNotation`]): the board from the top rank and the leftmost file (file
/// 9), `+` before a promoted piece's letter, the first player's (sente's, `b`) pieces in upper case; the hands
/// as the players' reserves; the move number gives the ply.
pub fn sfen_to_position(game: &Game, sfen: &str) -> Result<String, String> {
    let n = crate::bot::protocol::notation::ShogiNotation::of(game)?;
    let grid = &n.grid;
    let names: Vec<String> = game
        .pieces
        .iter()
        .map(|p| {
            p.notation
                .as_deref()
                .unwrap_or("")
                .trim()
                .to_ascii_uppercase()
        })
        .collect();
    let kind_of = |name: &str| -> Option<PieceType> {
        names
            .iter()
            .position(|x| x == name)
            .map(|i| PieceType(i as u16))
    };
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    if fields.len() < 3 {
        return Err(format!(
            "`{sfen}` is not an SFEN position: it needs the board, side to move and hands fields"
        ));
    }
    let (board, side, hands) = (fields[0], fields[1], fields[2]);
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != grid.ranks {
        return Err(format!(
            "the board field has {} ranks; `{}` has {}",
            rows.len(),
            game.title,
            grid.ranks
        ));
    }
    let to_move = match side {
        "b" => Player(0),
        "w" => Player(1),
        _ => {
            return Err(format!(
                "the side to move is `{side}`; SFEN's are `b` and `w`"
            ))
        }
    };
    let entry = game
        .turn_order
        .entries
        .iter()
        .position(|e| e.player == to_move)
        .ok_or_else(|| {
            format!(
                "{} has no turn in the turn order",
                game.players[to_move.idx()].name
            )
        })?;
    let mut out = format!("turn {entry}\n");
    let ply = match fields.get(3) {
        Some(m) => m
            .parse::<u32>()
            .map_err(|_| format!("the move number `{m}` is not a number"))?
            .saturating_sub(1),
        None => to_move.0 as u32,
    };
    out += &format!("ply {ply}\n");
    for (ri, row) in rows.iter().enumerate() {
        let rank = grid.ranks - 1 - ri;
        let rank_name = (b'a' + ri as u8) as char;
        let mut file = 0usize;
        let mut chars = row.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
                continue;
            }
            let (name, letter) = if c == '+' {
                let l = chars
                    .next()
                    .ok_or_else(|| format!("a `+` ends rank {rank_name}"))?;
                (format!("+{}", l.to_ascii_uppercase()), l)
            } else {
                (c.to_ascii_uppercase().to_string(), c)
            };
            let kind = kind_of(&name)
                .ok_or_else(|| format!("`{name}` names no piece of `{}`", game.title))?;
            if file >= grid.files {
                file += 1;
                break;
            }
            let owner = if letter.is_ascii_uppercase() {
                Player(0)
            } else {
                Player(1)
            };
            out += &format!(
                "piece {} {} {}",
                game.players[owner.idx()].name,
                game.pieces[kind.idx()].name,
                game.board.pos_name(grid.at(file, rank))
            );
            for (a, v) in &game.pieces[kind.idx()].attributes {
                if *v && !game.int_attributes.contains(a) {
                    out += " ";
                    out += &game.attributes[a.idx()];
                }
            }
            out += "\n";
            file += 1;
        }
        if file != grid.files {
            return Err(format!(
                "rank {rank_name} of the board field covers {file} files; the board has {}",
                grid.files
            ));
        }
    }
    if hands != "-" {
        let mut count = 0u32;
        for c in hands.chars() {
            if let Some(d) = c.to_digit(10) {
                count = count * 10 + d;
                continue;
            }
            let kind = kind_of(&c.to_ascii_uppercase().to_string())
                .ok_or_else(|| format!("`{c}` in the hands names no piece of `{}`", game.title))?;
            let owner = if c.is_ascii_uppercase() {
                Player(0)
            } else {
                Player(1)
            };
            out += &format!(
                "reserve {} {} {}\n",
                game.players[owner.idx()].name,
                game.pieces[kind.idx()].name,
                count.max(1)
            );
            count = 0;
        }
    }
    Ok(out)
}
