//! Positions and moves in engines' notations, derived from the game: the squares of a rectangular board
//! ([`Grid`]), FEN and UCI's long algebraic moves for chess-like games ([`ChessNotation`]), GTP's vertices for
//! Go ([`GoNotation`]). A game that has no such notation gets an error naming what is missing.

use crate::compile::{AttrId, Game, PieceType, Player, Pos};
use crate::engine::{Action, Move, State};

/// The playing area as a rectangle: each position named by file letters and a rank number (`e4`, `j9`, `a10`),
/// every file with every rank. Files are ordered as their names sort (`a` < `b` < ... < `z` < `aa`), ranks by
/// number; file 0 and rank 0 are the lowest, so a file's letter in the engine's notation is its place in that
/// order, whatever letters the game skips (Go boards skip `i`).
#[derive(Clone, Debug)]
pub struct Grid {
    pub files: usize,
    pub ranks: usize,
    /// Per position: its (file, rank), `None` off the board.
    coord: Vec<Option<(u16, u16)>>,
    /// `at[rank * files + file]`.
    at: Vec<Pos>,
}

fn split_name(name: &str) -> Option<(&str, u32)> {
    let i = name.find(|c: char| c.is_ascii_digit())?;
    let (f, r) = name.split_at(i);
    if f.is_empty() || !f.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    if !r.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((f, r.parse().ok()?))
}

impl Grid {
    /// The rectangle of the game's board, or what keeps it from being one.
    pub fn of(game: &Game) -> Result<Grid, String> {
        let mut files: Vec<String> = vec![];
        let mut ranks: Vec<u32> = vec![];
        let mut named = vec![];
        for (i, p) in game.board.positions.iter().enumerate() {
            if p.dummy {
                continue;
            }
            let Some((f, r)) = split_name(&p.name) else {
                return Err(format!(
                    "position `{}` is not named by file letters and a rank number (like `e4`)",
                    p.name
                ));
            };
            let f = f.to_ascii_lowercase();
            if !files.contains(&f) {
                files.push(f.clone());
            }
            if !ranks.contains(&r) {
                ranks.push(r);
            }
            named.push((i, f, r));
        }
        if named.is_empty() {
            return Err("the board has no positions".into());
        }
        files.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
        ranks.sort_unstable();
        let (nf, nr) = (files.len(), ranks.len());
        if named.len() != nf * nr {
            return Err(format!(
                "the board is not a rectangle: {} positions on {nf} files and {nr} ranks",
                named.len()
            ));
        }
        let mut coord = vec![None; game.board.positions.len()];
        let mut at = vec![Pos(u16::MAX); nf * nr];
        for (i, f, r) in named {
            let fi = files.iter().position(|x| *x == f).unwrap_or(0);
            let ri = ranks.iter().position(|x| *x == r).unwrap_or(0);
            if at[ri * nf + fi] != Pos(u16::MAX) {
                return Err(format!(
                    "two positions name the square `{f}{r}` (names differ only in case)"
                ));
            }
            at[ri * nf + fi] = Pos(i as u16);
            coord[i] = Some((fi as u16, ri as u16));
        }
        Ok(Grid {
            files: nf,
            ranks: nr,
            coord,
            at,
        })
    }

    /// The (file, rank) of a position on the board.
    pub fn coord(&self, p: Pos) -> Option<(usize, usize)> {
        self.coord
            .get(p.idx())
            .copied()
            .flatten()
            .map(|(f, r)| (f as usize, r as usize))
    }

    pub fn at(&self, file: usize, rank: usize) -> Pos {
        self.at[rank * self.files + file]
    }
}

/// The FEN of chess's start position.
pub const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// FEN and UCI moves for a game of two players on a rectangular board whose pieces have one-letter notations:
/// the first player's pieces in upper case (White, moving first in FEN's `w`), the second's in lower case.
#[derive(Clone, Debug)]
pub struct ChessNotation {
    pub grid: Grid,
    /// Per piece type, its letter in upper case.
    letters: Vec<char>,
    /// The attribute that king and rook both start with (`never-moved`): where the game has one, FEN's
    /// castling field lists the rooks that still have it, beside a king that still has it, both on their
    /// setup squares.
    unmoved: Option<AttrId>,
    king: Option<PieceType>,
    rook: Option<PieceType>,
    pawn: Option<PieceType>,
}

impl ChessNotation {
    pub fn of(game: &Game) -> Result<ChessNotation, String> {
        let what = |e: String| format!("`{}` has no FEN/UCI notation: {e}", game.title);
        if game.players.len() != 2 || game.players.iter().any(|p| p.random) {
            return Err(what(format!(
                "FEN is for two players without dice; the game has {}",
                game.players
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let grid = Grid::of(game).map_err(what)?;
        if grid.files > 26 {
            return Err(what(format!(
                "{} files; UCI names files a to z",
                grid.files
            )));
        }
        let mut letters: Vec<char> = vec![];
        for p in &game.pieces {
            let l = match p.notation.as_deref().map(|n| n.trim()) {
                Some(n) if n.len() == 1 && n.chars().all(|c| c.is_ascii_alphabetic()) => {
                    n.chars().next().unwrap_or('?').to_ascii_uppercase()
                }
                _ => {
                    return Err(what(format!(
                        "piece `{}` has no one-letter `(notation ...)` to write it in FEN",
                        p.name
                    )))
                }
            };
            if let Some(q) = letters.iter().position(|&x| x == l) {
                return Err(what(format!(
                    "pieces `{}` and `{}` share the letter `{l}`",
                    game.pieces[q].name, p.name
                )));
            }
            if !p.drops.is_empty() {
                return Err(what(format!(
                    "piece `{}` is dropped; FEN here has no hands",
                    p.name
                )));
            }
            letters.push(l);
        }
        let find = |c: char| {
            letters
                .iter()
                .position(|&l| l == c)
                .map(|i| PieceType(i as u16))
        };
        let (king, rook, pawn) = (find('K'), find('R'), find('P'));
        let unmoved = match (king, rook) {
            (Some(k), Some(r)) => {
                let ka = &game.pieces[k.idx()].attributes;
                game.pieces[r.idx()]
                    .attributes
                    .iter()
                    .find(|(a, v)| *v && ka.contains(&(*a, true)))
                    .map(|(a, _)| *a)
            }
            _ => None,
        };
        Ok(ChessNotation {
            grid,
            letters,
            unmoved,
            king,
            rook,
            pawn,
        })
    }

    /// A square's name: file letter and rank number from 1 (`e4`, `a10`).
    pub fn square(&self, p: Pos) -> Option<String> {
        let (f, r) = self.grid.coord(p)?;
        Some(format!("{}{}", (b'a' + f as u8) as char, r + 1))
    }

    fn letter(&self, kind: PieceType, owner: Player) -> char {
        let l = self.letters[kind.idx()];
        if owner.0 == 0 {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// The FEN of a state. `moves` are its legal moves (the en-passant field names a square only when a pawn
    /// can take there); `to_move` its player to move.
    pub fn fen(&self, game: &Game, s: &State, to_move: Player, moves: &[Move]) -> String {
        let g = &self.grid;
        let mut rows = vec![];
        for r in (0..g.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..g.files {
                match s.get(g.at(f, r)) {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(self.letter(p.kind, p.owner));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let side = if to_move.0 == 0 { "w" } else { "b" };
        let castling = self.castling(game, s);
        let ep = self.en_passant(s, to_move, moves);
        format!(
            "{} {side} {castling} {ep} 0 {}",
            rows.join("/"),
            s.ply() / 2 + 1
        )
    }

    fn castling(&self, game: &Game, s: &State) -> String {
        let (Some(a), Some(k), Some(rk)) = (self.unmoved, self.king, self.rook) else {
            return "-".into();
        };
        let mut out = String::new();
        for player in [Player(0), Player(1)] {
            let home = |kind: PieceType| {
                game.setup
                    .pieces
                    .iter()
                    .filter(move |(o, t, _)| *o == player && *t == kind)
                    .map(|(_, _, p)| *p)
                    .filter(move |&p| {
                        s.get(p)
                            .is_some_and(|x| x.kind == kind && x.owner == player && x.attr(a))
                    })
            };
            let Some(kp) = home(k).next() else { continue };
            let Some((kf, _)) = self.grid.coord(kp) else {
                continue;
            };
            let mut rooks: Vec<usize> = home(rk)
                .filter_map(|p| self.grid.coord(p).map(|c| c.0))
                .collect();
            rooks.sort_unstable();
            let mut side = String::new();
            if rooks.iter().any(|&f| f > kf) {
                side.push('K');
            }
            if rooks.iter().any(|&f| f < kf) {
                side.push('Q');
            }
            if player.0 == 1 {
                side = side.to_ascii_lowercase();
            }
            out.push_str(&side);
        }
        if out.is_empty() {
            "-".into()
        } else {
            out
        }
    }

    fn en_passant(&self, s: &State, to_move: Player, moves: &[Move]) -> String {
        let (Some(pawn), Some(from), Some(to)) = (self.pawn, s.last_from(), s.last_to()) else {
            return "-".into();
        };
        let (Some((ff, fr)), Some((tf, tr))) = (self.grid.coord(from), self.grid.coord(to)) else {
            return "-".into();
        };
        let moved = s.get(to);
        if ff != tf
            || fr.abs_diff(tr) != 2
            || !moved.is_some_and(|p| p.kind == pawn && p.owner != to_move)
        {
            return "-".into();
        }
        let mid = self.grid.at(ff, (fr + tr) / 2);
        let taken = moves.iter().any(|m| {
            m.parts.first().is_some_and(|p| p.piece == pawn)
                && m.parts.last().and_then(|p| p.to) == Some(mid)
                && m.parts.iter().any(|p| {
                    p.actions
                        .iter()
                        .any(|a| matches!(a, Action::Capture { at } if *at == to))
                })
        });
        match (taken, self.square(mid)) {
            (true, Some(sq)) => sq,
            _ => "-".into(),
        }
    }

    /// A move in UCI's long algebraic notation: from and to squares, and the promoted piece's letter
    /// (`e2e4`, `e7e8q`). A move that moves the king (`K`) and another piece (castling, whose rook a game
    /// may write as the main movement and the king's as a cascade) is the king's movement, `e1g1`. `None`
    /// for moves it cannot name (a pass). `s` is the position the move is made in.
    pub fn move_name(&self, s: &State, m: &Move) -> Option<String> {
        let first = m.parts.first()?;
        let king_step = self.king.and_then(|k| {
            m.parts
                .iter()
                .flat_map(|p| &p.actions)
                .find_map(|a| match *a {
                    Action::Move { from, to } if s.get(from).is_some_and(|x| x.kind == k) => {
                        Some((from, to))
                    }
                    _ => None,
                })
        });
        let (from, to) = match king_step {
            Some(ft) => ft,
            None => (first.from?, m.parts.last()?.to?),
        };
        let mut s = self.square(from)?;
        s.push_str(&self.square(to)?);
        let promoted = promoted(m, to);
        if let Some(k) = promoted.filter(|&k| k != first.piece) {
            s.push(self.letters[k.idx()].to_ascii_lowercase());
        }
        Some(s)
    }
}

/// The SFEN of shogi's start position.
pub const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// SFEN and USI moves for a shogi-like game: two players on a board of at most 9 files whose pieces have
/// notations of one letter or `+` and a letter (a promoted piece). The first player (Black, sente, `b`) in upper
/// case, at the bottom; files are numbered from the right (9 to 1), ranks lettered from the top (`7g`); hands
/// come from the players' reserves; a drop is `P*5e`, a promotion ends in `+`.
#[derive(Clone, Debug)]
pub struct ShogiNotation {
    pub grid: Grid,
    /// Per piece type, its notation in upper case (`P`, `+P`).
    names: Vec<String>,
}

impl ShogiNotation {
    pub fn of(game: &Game) -> Result<ShogiNotation, String> {
        let what = |e: String| format!("`{}` has no SFEN/USI notation: {e}", game.title);
        if game.players.len() != 2 || game.players.iter().any(|p| p.random) {
            return Err(what("SFEN is for two players without dice".into()));
        }
        let grid = Grid::of(game).map_err(what)?;
        if grid.files > 9 || grid.ranks > 26 {
            return Err(what(format!(
                "the board is {}x{}; USI numbers at most 9 files",
                grid.files, grid.ranks
            )));
        }
        let mut names: Vec<String> = vec![];
        for p in &game.pieces {
            let n = p
                .notation
                .as_deref()
                .unwrap_or("")
                .trim()
                .to_ascii_uppercase();
            let letter = n.strip_prefix('+').unwrap_or(&n);
            if letter.len() != 1 || !letter.chars().all(|c| c.is_ascii_alphabetic()) {
                return Err(what(format!(
                    "piece `{}` has no notation of one letter or `+` and a letter",
                    p.name
                )));
            }
            if let Some(q) = names.iter().position(|x| *x == n) {
                return Err(what(format!(
                    "pieces `{}` and `{}` share the notation `{n}`",
                    game.pieces[q].name, p.name
                )));
            }
            names.push(n);
        }
        Ok(ShogiNotation { grid, names })
    }

    pub fn square(&self, p: Pos) -> Option<String> {
        let (f, r) = self.grid.coord(p)?;
        Some(format!(
            "{}{}",
            self.grid.files - f,
            (b'a' + (self.grid.ranks - 1 - r) as u8) as char
        ))
    }

    fn name(&self, kind: PieceType, owner: Player) -> String {
        let n = &self.names[kind.idx()];
        if owner.0 == 0 {
            n.clone()
        } else {
            n.to_ascii_lowercase()
        }
    }

    /// The SFEN of a state: board, side to move, hands (from the reserves), move number.
    pub fn sfen(&self, game: &Game, s: &State, to_move: Player) -> String {
        let g = &self.grid;
        let mut rows = vec![];
        for r in (0..g.ranks).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for f in 0..g.files {
                match s.get(g.at(f, r)) {
                    Some(p) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(&self.name(p.kind, p.owner));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        let np = game.pieces.len();
        // Hands in the usual order: rook, bishop, gold, silver, knight, lance, pawn, then any other.
        let rank = |t: usize| "RBGSNLP".find(self.names[t].as_str()).unwrap_or(7 + t);
        let mut types: Vec<usize> = (0..np).collect();
        types.sort_by_key(|&t| rank(t));
        let mut hands = String::new();
        for player in [Player(0), Player(1)] {
            for &t in &types {
                let n = s
                    .reserves()
                    .get(player.idx() * np + t)
                    .copied()
                    .unwrap_or(0);
                if n > 0 {
                    if n > 1 {
                        hands.push_str(&n.to_string());
                    }
                    hands.push_str(&self.name(PieceType(t as u16), player));
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = if to_move.0 == 0 { "b" } else { "w" };
        format!("{} {side} {hands} {}", rows.join("/"), s.ply() + 1)
    }

    /// A move in USI: `7g7f`, `8h2b+` (promoting), `P*5e` (a drop). `None` for a pass.
    pub fn move_name(&self, m: &Move) -> Option<String> {
        let first = m.parts.first()?;
        let to = m.parts.last()?.to?;
        let Some(from) = first.from else {
            let n = &self.names[first.piece.idx()];
            return Some(format!(
                "{}*{}",
                n.trim_start_matches('+'),
                self.square(to)?
            ));
        };
        let mut s = self.square(from)?;
        s.push_str(&self.square(to)?);
        if promoted(m, to).is_some_and(|k| k != first.piece && self.names[k.idx()].starts_with('+'))
        {
            s.push('+');
        }
        Some(s)
    }
}

/// The type the piece arriving at `to` takes during the move (a promotion), if it changes.
fn promoted(m: &Move, to: Pos) -> Option<PieceType> {
    m.parts
        .iter()
        .flat_map(|p| &p.actions)
        .filter_map(|a| match a {
            Action::ChangeType { at, kind } if *at == to => Some(*kind),
            _ => None,
        })
        .next_back()
}

/// GTP's vertices for a game of stones put on the points of a square board (Go): `D4`, columns lettered
/// without `I`, rows numbered from 1 at the bottom; `pass`.
#[derive(Clone, Debug)]
pub struct GoNotation {
    pub grid: Grid,
}

/// GTP's column letters.
const GTP_COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl GoNotation {
    pub fn of(game: &Game) -> Result<GoNotation, String> {
        let what = |e: String| format!("`{}` has no GTP notation: {e}", game.title);
        if game.players.len() != 2 || game.players.iter().any(|p| p.random) {
            return Err(what(
                "GTP is for two players, black and white, without dice".into(),
            ));
        }
        let grid = Grid::of(game).map_err(what)?;
        if grid.files != grid.ranks || grid.files > GTP_COLUMNS.len() {
            return Err(what(format!(
                "the board is {}x{}; GTP boards are square, at most 25x25",
                grid.files, grid.ranks
            )));
        }
        if let Some(p) = game.pieces.iter().find(|p| !p.moves.is_empty()) {
            return Err(what(format!(
                "piece `{}` moves on the board; GTP's moves only put stones down",
                p.name
            )));
        }
        Ok(GoNotation { grid })
    }

    pub fn size(&self) -> usize {
        self.grid.files
    }

    pub fn vertex(&self, p: Pos) -> Option<String> {
        let (f, r) = self.grid.coord(p)?;
        Some(format!("{}{}", GTP_COLUMNS[f] as char, r + 1))
    }

    /// A move as GTP writes it: `pass`, or the vertex of the one stone put down. `None` for other moves.
    pub fn move_name(&self, m: &Move) -> Option<String> {
        match m.parts.as_slice() {
            [] => Some("pass".into()),
            [p] if p.from.is_none() => self.vertex(p.to?),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Engine;
    use crate::load::{load_game, VariantSel};

    fn game(file: &str) -> Game {
        load_game(std::path::Path::new(file), &VariantSel::First).unwrap()
    }

    /// Plays UCI moves from the start: each must name exactly one legal move.
    fn play(e: &Engine, n: &ChessNotation, line: &[&str]) -> State {
        let mut s = e.initial();
        for u in line {
            let moves = e.legal_moves(&s).unwrap();
            let found: Vec<&Move> = moves
                .iter()
                .filter(|m| n.move_name(&s, m).as_deref() == Some(*u))
                .collect();
            assert_eq!(found.len(), 1, "{u}");
            s = e.apply(&s, found[0]);
        }
        s
    }

    fn fen(e: &Engine, n: &ChessNotation, s: &State) -> String {
        n.fen(e.game, s, e.to_move(s), &e.legal_moves(s).unwrap())
    }

    #[test]
    fn chess_fen_and_uci_moves() {
        let g = game("games/chess.zrf");
        let e = Engine::new(&g);
        let n = ChessNotation::of(&g).unwrap();
        let s = e.initial();
        assert_eq!(fen(&e, &n, &s), CHESS_START);
        let mut names: Vec<String> = e
            .legal_moves(&s)
            .unwrap()
            .iter()
            .map(|m| n.move_name(&s, m).unwrap())
            .collect();
        names.sort();
        assert_eq!(names.len(), 20);
        assert_eq!(names[0], "a2a3");
        assert!(names.contains(&"g1f3".to_string()));
        // No black pawn can take on e3: no en-passant square (as Stockfish writes FEN).
        let s = play(&e, &n, &["e2e4"]);
        assert_eq!(
            fen(&e, &n, &s),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        // d5 can take on e6 en passant.
        let s = play(&e, &n, &["d2d4", "a7a6", "d4d5", "e7e5"]);
        assert_eq!(
            fen(&e, &n, &s),
            "rnbqkbnr/1ppp1ppp/p7/3Pp3/8/8/PPP1PPPP/RNBQKBNR w KQkq e6 0 3"
        );
        play(&e, &n, &["d2d4", "a7a6", "d4d5", "e7e5", "d5e6"]);
        // Castling is the king's move; it and a rook's move take rights away.
        let s = play(
            &e,
            &n,
            &[
                "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "a8b8",
            ],
        );
        assert_eq!(
            fen(&e, &n, &s),
            "1rbqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w k - 0 5"
        );
        // Promotion names the new piece; taking the a8 rook takes black's long castling away.
        let s = play(
            &e,
            &n,
            &[
                "a2a4", "b7b5", "a4b5", "a7a6", "b5a6", "c8b7", "a6b7", "b8c6", "b7a8q",
            ],
        );
        assert_eq!(
            fen(&e, &n, &s),
            "Q2qkbnr/2pppppp/2n5/8/8/8/1PPPPPPP/RNBQKBNR b KQk - 0 5"
        );
    }

    #[test]
    fn games_without_a_notation_say_what_is_missing() {
        let go = game("games/go-9x9.zrf");
        let e = ChessNotation::of(&go).unwrap_err();
        assert!(e.contains("Stone") && e.contains("dropped"), "{e}");
        let chess = game("games/chess.zrf");
        let e = GoNotation::of(&chess).unwrap_err();
        assert!(
            e.contains("Pawn") && e.contains("moves on the board"),
            "{e}"
        );
        let oware = game("games/oware.zrf");
        assert!(GoNotation::of(&oware).is_err());
    }

    #[test]
    fn shogi_sfen_and_usi_moves() {
        let g = game("games/shogi.zrf");
        let e = Engine::new(&g);
        let n = ShogiNotation::of(&g).unwrap();
        let mut s = e.initial();
        assert_eq!(n.sfen(&g, &s, e.to_move(&s)), SHOGI_START);
        // 7g7f 3c3d 8h2b+ (the bishop takes and promotes) 3a2b (the silver takes back), then a bishop drop.
        for u in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let moves = e.legal_moves(&s).unwrap();
            let found: Vec<&Move> = moves
                .iter()
                .filter(|m| n.move_name(m).as_deref() == Some(u))
                .collect();
            assert_eq!(found.len(), 1, "{u}");
            s = e.apply(&s, found[0]);
        }
        assert_eq!(
            n.sfen(&g, &s, e.to_move(&s)),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
        );
    }

    #[test]
    fn gtp_vertices_skip_i() {
        let g = game("games/go-9x9.zrf");
        let n = GoNotation::of(&g).unwrap();
        assert_eq!(n.size(), 9);
        let v = |name: &str| n.vertex(g.board.position(name).unwrap()).unwrap();
        assert_eq!(
            (v("a1"), v("h8"), v("j9"), v("j1")),
            ("A1".into(), "H8".into(), "J9".into(), "J1".into())
        );
        let e = Engine::new(&g);
        let moves = e.legal_moves(&e.initial()).unwrap();
        let mut names: Vec<String> = moves.iter().filter_map(|m| n.move_name(m)).collect();
        assert_eq!(names.len(), moves.len());
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 82, "81 points and a pass");
        assert!(names.contains(&"pass".to_string()) && !names.iter().any(|m| m.starts_with('I')));
    }
}
