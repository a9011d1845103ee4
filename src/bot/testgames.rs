//! Games for the bots' unit tests: tiny hand-written [`Model`]s whose values are known, and ZRF games compiled
//! from text.

use super::Model;
use crate::compile::Game;
use crate::engine::EngineError;

/// Compiles a ZRF game given as text; panics with the rendered errors if it does not compile.
pub fn load_zrf(name: &str, text: &str) -> Game {
    let file = crate::lang::read_str(name, text, std::path::Path::new("."));
    let mut diags = file.diagnostics.clone();
    let game = if file.has_errors() {
        None
    } else {
        file.games
            .first()
            .and_then(|g| crate::load::compile_source(g, &mut diags))
    };
    game.unwrap_or_else(|| {
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).cloned().collect();
        panic!(
            "`{name}` does not compile:\n{}",
            crate::lang::diag::render_all(&errors, &file.sources)
        )
    })
}

/// Loads a game file of `games/`; panics if it does not compile.
pub fn load_file(path: &str) -> Game {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_zrf(path, &text)
}

/// Nim with one heap: take 1 to `max_take` stones; who takes the last stone wins. The player to move loses
/// exactly when the heap is a multiple of `max_take + 1`.
pub struct Nim {
    pub max_take: u32,
}

#[derive(Clone, Debug)]
pub struct NimState {
    pub heap: u32,
    pub turn: usize,
}

impl Model for Nim {
    type State = NimState;
    type Move = u32;
    crate::bot::search_by_copy!();

    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &NimState) -> usize {
        s.turn
    }
    fn is_chance(&self, _: &NimState) -> bool {
        false
    }
    fn legal_moves(&self, s: &NimState) -> Result<Vec<u32>, EngineError> {
        Ok((1..=self.max_take.min(s.heap)).collect())
    }
    fn apply(&self, s: &NimState, m: &u32) -> NimState {
        NimState {
            heap: s.heap - m,
            turn: 1 - s.turn,
        }
    }
    fn outcome(&self, s: &NimState, _: &[u32], _: &[u64]) -> Result<Option<Vec<i8>>, EngineError> {
        // The player to move faces an empty heap: the other took the last stone.
        Ok((s.heap == 0).then(|| {
            let mut r = vec![1, 1];
            r[s.turn] = -1;
            r
        }))
    }
    fn key(&self, s: &NimState) -> u64 {
        crate::engine::state::mix((s.heap as u64) << 8 | s.turn as u64)
    }
    fn captures(&self, _: &u32) -> usize {
        0
    }
    fn move_id(&self, m: &u32) -> Option<u64> {
        Some(*m as u64)
    }
    fn evaluate(&self, _: &NimState, _: &[u32]) -> Result<Vec<f64>, EngineError> {
        Ok(vec![0.0, 0.0])
    }
}

/// Tic-tac-toe; the board is 9 cells, 0 empty, 1 or 2 a player's mark.
pub struct TicTacToe;

#[derive(Clone, Debug)]
pub struct TttState {
    pub cells: [u8; 9],
    pub turn: usize,
}

impl TttState {
    pub fn new() -> Self {
        TttState {
            cells: [0; 9],
            turn: 0,
        }
    }
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Model for TicTacToe {
    type State = TttState;
    type Move = usize;
    crate::bot::search_by_copy!();

    fn num_players(&self) -> usize {
        2
    }
    fn to_move(&self, s: &TttState) -> usize {
        s.turn
    }
    fn is_chance(&self, _: &TttState) -> bool {
        false
    }
    fn legal_moves(&self, s: &TttState) -> Result<Vec<usize>, EngineError> {
        Ok((0..9).filter(|&i| s.cells[i] == 0).collect())
    }
    fn apply(&self, s: &TttState, m: &usize) -> TttState {
        let mut t = s.clone();
        t.cells[*m] = s.turn as u8 + 1;
        t.turn = 1 - s.turn;
        t
    }
    fn outcome(
        &self,
        s: &TttState,
        moves: &[usize],
        _: &[u64],
    ) -> Result<Option<Vec<i8>>, EngineError> {
        for l in LINES {
            let v = s.cells[l[0]];
            if v != 0 && s.cells[l[1]] == v && s.cells[l[2]] == v {
                let mut r = vec![-1, -1];
                r[v as usize - 1] = 1;
                return Ok(Some(r));
            }
        }
        Ok(moves.is_empty().then(|| vec![0, 0]))
    }
    fn key(&self, s: &TttState) -> u64 {
        let k = s.cells.iter().fold(s.turn as u64, |k, &c| k * 3 + c as u64);
        crate::engine::state::mix(k)
    }
    fn captures(&self, _: &usize) -> usize {
        0
    }
    fn move_id(&self, m: &usize) -> Option<u64> {
        Some(*m as u64)
    }
    fn evaluate(&self, _: &TttState, _: &[usize]) -> Result<Vec<f64>, EngineError> {
        Ok(vec![0.0, 0.0])
    }
}

/// A race for `players` players on a track of `goal` squares: on your turn move 1 or 2 squares forward, or
/// (only when `dice`) let the die player, who moves after every player, decide: the die adds 0 or 3 to the
/// last mover. First to reach the goal wins, the others lose. Evaluation: squares advanced.
pub struct Race {
    pub players: usize,
    pub goal: u32,
    pub dice: bool,
}

#[derive(Clone, Debug)]
pub struct RaceState {
    pub pos: Vec<u32>,
    /// The turn counter; with dice, odd turns are the die's.
    pub turn: usize,
}

impl Race {
    pub fn start(&self) -> RaceState {
        RaceState {
            pos: vec![0; self.players],
            turn: 0,
        }
    }
    fn period(&self) -> usize {
        if self.dice {
            2 * self.players
        } else {
            self.players
        }
    }
}

impl Model for Race {
    type State = RaceState;
    type Move = u32;
    crate::bot::search_by_copy!();

    fn num_players(&self) -> usize {
        self.players + self.dice as usize
    }
    fn to_move(&self, s: &RaceState) -> usize {
        if self.is_chance(s) {
            self.players
        } else if self.dice {
            s.turn % self.period() / 2
        } else {
            s.turn % self.players
        }
    }
    fn is_chance(&self, s: &RaceState) -> bool {
        self.dice && s.turn % 2 == 1
    }
    fn is_random_player(&self, p: usize) -> bool {
        p == self.players
    }
    fn legal_moves(&self, s: &RaceState) -> Result<Vec<u32>, EngineError> {
        Ok(if self.is_chance(s) {
            vec![0, 3]
        } else {
            vec![1, 2]
        })
    }
    fn apply(&self, s: &RaceState, m: &u32) -> RaceState {
        let mut t = s.clone();
        let who = if self.is_chance(s) {
            s.turn % self.period() / 2
        } else {
            self.to_move(s)
        };
        t.pos[who] += m;
        t.turn += 1;
        t
    }
    fn outcome(&self, s: &RaceState, _: &[u32], _: &[u64]) -> Result<Option<Vec<i8>>, EngineError> {
        Ok(s.pos.iter().position(|&p| p >= self.goal).map(|w| {
            let mut r = vec![-1; self.num_players()];
            r[w] = 1;
            if self.dice {
                r[self.players] = 0;
            }
            r
        }))
    }
    fn key(&self, s: &RaceState) -> u64 {
        let k = s
            .pos
            .iter()
            .fold((s.turn % self.period()) as u64, |k, &p| k * 1000 + p as u64);
        crate::engine::state::mix(k)
    }
    fn captures(&self, _: &u32) -> usize {
        0
    }
    fn move_id(&self, m: &u32) -> Option<u64> {
        Some(*m as u64)
    }
    fn evaluate(&self, s: &RaceState, _: &[u32]) -> Result<Vec<f64>, EngineError> {
        let mut v: Vec<f64> = s.pos.iter().map(|&p| p as f64).collect();
        if self.dice {
            v.push(0.0);
        }
        Ok(v)
    }
}

/// A game with no board and two players, for bots that never look at the position.
pub fn bare_game() -> Game {
    use crate::compile::*;
    Game {
        irreversible: None,
        variables: vec![],
        int_attributes: vec![],
        title: "bare".into(),
        variant: 1,
        players: ["A", "B"]
            .iter()
            .map(|n| PlayerInfo {
                name: n.to_string(),
                random: false,
            })
            .collect(),
        turn_order: TurnOrder {
            labels: vec![],
            jumps: vec![],
            entries: vec![
                TurnEntry {
                    player: Player(0),
                    moves_as: Player(0),
                    move_type: None,
                },
                TurnEntry {
                    player: Player(1),
                    moves_as: Player(1),
                    move_type: None,
                },
            ],
            repeat_from: 0,
        },
        phases: vec![],
        board: Board::default(),
        pieces: vec![],
        attributes: vec![],
        flags: vec![],
        position_flags: vec![],
        move_types: vec![],
        move_priorities: vec![],
        optional_priority: vec![],
        huffing: None,
        setup: Setup::default(),
        options: Options::default(),
        end_conditions: vec![],
        capture_order: vec![],
        captures_to_hand: None,
        invariants: vec![],
        forbid_repetition: None,
        teams: vec![],
        metadata: vec![],
        missing_rules: vec![],
        stacks: false,
        extensions: vec![],
        attack: Default::default(),
        move_post: None,
        life_cycle: false,
    }
}

/// Breakthrough on an `n`×`n` board (n from 4 to 8) as ZRF text: two rows of pawns each, White moves north.
pub fn breakthrough_zrf(n: usize) -> String {
    let files: Vec<char> = ('a'..='h').take(n).collect();
    let row = |r: usize| -> String {
        files
            .iter()
            .map(|f| format!("{f}{r}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let xs: Vec<String> = files.iter().map(|f| f.to_string()).collect();
    let ys: Vec<String> = (1..=n).rev().map(|r| r.to_string()).collect();
    format!(
        r#"
(define step ($1 (verify empty?) add))
(define take ($1 (verify enemy?) add))
(game
  (title "Breakthrough {n}x{n}")
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (dimensions ("{xs}" (50 0)) ("{ys}" (0 50)))
      (directions (n 0 -1) (ne 1 -1) (nw -1 -1) (s 0 1) (se 1 1) (sw -1 1)))
    (symmetry Black (n s) (ne se) (nw sw) (s n) (se ne) (sw nw)))
  (piece (name Pawn) (moves (step n) (step ne) (step nw) (take ne) (take nw)))
  (board-setup
    (White (Pawn {w}))
    (Black (Pawn {b})))
  (win-condition (White) (absolute-config Pawn ({top})))
  (win-condition (Black) (absolute-config Pawn ({bottom})))
  (loss-condition (White Black) stalemated))
"#,
        xs = xs.join("/"),
        ys = ys.join("/"),
        w = row(1) + " " + &row(2),
        b = row(n - 1) + " " + &row(n),
        top = row(n),
        bottom = row(1),
    )
}

/// Breakthrough `n`×`n` compiled from [`breakthrough_zrf`].
pub fn breakthrough(n: usize) -> Game {
    load_zrf("breakthrough", &breakthrough_zrf(n))
}

/// A race of two teams of two, players 0 and 1 against 2 and 3, moving in that order: on your turn advance
/// yourself 1 square, or your partner 2. A team wins when one of its players reaches `goal`. Evaluation:
/// squares advanced. A search that sees the partner as an opponent never gives it squares and expects it to
/// give none; one that knows the teams does both.
pub struct TeamRace {
    pub goal: u32,
}

impl TeamRace {
    fn partner(p: usize) -> usize {
        p ^ 1
    }
}

impl Model for TeamRace {
    type State = RaceState;
    /// 0: advance yourself 1; 1: advance your partner 2.
    type Move = u32;
    crate::bot::search_by_copy!();

    fn num_players(&self) -> usize {
        4
    }
    fn to_move(&self, s: &RaceState) -> usize {
        s.turn % 4
    }
    fn is_chance(&self, _: &RaceState) -> bool {
        false
    }
    fn same_side(&self, a: usize, b: usize) -> bool {
        a / 2 == b / 2
    }
    fn legal_moves(&self, _: &RaceState) -> Result<Vec<u32>, EngineError> {
        Ok(vec![0, 1])
    }
    fn apply(&self, s: &RaceState, m: &u32) -> RaceState {
        let mut t = s.clone();
        let p = self.to_move(s);
        match m {
            0 => t.pos[p] += 1,
            _ => t.pos[Self::partner(p)] += 2,
        }
        t.turn += 1;
        t
    }
    fn outcome(&self, s: &RaceState, _: &[u32], _: &[u64]) -> Result<Option<Vec<i8>>, EngineError> {
        Ok(s.pos.iter().position(|&p| p >= self.goal).map(|w| {
            (0..4)
                .map(|q| if self.same_side(q, w) { 1 } else { -1 })
                .collect()
        }))
    }
    fn key(&self, s: &RaceState) -> u64 {
        let k = s
            .pos
            .iter()
            .fold((s.turn % 4) as u64, |k, &p| k * 1000 + p as u64);
        crate::engine::state::mix(k)
    }
    fn captures(&self, _: &u32) -> usize {
        0
    }
    fn move_id(&self, m: &u32) -> Option<u64> {
        Some(*m as u64)
    }
    fn evaluate(&self, s: &RaceState, _: &[u32]) -> Result<Vec<f64>, EngineError> {
        Ok(s.pos.iter().map(|&p| p as f64).collect())
    }
}
