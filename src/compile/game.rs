//! The compiled game: everything the engine needs, immutable once built and shared between threads.
//! Names are resolved to small typed indices here, so the engine never looks a name up.

use crate::lang::Span;
use rustc_hash::FxHashMap as HashMap;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $int:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub $int);
        impl $name {
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(/// A position (square, cell, hand) of the board.
    Pos, u16);
id_type!(/// A direction: a label on the board's links.
    Dir, u16);
id_type!(/// A piece type.
    PieceType, u16);
id_type!(/// A player, in the order of `(players ...)`.
    Player, u8);
id_type!(/// A zone name.
    ZoneId, u16);
id_type!(/// A move type (`(move-type t)`).
    MoveType, u16);
id_type!(/// A piece attribute.
    AttrId, u16);
id_type!(/// A flag or position flag of a move program.
    FlagId, u16);

/// The boolean attributes of a piece: bit `AttrId` of 64. Two 32-bit words rather than a `u64`, so that a
/// piece is 12 bytes, not 16 with a `u64`'s alignment: states are copied often, and their size shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct AttrBits([u32; 2]);

impl AttrBits {
    #[inline]
    pub fn get(self, a: usize) -> bool {
        self.0[(a >> 5) & 1] >> (a & 31) & 1 == 1
    }

    #[inline]
    pub fn set(&mut self, a: usize, value: bool) {
        let w = &mut self.0[(a >> 5) & 1];
        if value {
            *w |= 1 << (a & 31);
        } else {
            *w &= !(1 << (a & 31));
        }
    }

    /// Integer field `k` (8 bits, signed), counted down from the top bits (56..63 for field 0), apart from
    /// the boolean bits at the bottom.
    #[inline]
    pub fn get_int(self, k: usize) -> i8 {
        let bit = 56 - 8 * k;
        (self.0[bit >> 5] >> (bit & 31)) as u8 as i8
    }

    #[inline]
    pub fn set_int(&mut self, k: usize, v: i8) {
        let bit = 56 - 8 * k;
        let w = &mut self.0[bit >> 5];
        *w = (*w & !(0xFF << (bit & 31))) | (v as u8 as u32) << (bit & 31);
    }

    /// All 64 bits in one word.
    #[inline]
    pub fn word(self) -> u64 {
        self.0[0] as u64 | (self.0[1] as u64) << 32
    }
}

/// How many attributes a game may declare (the bits of [`AttrBits`]); the compiler refuses more, with the
/// location of the first one too many.
pub const MAX_ATTRIBUTES: usize = 64;

/// "No position" in navigation tables.
pub const NO_POS: u16 = u16::MAX;

/// One position of the board.
#[derive(Clone, Debug)]
pub struct PositionInfo {
    pub name: String,
    /// Off-board (hands, counters): exists and holds pieces, but is not part of the playing area.
    pub dummy: bool,
    /// Screen rectangle (x1, y1, x2, y2) where the file gives one.
    pub rect: Option<[i32; 4]>,
    /// Where a drawing of the board puts a grid cell whose grid has no `start-rectangle`: the grid's
    /// offsets from a cell at the origin as large as its largest steps (`None` for other positions).
    pub layout: Option<[i32; 4]>,
}

/// A named set of positions, which may differ per player.
#[derive(Clone, Debug)]
pub struct Zone {
    pub name: String,
    /// `members[player][pos]`.
    pub members: Vec<Vec<bool>>,
}

/// The board graph and its precomputed navigation.
#[derive(Clone, Debug, Default)]
pub struct Board {
    pub positions: Vec<PositionInfo>,
    pub directions: Vec<String>,
    /// `links[pos * directions.len() + dir]`: the neighbour, or `NO_POS`. Directions as written in the file.
    pub links: Vec<u16>,
    /// `symmetry[player][dir]`: what direction `dir` means for that player.
    pub symmetry: Vec<Vec<Dir>>,
    /// `nav[player][pos * directions.len() + dir]`: `links` after the player's symmetry. One lookup per step.
    pub nav: Vec<Vec<u16>>,
    pub zones: Vec<Zone>,
    /// The reverse of each direction, derived from the links, where one exists.
    pub opposite: Vec<Option<Dir>>,
    /// Lower-case name to position. A name that differs only in case from another one (`A19` beside
    /// `a19`: real boards have both) is also there as written; look names up with [`Board::position`].
    pub position_index: HashMap<String, Pos>,
    /// Lower-case name to direction, plus names as written where only case tells them apart (`N`, `n`).
    pub direction_index: HashMap<String, Dir>,
    /// Lower-case name to zone, plus names as written where only case tells them apart.
    pub zone_index: HashMap<String, ZoneId>,
    /// `(rotation ...)`: named permutations of positions that `(add-rotate NAME)` turns (`compile/board/rotation.rs`).
    pub rotations: Vec<Rotation>,
}

/// `(rotation (name NAME) (cycle P...) ...)`: a board fragment that turns with its pieces (Pentago's
/// quadrants). One step of the rotation takes the piece on each position of a cycle to the next position of
/// that cycle (the last to the first); positions on no cycle stay.
#[derive(Clone, Debug)]
pub struct Rotation {
    pub name: String,
    /// Disjoint cycles of two or more positions each.
    pub cycles: Vec<Vec<Pos>>,
}

impl Rotation {
    /// Where `steps` steps (backwards when negative) take the piece on `pos`; `pos` itself off the cycles.
    pub fn turn(&self, pos: Pos, steps: i32) -> Pos {
        for c in &self.cycles {
            if let Some(i) = c.iter().position(|&p| p == pos) {
                let n = c.len() as i64;
                return c[(i as i64 + steps as i64).rem_euclid(n) as usize];
            }
        }
        pos
    }

    /// Every position on the rotation's cycles.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cycles.iter().flatten().copied()
    }
}

impl Board {
    #[inline]
    pub fn step(&self, player: Player, pos: Pos, dir: Dir) -> Option<Pos> {
        let t = self.nav[player.idx()][pos.idx() * self.directions.len() + dir.idx()];
        (t != NO_POS).then_some(Pos(t))
    }

    /// A position by name: the exact spelling first, then regardless of case.
    pub fn position(&self, name: &str) -> Option<Pos> {
        lookup(&self.position_index, name)
    }

    /// A direction by name: the exact spelling first, then regardless of case.
    pub fn direction(&self, name: &str) -> Option<Dir> {
        lookup(&self.direction_index, name)
    }

    /// A zone by name: the exact spelling first, then regardless of case.
    pub fn zone(&self, name: &str) -> Option<ZoneId> {
        lookup(&self.zone_index, name)
    }

    pub fn in_zone(&self, zone: ZoneId, player: Player, pos: Pos) -> bool {
        self.zones[zone.idx()]
            .members
            .get(player.idx())
            .is_some_and(|m| m[pos.idx()])
    }

    pub fn pos_name(&self, pos: Pos) -> &str {
        &self.positions[pos.idx()].name
    }
}

/// Looks a name up in one of the board's name indexes: as written, then in lower case.
fn lookup<T: Copy>(index: &HashMap<String, T>, name: &str) -> Option<T> {
    match index.get(name) {
        Some(&v) => Some(v),
        None if name.bytes().any(|c| c.is_ascii_uppercase()) => {
            index.get(&name.to_ascii_lowercase()).copied()
        }
        None => None,
    }
}

/// A player of the game.
#[derive(Clone, Debug)]
pub struct PlayerInfo {
    pub name: String,
    /// A `?` player: its moves are chosen uniformly at random from the game's seeded stream (dice).
    pub random: bool,
}

/// One turn of the turn order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnEntry {
    /// Whose turn it is.
    pub player: Player,
    /// Whose pieces that player moves (usually the same player).
    pub moves_as: Player,
    /// Only moves of this type are generated this turn.
    pub move_type: Option<MoveType>,
}

/// The cycle of turns: `entries[repeat_from..]` repeats after the first pass through all entries.
#[derive(Clone, Debug, Default)]
pub struct TurnOrder {
    pub entries: Vec<TurnEntry>,
    pub repeat_from: usize,
    /// `(label NAME)` in the turn order: the entry each label stands before (this project's form,
    /// `compile/turns.rs`); a move's `(goto-turn NAME)` continues the order there.
    pub labels: Vec<(String, usize)>,
    /// `(goto NAME)` in the turn order: after entry `.0` the order goes on at entry `.1`. Empty for ZRF files.
    pub jumps: Vec<(usize, usize)>,
}

impl TurnOrder {
    /// The entry after `turn` when no move says otherwise.
    #[inline]
    pub fn next(&self, turn: usize) -> usize {
        if !self.jumps.is_empty() {
            if let Some(&(_, to)) = self.jumps.iter().find(|j| j.0 == turn) {
                return to;
            }
        }
        if turn + 1 >= self.entries.len() {
            self.repeat_from
        } else {
            turn + 1
        }
    }
}

/// A phase of the turn order (`(phases (placing (when (in-reserve)) place) (moving move))`): on each turn the
/// first phase whose condition holds for the player to move gives the move types that player may use.
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    /// `None`: always (the last phase is usually so).
    pub when: Option<EndCond>,
    pub move_types: Vec<MoveType>,
    pub span: Span,
}

/// Where a predicate or an action looks: the cursor, a neighbour of it, or a named position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loc {
    Cursor,
    Dir(Dir),
    Pos(Pos),
}

/// A predicate of a move program.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    True,
    False,
    Not(Box<Cond>),
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Empty(Loc),
    Friend(Loc),
    Enemy(Loc),
    Neutral(Loc),
    /// One of these piece types stands there.
    Piece(Vec<PieceType>, Loc),
    InZone(ZoneId, Loc),
    /// The location exists (for `Loc::Dir`: the cursor has a neighbour in that direction).
    OnBoard(Loc),
    LastFrom(Loc),
    LastTo(Loc),
    Marked(Loc),
    /// The location is this position.
    IsPosition(Pos, Loc),
    /// An opponent could capture there (with moves of this type only, when given).
    Attacked(Loc, Option<MoveType>),
    /// The mover could capture there (with moves of this type only, when given).
    Defended(Loc, Option<MoveType>),
    Flag(FlagId),
    PositionFlag(FlagId, Loc),
    /// `(visited? [LOC])`: the moving piece stood there earlier in this composite move (its start square, or
    /// where an earlier part ended); see `docs/language.md`, "Memory of a composite move".
    Visited(Loc),
    /// `(last-direction? DIR)`: an earlier part of this composite move exists and the last one took the piece
    /// along DIR (its `to` is reached from its `from` by steps along DIR, after the mover's symmetry).
    LastDirection(Dir),
    /// A boolean attribute of the piece there.
    Attribute(AttrId, Loc),
    /// A comparison of two numbers (`(< a b)`, see `compile/numbers.rs`).
    Compare(
        super::numbers::CmpOp,
        Box<(super::numbers::Expr, super::numbers::Expr)>,
    ),
    /// `my?`: a piece of the mover itself stands there (`friend?` also holds for an ally's piece).
    Mine(Loc),
    /// `suicide?`: a piece of the mover put there would leave its group without a liberty, once the enemy
    /// groups it takes are gone (`compile/groups.rs`).
    Suicide(Loc),
}

/// The parts of [`Instr::Choose`].
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub set: Cond,
    pub otherwise: Option<Cond>,
    pub body: Vec<Instr>,
    pub rest: Vec<Instr>,
}

/// The parts of [`Instr::Post`]: a piece's and the game's `post` instructions and the emission they guard.
#[derive(Clone, Debug, PartialEq)]
pub struct PostEmit {
    /// The `post` instructions (the piece's, then the game's), run just before the emission.
    pub post: Vec<Instr>,
    /// The emission: an `add` of any kind or an `add-rotate` (with the `add-partial-required` marker before it).
    pub emit: Vec<Instr>,
}

/// Where `go` sends the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoTarget {
    From,
    To,
    Mark,
    LastFrom,
    LastTo,
}

/// The player a `create` or `change-owner` gives a piece to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerRef {
    Mover,
    Named(Player),
}

/// One instruction of a move program. Programs are trees: `If` and `While` hold blocks.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    /// Move the cursor one link (after the mover's symmetry); the path ends if there is none.
    Step(Dir),
    /// Move the cursor to the reverse of a direction.
    StepOpposite(Dir),
    JumpTo(Pos),
    Verify(Cond),
    If(Cond, Vec<Instr>, Vec<Instr>),
    While(Cond, Vec<Instr>),
    Mark,
    Back,
    Go(GoTarget),
    From,
    To,
    Cascade,
    /// Emit a move (or, with `partial`, a part that the same piece continues with moves of that type).
    Add {
        promote: Vec<PieceType>,
        copy: bool,
        partial: Option<Option<MoveType>>,
    },
    Capture(Loc),
    Create {
        player: PlayerRef,
        piece: Option<PieceType>,
        at: Loc,
    },
    ChangeType(PieceType, Loc),
    Flip(Loc),
    ChangeOwner(PlayerRef, Loc),
    SetFlag(FlagId, Cond),
    SetPositionFlag(FlagId, Cond, Loc),
    SetAttribute(AttrId, Cond, Loc),
    /// `(set-var v EXPR)`: a move variable, for the rest of this program run.
    SetVar(u16, super::numbers::Expr),
    /// `(set-var v EXPR)` on a declared game or player variable (the mover's): a change of the state.
    SetStateVar(u16, super::numbers::Expr),
    /// `(set-attribute hp EXPR [LOC])` on an integer attribute: field k of the piece there.
    SetIntAttribute(u8, super::numbers::Expr, Loc),
    /// `(choose (positions C...) [(otherwise (positions C...))] instr...)`: one path per position of the
    /// board where every condition holds (or, when none does, per position of the `otherwise` set); each path
    /// runs `body` with the cursor on its position, then `rest`. With no position at all, `rest` runs alone.
    /// The compiler moves everything after the choice into `rest` (see `compile::turns`). Boxed, so that
    /// instructions stay as small as before.
    Choose(Box<Choice>),
    /// `(extra-turn)`: the move being built gives the mover another turn.
    ExtraTurn,
    /// Set by `add-partial-required`: the part emitted next must be continued; with no continuation it is no
    /// move at all.
    RequireContinuation,
    /// `(capture-groups [suicide] [LOC])`: the enemy groups next to the location that a piece of the mover
    /// there leaves without a liberty are captured; with `suicide` (true), a piece that takes nothing and
    /// leaves its own group without a liberty dies with that group (`compile/groups.rs`).
    CaptureGroups(Loc, bool),
    /// `(sow ATTR DIR option...)`: mancala sowing from the cursor's pit (`compile/sow.rs`, `engine/sow.rs`).
    Sow(Box<super::sow::Sow>),
    /// `(goto-turn LABEL)`: after this move the turn order goes on at the entry of the label.
    GotoTurn(u16),
    /// `(take-prisoner [LOC])` (games with `(stacks)`): the top piece of the column there goes to the bottom of
    /// the moving column; the piece under it becomes the top.
    TakePrisoner(Loc),
    /// `(carry EXPR)` (games with `(stacks)`): the moving column leaves with its top N pieces only.
    Carry(super::numbers::Expr),
    /// `(add-rotate NAME [STEPS])`: `add`, the board's rotation `NAME` (its index in `Board::rotations`)
    /// turned by STEPS (1 when left out; backwards when negative) as part of the part (`engine/run/rotate.rs`).
    AddRotate(u16, i32),
    /// An emission with the `post` instructions of the move life cycle in front of it (`docs/language.md`, "The
    /// move life cycle"): run on a copy of the program's registers, so that a failed `verify` in `post` drops
    /// this emission only and what `post` changes belongs to this emission only (`engine/run/instr.rs`).
    Post(Box<PostEmit>),
}

/// A move program with its type.
#[derive(Clone, Debug)]
pub struct MoveProgram {
    pub move_type: Option<MoveType>,
    pub body: Vec<Instr>,
    /// The body as flat bytecode, which the engine runs (`compile/code.rs`).
    pub code: super::code::Code,
    /// Where the program was written (after macro expansion: the call site).
    pub span: Span,
    /// The program as ZRF text after expansion, for `dagaz check`.
    pub source: String,
}

/// A piece type and its programs.
#[derive(Clone, Debug)]
pub struct PieceInfo {
    pub name: String,
    pub notation: Option<String>,
    /// The attributes this piece declares, with their initial values.
    pub attributes: Vec<(AttrId, bool)>,
    /// Attributes declared with a value that is not a boolean (`(attribute value 3)`), as written.
    pub constants: Vec<(AttrId, String)>,
    pub moves: Vec<MoveProgram>,
    pub drops: Vec<MoveProgram>,
    /// Declared `(value N)`, for evaluation.
    pub value: Option<f64>,
}

/// Initial placement.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    pub pieces: Vec<(Player, PieceType, Pos)>,
    /// Off-board reserves: `(T off N)`.
    pub reserves: Vec<(Player, PieceType, u32)>,
}

/// `pass turn`: may a player pass?
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassTurn {
    #[default]
    No,
    Yes,
    /// Only when there is no other move.
    Forced,
}

/// `maximal captures`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MaximalCaptures {
    #[default]
    No,
    /// Only the moves that capture the most pieces.
    Pieces,
    /// Most kings first, then most pieces (`2`).
    KingsThenPieces,
}

/// The options that change the rules; the others are kept as metadata.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub pass_turn: PassTurn,
    pub pass_partial: bool,
    pub maximal_captures: MaximalCaptures,
    pub recycle_captures: bool,
    pub discard_cascades: bool,
    pub include_off_pieces: bool,
    pub deferred_captures: bool,
    pub shared_pieces: bool,
    pub detect_loops: bool,
    /// The game reads the memory of a composite move (`visited?`, `last-direction?`, `turn-variables`): the
    /// engine keeps the squares of the move so far (`State::trail`). Not an option a file writes.
    pub move_memory: bool,
    /// Every option as written (name, value), known or not.
    pub all: Vec<(String, String)>,
}

/// What an end condition does to the players it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    Win,
    Loss,
    Draw,
    /// Ends the game and ranks players by piece count.
    Count,
}

/// The condition of an end rule.
#[derive(Clone, Debug, PartialEq)]
pub enum EndCond {
    /// The player to move has no legal move at all (under `pass turn forced`: not even the pass, once every
    /// player has passed in turn).
    Stalemated,
    /// The player to move has no move but passing: no legal move, or only the pass that `pass turn` offers.
    /// This tells "only the forced pass" apart from "no moves" (`stalemated`).
    Blocked,
    /// Pieces of these types (all types when empty) the player has left.
    PiecesRemaining {
        n: u32,
        types: Vec<PieceType>,
    },
    /// Pieces of these types on the whole board, all players together.
    TotalPieceCount {
        n: u32,
        types: Vec<PieceType>,
    },
    Checkmated(Vec<PieceType>),
    Captured(Vec<PieceType>),
    /// One of the types stands on one of the positions. With `negated` (`(not King)`), none of the positions
    /// holds one of the types. `positions[player]`: a zone named in the list stands for its
    /// squares for the player whose condition is tested (a promotion zone is the far rank of each player).
    AbsoluteConfig {
        types: Vec<PieceType>,
        positions: Vec<Vec<Pos>>,
        opponent: bool,
        negated: bool,
    },
    /// A chain `T dir T dir T ...` stands somewhere on the board. `negated[i]`: slot i is `(not T)`, matched by
    /// any square (or no square) without such a piece.
    RelativeConfig {
        types: Vec<PieceType>,
        dirs: Vec<Dir>,
        opponent: bool,
        negated: Vec<bool>,
    },
    Repetition,
    /// A comparison of two numbers read from the state (variables; a player variable is the tested player's).
    Compare(
        super::numbers::CmpOp,
        Box<(super::numbers::Expr, super::numbers::Expr)>,
    ),
    /// All the player's pieces of these types (all types when empty; the opponent's with `opponent`) form
    /// one group under the board's directions, and there is at least one (`(connected T)`).
    Connected {
        types: Vec<PieceType>,
        opponent: bool,
    },
    /// `(in-reserve T...)`: the player has at least one piece of these types (any type when empty) off the
    /// board, in its reserve.
    InReserve(Vec<PieceType>),
    /// `(connects Z1 Z2 ... [T...])`: one group of the player's pieces (of these types) touches every zone.
    Connects {
        zones: Vec<ZoneId>,
        types: Vec<PieceType>,
    },
    /// `(caused-repetition N)`: the player made the last move, and the position after it occurs for the
    /// N-th time.
    CausedRepetition(u32),
    /// `(attacked T...)`: one of the player's T is attacked; `(all-attacked T...)` (`all`): every one is, and
    /// the player has one (see `docs/language.md`, Invariants).
    Attacked {
        types: Vec<PieceType>,
        all: bool,
    },
    And(Vec<EndCond>),
    Or(Vec<EndCond>),
    Not(Box<EndCond>),
}

impl EndCond {
    /// Whether the condition reads `(quiet-plies)` anywhere.
    pub fn reads_quiet_plies(&self) -> bool {
        use super::numbers::Expr;
        fn expr(e: &Expr) -> bool {
            match e {
                Expr::QuietPlies => true,
                Expr::Arith(_, xs) => xs.iter().any(expr),
                _ => false,
            }
        }
        match self {
            EndCond::Compare(_, ab) => expr(&ab.0) || expr(&ab.1),
            EndCond::And(cs) | EndCond::Or(cs) => cs.iter().any(EndCond::reads_quiet_plies),
            EndCond::Not(c) => c.reads_quiet_plies(),
            _ => false,
        }
    }

    /// The kind of condition, as end types are reported (`checkmated`, `absolute-config`, ...); for `and`, `or`
    /// and `not`, the kind of the first condition inside, which is what a reader of statistics wants to see.
    pub fn kind(&self) -> &'static str {
        match self {
            EndCond::Stalemated => "stalemated",
            EndCond::Blocked => "blocked",
            EndCond::PiecesRemaining { .. } => "pieces-remaining",
            EndCond::TotalPieceCount { .. } => "total-piece-count",
            EndCond::Checkmated(_) => "checkmated",
            EndCond::Captured(_) => "captured",
            EndCond::AbsoluteConfig { .. } => "absolute-config",
            EndCond::RelativeConfig { .. } => "relative-config",
            EndCond::Repetition => "repetition",
            EndCond::Connected { .. } => "connected",
            EndCond::Connects { .. } => "connects",
            EndCond::CausedRepetition(_) => "caused-repetition",
            // Go's "both passed" reads better as its own end type than as a comparison.
            EndCond::Compare(_, ab) if ab.0 == super::numbers::Expr::Passes => "passes",
            EndCond::Compare(_, ab) if ab.0 == super::numbers::Expr::QuietPlies => "quiet-plies",
            EndCond::Compare(..) => "compare",
            EndCond::InReserve(_) => "in-reserve",
            EndCond::Attacked { all: false, .. } => "attacked",
            EndCond::Attacked { all: true, .. } => "all-attacked",
            EndCond::And(cs) => cs.first().map_or("and", EndCond::kind),
            EndCond::Or(cs) => cs.first().map_or("or", EndCond::kind),
            EndCond::Not(c) => c.kind(),
        }
    }
}

/// One end rule, tested for each listed player after each move.
#[derive(Clone, Debug)]
pub struct EndCondition {
    pub kind: EndKind,
    pub players: Vec<Player>,
    pub cond: EndCond,
    /// Declared `(name "...")`; else the condition kind (`stalemated`, `checkmated`, ...).
    pub name: String,
    /// Higher decides when several hold at once. Default: earlier declared is higher.
    pub priority: i32,
    pub span: Span,
}

/// A game or player variable (`(variables ...)`, `(player-variables ...)`): an integer of the state.
#[derive(Clone, Debug)]
pub struct Variable {
    pub name: String,
    /// One value per player, else one for the game.
    pub per_player: bool,
    pub init: i32,
    /// `(ply-variables ...)`: a game variable that lasts one ply: every move starts it again at `init`
    /// before its own changes, so it holds what the last move set (chess's en passant possibility).
    pub per_ply: bool,
    /// `(turn-variables ...)`: a game variable that lasts one whole (composite) move: every move starts it
    /// again at `init`, its first part reads `init`, and its later parts read what the earlier ones set;
    /// after the move it holds what the move set, for invariants and end conditions.
    pub per_turn: bool,
    /// Its first slot in `State::vars`; a player variable has one slot per player from there.
    pub slot: usize,
}

/// A whole game, ready to play.
#[derive(Clone, Debug)]
pub struct Game {
    pub title: String,
    /// 1-based number of the game or variant in its file.
    pub variant: usize,
    pub players: Vec<PlayerInfo>,
    pub turn_order: TurnOrder,
    /// Phases selected by a condition (this project's `phases` section); empty for ZRF files.
    pub phases: Vec<Phase>,
    pub board: Board,
    pub pieces: Vec<PieceInfo>,
    pub attributes: Vec<String>,
    pub flags: Vec<String>,
    pub position_flags: Vec<String>,
    pub move_types: Vec<String>,
    /// Of these move types only the first with a legal move is generated.
    pub move_priorities: Vec<MoveType>,
    /// `(optional-priority T...)`: pieces of these types are not bound by `move-priorities`. The moves of
    /// the turn are those of the best-ranked type that some other piece can move with, and of every better
    /// type (all moves when no other piece has a ranked move): Shashmat's and Dablot's "capturing is
    /// compulsory, but not for these pieces" (docs/language.md, "Optional priority").
    pub optional_priority: Vec<PieceType>,
    /// `(huffing T...)`: captures (moves of these types) are never compulsory, but a piece that could have
    /// captured and did not may be removed by the opponent before its move (docs/language.md, "Huffing").
    pub huffing: Option<Huffing>,
    pub setup: Setup,
    pub options: Options,
    pub end_conditions: Vec<EndCondition>,
    /// Integer piece attributes (declared with a number: `(attribute hp 3)`): field k of [`AttrBits`]
    /// holds the value of `int_attributes[k]`.
    pub int_attributes: Vec<AttrId>,
    /// Game and player variables, part of the state (`docs/language.md`, "Numbers").
    pub variables: Vec<Variable>,
    /// `(capture-order ...)`: of the complete moves, only those no other move beats are legal (empty: none).
    pub capture_order: Vec<super::Criterion>,
    /// `(captures-to-hand ...)`: a captured piece goes to the captor's reserve as the type at its index
    /// (itself unless demoted); every drop then comes from the reserve. `None`: ZRF's rules.
    pub captures_to_hand: Option<Vec<PieceType>>,
    /// `(invariant ...)` sections: conditions every legal move must leave true for the player who made it.
    pub invariants: Vec<Invariant>,
    /// `(forbid-repetition ...)`: ko or superko, a legality rule over earlier positions (`compile/groups.rs`).
    pub forbid_repetition: Option<super::groups::RepetitionRule>,
    /// `(irreversible T...)`, or any use of `(quiet-plies)`: the state counts the plies since the last
    /// irreversible move, a capture or a move of one of these types (`State::quiet`). `None`: not counted.
    pub irreversible: Option<Vec<PieceType>>,
    /// Per player, its team (`(allies ...)`); players of one team are friends, not enemies. Empty when no
    /// player has an ally (every player a team of its own).
    pub teams: Vec<u8>,
    /// Sections that only concern a screen or the reader, kept as `(head, text)`.
    pub metadata: Vec<(String, String)>,
    /// Rules the file asks for that the engine does not apply (unknown options and sections, no end
    /// condition): the game is played without them. See [`super::missing`].
    pub missing_rules: Vec<super::MissingRule>,
    /// `(stacks)`: a position holds a column of pieces (`docs/language.md`, "Stacks"); the state keeps the
    /// pieces under each top only in games that declare it.
    pub stacks: bool,
    /// Rust extension modules (`(extension NAME)` in the file, `--extension NAME` on the command line), in
    /// the order they were named, by name: the engine resolves them (see `docs/extensions.md`). Empty for
    /// almost every game.
    pub extensions: Vec<ExtensionRef>,
    /// Which move programs `attacked?` checks backwards (`compile/attack.rs`), classified on first use, so that
    /// modules attached after compiling are seen.
    pub attack: std::sync::OnceLock<super::attack::AttackTable>,
    /// `(move-post ...)`: instructions run once per complete move on the position after it, whose changes are
    /// the move's last part and whose failed `verify` removes the move (`engine/gen.rs`, `life_cycle`).
    pub move_post: Option<MoveProgram>,
    /// Some program has a `post` ([`Instr::Post`]) or the game a `move-post`: the move generation takes the
    /// general path (the counting, sampling and draughts plans do not know them).
    pub life_cycle: bool,
}

/// An extension module a game names, with what the compiler learnt of it (see `compile::extension::Module`):
/// plain data; the engine resolves the name to the module's hooks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtensionRef {
    /// The module's registered name (`connect-four`).
    pub name: String,
    /// Its one line on what it plays.
    pub description: String,
    /// Whether the module's game keeps columns of pieces, as if the file declared `(stacks)`.
    pub stacks: bool,
    /// The missing rules the module supplies (`Module::covers`).
    pub covers: Vec<String>,
}

impl Game {
    /// The attack classification of the move programs (see [`super::attack`]).
    #[inline]
    pub fn attack_table(&self) -> &super::attack::AttackTable {
        self.attack.get_or_init(|| super::attack::classify(self))
    }

    /// Whether states of this game keep columns.
    #[inline]
    pub fn has_stacks(&self) -> bool {
        self.stacks || (!self.extensions.is_empty() && self.extensions.iter().any(|m| m.stacks))
    }

    /// The attribute bits a new piece of a type starts with.
    pub fn initial_attrs(&self, kind: PieceType) -> AttrBits {
        let mut bits = AttrBits::default();
        for (a, v) in &self.pieces[kind.idx()].attributes {
            if *v {
                bits.set(a.idx(), true);
            }
        }
        if !self.int_attributes.is_empty() {
            for (a, text) in &self.pieces[kind.idx()].constants {
                if let Some(k) = self.int_attributes.iter().position(|x| x == a) {
                    let v = super::numbers::int_value(text);
                    bits.set_int(k, v);
                    // As a predicate, an integer attribute is true when it is not 0.
                    bits.set(a.idx(), v != 0);
                }
            }
        }
        bits
    }

    pub fn piece_type(&self, name: &str) -> Option<PieceType> {
        self.pieces
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .map(|i| PieceType(i as u16))
    }

    pub fn player(&self, name: &str) -> Option<Player> {
        self.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .map(|i| Player(i as u8))
    }
}

/// A condition of an `(invariant ...)` section, tested for the player who moved on the position after a complete
/// move (and, for `drop-mate`, on the move itself).
#[derive(Clone, Debug, PartialEq)]
pub enum InvCond {
    /// `(not-attacked T...)`: none of the mover's T is attacked; with `all` (`(not-all-attacked T...)`), at least
    /// one is not attacked (or none is left).
    NotAttacked {
        types: Vec<PieceType>,
        all: bool,
    },
    /// `(facing T dir...)`: from one of the mover's T, the first piece along one of the directions is an enemy T.
    Facing {
        types: Vec<PieceType>,
        dirs: Vec<Dir>,
    },
    /// `(moved T...)`: a piece of one of the types moved (a part of the move starts on the board).
    Moved(Vec<PieceType>),
    /// `(dropped T...)`: a piece of one of the types was dropped.
    Dropped(Vec<PieceType>),
    /// `(mates R...)`: the player to move next has no legal move and one of its R is attacked. `(drop-mate T R)`
    /// is `(and (dropped T) (mates R))`.
    Mates(Vec<PieceType>),
    And(Vec<InvCond>),
    Or(Vec<InvCond>),
    Not(Box<InvCond>),
}

/// One `(invariant (name "...") CONDITION)`: a move after which the condition is false is illegal.
#[derive(Clone, Debug)]
pub struct Invariant {
    pub name: String,
    pub cond: InvCond,
    pub span: Span,
}

impl Game {
    /// Whether players `a` and `b` are on one team (the same player, or allies).
    #[inline]
    pub fn same_team(&self, a: Player, b: Player) -> bool {
        a == b || (!self.teams.is_empty() && self.teams[a.idx()] == self.teams[b.idx()])
    }
}

/// `(huffing T...)` (docs/language.md, "Huffing"): the move types that are captures, and the piece attribute
/// that marks a piece its opponent may huff (`huffable`, implicit: declared by the section).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Huffing {
    pub types: Vec<MoveType>,
    pub mark: AttrId,
}
