//! The mutable game state: board contents with piece attributes, off-board reserves, the place in the turn
//! order, the last move, and a Zobrist hash kept up to date by every write.

use crate::compile::*;

/// A piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: PieceType,
    pub owner: Player,
    /// Boolean attributes, bit `AttrId`.
    pub attrs: AttrBits,
    /// Captured during a composite move under `deferred captures`: stays until the move ends, blocks, and
    /// can be neither captured nor jumped again.
    pub dead: bool,
}

impl Piece {
    pub fn attr(&self, a: AttrId) -> bool {
        self.attrs.get(a.idx())
    }

    /// Everything but the attributes, in one word.
    fn bits(&self) -> u64 {
        self.kind.0 as u64 | (self.owner.0 as u64) << 16 | (self.dead as u64) << 24
    }
}

// States are copied often: a piece stays 12 bytes, and an empty square costs nothing more.
const _: () = assert!(std::mem::size_of::<Option<Piece>>() == 12);

/// A 64-bit mix (splitmix64's finalizer): Zobrist keys computed, not stored.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// What [`State::key`] adds to the hash for the turn-order entry `turn`.
#[inline]
pub(crate) fn turn_key(turn: usize) -> u64 {
    mix(0x7777_0000 ^ turn as u64)
}

#[inline]
pub(crate) fn cell_key(pos: Pos, p: &Piece) -> u64 {
    // The attributes are a whole word of their own: mixed apart, only when a piece has any.
    let attrs = match p.attrs.word() {
        0 => 0,
        w => mix(w ^ 0x5A5A_0000_0000_0001).rotate_left(17),
    };
    mix((pos.0 as u64) << 48 ^ p.bits() ^ attrs)
}

#[inline]
pub(crate) fn reserve_key(slot: usize, count: u32) -> u64 {
    if count == 0 {
        0
    } else {
        mix(0xA5A5_0000_0000_0000 ^ (slot as u64) << 32 ^ count as u64)
    }
}

#[inline]
fn var_key(slot: usize, value: i32) -> u64 {
    if value == 0 {
        0
    } else {
        mix(0x3C3C_0000_0000_0000 ^ (slot as u64) << 32 ^ value as u32 as u64)
    }
}

/// Everything that changes during a game.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub(in crate::engine) cells: Vec<Option<Piece>>,
    /// `reserves[player * pieces + type]`.
    pub(in crate::engine) reserves: Vec<u32>,
    /// Index into the game's turn order.
    pub(in crate::engine) turn: usize,
    /// Plies played since the start.
    pub(in crate::engine) ply: u32,
    /// Passes made in a row just before this state (`pass turn forced` ends the game when every player has
    /// had to pass in turn).
    pub(in crate::engine) passes: u32,
    /// Plies since the last irreversible move (a capture, or a move of a type the game's `(irreversible
    /// T...)` names), in games that read `(quiet-plies)`; 0 in others. Not part of the hash or the key: the
    /// fifty-move rule counts it, but a position is the same whatever it is.
    pub(in crate::engine) quiet: u32,
    pub(in crate::engine) last_from: Option<Pos>,
    pub(in crate::engine) last_to: Option<Pos>,
    /// The player who made the last move or pass (the player of the turn-order entry it was played in), `None`
    /// at the start and in a position read from text. Set by every play of a move, so exact after an extra
    /// turn, a `goto-turn` or a turn-order `goto`; `caused-repetition` reads it. Not part of the hash or the
    /// key: a position is the board and the player to move, whoever moved last.
    pub(in crate::engine) last_mover: Option<Player>,
    /// Game and player variables (`Game::variables`, by slot); empty in games without.
    pub(in crate::engine) vars: Vec<i32>,
    /// Columns (`(stacks)`, see `super::stack`): per position, the pieces under the one in `cells`, from the
    /// one just under it down to the bottom. Empty in games without stacks, which so pay nothing for them.
    /// Boxed and optional so that copying or dropping a state of such a game costs one test.
    #[allow(clippy::box_collection)]
    // one word in the state, not three: states are copied in every search
    pub(in crate::engine) columns: Option<Box<Vec<Vec<Piece>>>>,
    /// Zobrist hash of the cells and reserves (the turn is mixed in by [`State::key`]).
    pub(in crate::engine) hash: u64,
    /// Earlier positions, for `forbid-repetition` (ko, superko; `engine/groups.rs`); empty in other games.
    pub(in crate::engine) past: super::groups::Past,
    /// Per player, the positions holding one of its pieces (dead ones included), as a bitset of
    /// `occupancy_words` words from `player * occupancy_words`: kept by [`State::set`] and by `unmake`, so
    /// that generation visits the mover's pieces without scanning the board ([`State::pieces_of`]).
    occupied: Vec<u64>,
    /// The memory of the composite move being listed (games with `Options::move_memory`): the moving piece's
    /// start square, then the end of each part made so far. Empty between moves (every complete move is
    /// played from an empty trail and leaves it empty), so not part of the hash or the key; the composer,
    /// which makes the parts one by one, mixes it into its own keys (`compose.rs`).
    pub(in crate::engine) trail: Vec<Pos>,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            cells: self.cells.clone(),
            reserves: self.reserves.clone(),
            turn: self.turn,
            ply: self.ply,
            passes: self.passes,
            quiet: self.quiet,
            last_from: self.last_from,
            last_to: self.last_to,
            last_mover: self.last_mover,
            vars: self.vars.clone(),
            columns: self.columns.clone(),
            hash: self.hash,
            past: self.past.clone(),
            occupied: self.occupied.clone(),
            trail: self.trail.clone(),
        }
    }

    /// Copies into the buffers already there: the working state of move listing is copied once a position
    /// (`compose::work_copy`), and the derived `clone_from` allocated its vectors anew each time.
    fn clone_from(&mut self, source: &State) {
        // Destructured, so that a field added to the state cannot be forgotten here.
        let State {
            cells,
            reserves,
            turn,
            ply,
            passes,
            quiet,
            last_from,
            last_to,
            last_mover,
            vars,
            columns,
            hash,
            past,
            occupied,
            trail,
        } = source;
        self.cells.clone_from(cells);
        self.reserves.clone_from(reserves);
        self.turn = *turn;
        self.ply = *ply;
        self.passes = *passes;
        self.quiet = *quiet;
        self.last_from = *last_from;
        self.last_to = *last_to;
        self.last_mover = *last_mover;
        self.vars.clone_from(vars);
        self.columns.clone_from(columns);
        self.hash = *hash;
        self.past.clone_from(past);
        self.occupied.clone_from(occupied);
        self.trail.clone_from(trail);
    }
}

impl State {
    /// The start position of a game.
    pub fn initial(game: &Game) -> State {
        let np = game.pieces.len();
        let mut s = State {
            cells: vec![None; game.board.positions.len()],
            reserves: vec![0; game.players.len() * np.max(1)],
            turn: 0,
            ply: 0,
            passes: 0,
            quiet: 0,
            last_from: None,
            last_to: None,
            last_mover: None,
            vars: vec![],
            columns: None,
            hash: 0,
            past: Default::default(),
            occupied: vec![0; game.players.len().max(1) * game.board.positions.len().div_ceil(64)],
            trail: vec![],
        };
        if game.has_stacks() {
            s.enable_columns();
        }
        for v in &game.variables {
            let n = if v.per_player { game.players.len() } else { 1 };
            for slot in v.slot..v.slot + n {
                if s.vars.len() <= slot {
                    s.vars.resize(slot + 1, 0);
                }
                s.set_var(slot, v.init);
            }
        }
        for &(player, kind, pos) in &game.setup.pieces {
            let attrs = initial_attrs(game, kind);
            let piece = Piece {
                kind,
                owner: player,
                attrs,
                dead: false,
            };
            // With stacks, a piece set up on an occupied position goes on top of the column there.
            if s.has_columns() {
                s.put_on_top(pos, piece);
            } else {
                s.set(pos, Some(piece));
            }
        }
        for &(player, kind, n) in &game.setup.reserves {
            let slot = player.idx() * np + kind.idx();
            let c = s.reserves[slot] + n;
            s.set_reserve(slot, c);
        }
        s
    }

    /// The cells, by position index: the piece on each, if any.
    #[inline]
    pub fn cells(&self) -> &[Option<Piece>] {
        &self.cells
    }

    /// The piece on `pos`, if any (as [`State::get`]).
    #[inline]
    pub fn cell(&self, pos: Pos) -> Option<Piece> {
        self.cells[pos.idx()]
    }

    /// The reserves, `reserves()[player * pieces + type]`.
    #[inline]
    pub fn reserves(&self) -> &[u32] {
        &self.reserves
    }

    /// The reserve in `slot` (`player * pieces + type`).
    #[inline]
    pub fn reserve(&self, slot: usize) -> u32 {
        self.reserves[slot]
    }

    /// Index into the game's turn order of the entry to play.
    #[inline]
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Plies played since the start.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Passes made in a row just before this state.
    #[inline]
    pub fn passes(&self) -> u32 {
        self.passes
    }

    /// Plies since the last irreversible move (see the field; `(quiet-plies)`).
    #[inline]
    pub fn quiet(&self) -> u32 {
        self.quiet
    }

    /// Sets the plies since the last irreversible move (not part of the hash).
    #[inline]
    pub fn set_quiet(&mut self, quiet: u32) {
        self.quiet = quiet;
    }

    /// Where the last move's piece came from, if known.
    #[inline]
    pub fn last_from(&self) -> Option<Pos> {
        self.last_from
    }

    /// Where the last move's piece went, if known.
    #[inline]
    pub fn last_to(&self) -> Option<Pos> {
        self.last_to
    }

    /// The player who made the last move or pass (see the field).
    #[inline]
    pub fn last_mover(&self) -> Option<Player> {
        self.last_mover
    }

    /// Game and player variables, by slot; empty in games without.
    #[inline]
    pub fn vars(&self) -> &[i32] {
        &self.vars
    }

    /// The columns under the top pieces, per position; `None` in games without stacks.
    #[inline]
    pub fn columns(&self) -> Option<&[Vec<Piece>]> {
        self.columns.as_deref().map(|c| c.as_slice())
    }

    /// Zobrist hash of the cells, reserves, variables and columns (without the turn; see [`State::key`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Earlier positions kept for `forbid-repetition`.
    #[inline]
    pub fn past(&self) -> &super::groups::Past {
        &self.past
    }

    /// Sets the turn-order entry to play (not part of the hash; [`State::key`] mixes it in).
    #[inline]
    pub fn set_turn(&mut self, turn: usize) {
        self.turn = turn;
    }

    /// Sets the count of passes made in a row (not part of the hash).
    #[inline]
    pub fn set_passes(&mut self, passes: u32) {
        self.passes = passes;
    }

    #[inline]
    pub fn get(&self, pos: Pos) -> Option<Piece> {
        self.cells[pos.idx()]
    }

    /// Writes a cell, keeping the hash and the occupancy up to date.
    #[inline]
    pub fn set(&mut self, pos: Pos, p: Option<Piece>) {
        if let Some(old) = &self.cells[pos.idx()] {
            self.hash ^= cell_key(pos, old);
        }
        if let Some(new) = &p {
            self.hash ^= cell_key(pos, new);
        }
        self.put(pos, p);
    }

    /// Writes a cell, keeping the occupancy up to date but not the hash (`unmake` restores the hash whole).
    #[inline]
    pub(super) fn put(&mut self, pos: Pos, p: Option<Piece>) {
        let i = pos.idx();
        let old = std::mem::replace(&mut self.cells[i], p).map(|x| x.owner);
        let new = p.map(|x| x.owner);
        if old == new {
            return;
        }
        let words = self.occupancy_words();
        let bit = 1u64 << (i & 63);
        if let Some(o) = old {
            if let Some(w) = self.occupied.get_mut(o.idx() * words + (i >> 6)) {
                *w &= !bit;
            }
        }
        if let Some(o) = new {
            match self.occupied.get_mut(o.idx() * words + (i >> 6)) {
                Some(w) => *w |= bit,
                None => self.grow_occupancy(o, i),
            }
        }
    }

    /// An owner past the game's players: the bitsets grow rather than lose the piece (never in a loaded game).
    #[cold]
    fn grow_occupancy(&mut self, owner: Player, i: usize) {
        let words = self.occupancy_words();
        self.occupied.resize((owner.idx() + 1) * words, 0);
        self.occupied[owner.idx() * words + (i >> 6)] |= 1 << (i & 63);
    }

    /// Words of each player's occupancy bitset.
    #[inline]
    pub fn occupancy_words(&self) -> usize {
        self.cells.len().div_ceil(64)
    }

    /// The positions holding `player`'s pieces (dead ones included), as bitset words (see the field).
    #[inline]
    pub fn occupancy(&self, player: Player) -> &[u64] {
        let words = self.occupancy_words();
        let start = player.idx() * words;
        self.occupied.get(start..start + words).unwrap_or(&[])
    }

    /// The positions holding `player`'s pieces, in increasing order.
    #[inline]
    pub fn pieces_of(&self, player: Player) -> impl Iterator<Item = Pos> + '_ {
        self.occupancy(player)
            .iter()
            .enumerate()
            .flat_map(|(w, &bits)| BitIter(bits).map(move |b| Pos((w * 64 + b) as u16)))
    }

    /// Moves the piece on `from` to `to` as `new` (its type perhaps changed): [`State::set`] of `from` to
    /// nothing, then of `to` to `new`, with the same state and hash after it. Where `to` is empty and the owner
    /// stays, one hash update and one occupancy word written, not two of each.
    #[inline]
    pub fn relocate(&mut self, from: Pos, to: Pos, new: Piece) {
        let delta = match self.cells[from.idx()] {
            Some(old) => cell_key(from, &old) ^ cell_key(to, &new),
            None => 0,
        };
        self.relocate_hashed(from, to, new, delta)
    }

    /// [`State::relocate`] given what it XORs into the hash, `delta`: the key of the piece on `from` on
    /// `from` XOR the key of `new` on `to`, as `cell_key` computes them (from a table of them, say). Unread
    /// where the move is not the plain case (then [`State::set`] writes both squares).
    #[inline(always)]
    pub(crate) fn relocate_hashed(&mut self, from: Pos, to: Pos, new: Piece, delta: u64) {
        let (f, t) = (from.idx(), to.idx());
        match (self.cells[f], self.cells[t]) {
            (Some(old), None) if old.owner == new.owner && f != t => {
                self.hash ^= delta;
                self.cells[f] = None;
                self.cells[t] = Some(new);
                let words = self.occupancy_words();
                let base = new.owner.idx() * words;
                let (bf, bt) = (1u64 << (f & 63), 1u64 << (t & 63));
                let (wf, wt) = (base + (f >> 6), base + (t >> 6));
                if wf == wt {
                    if let Some(w) = self.occupied.get_mut(wf) {
                        *w ^= bf | bt;
                    }
                } else {
                    if let Some(w) = self.occupied.get_mut(wf) {
                        *w &= !bf;
                    }
                    if let Some(w) = self.occupied.get_mut(wt) {
                        *w |= bt;
                    }
                }
            }
            _ => {
                self.set(from, None);
                self.set(to, Some(new));
            }
        }
    }

    /// What writing `p` on `pos` would XOR into the hash ([`State::set`] without the write).
    #[inline]
    pub fn set_delta(&self, pos: Pos, p: Option<Piece>) -> u64 {
        let mut d = 0;
        if let Some(old) = &self.cells[pos.idx()] {
            d ^= cell_key(pos, old);
        }
        if let Some(new) = &p {
            d ^= cell_key(pos, new);
        }
        d
    }

    pub fn set_reserve(&mut self, slot: usize, count: u32) {
        self.hash ^= reserve_key(slot, self.reserves[slot]) ^ reserve_key(slot, count);
        self.reserves[slot] = count;
    }

    /// Writes a game or player variable, keeping the hash up to date.
    pub fn set_var(&mut self, slot: usize, value: i32) {
        self.hash ^= var_key(slot, self.vars[slot]) ^ var_key(slot, value);
        self.vars[slot] = value;
    }

    /// The hash of the whole position, whose turn it is included: equal keys mean a repeated position.
    pub fn key(&self) -> u64 {
        self.hash ^ turn_key(self.turn)
    }

    /// The hash recomputed from scratch (tests check the incremental one against it).
    pub fn full_hash(&self) -> u64 {
        let mut h = 0;
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(p) = c {
                h ^= cell_key(Pos(i as u16), p);
            }
        }
        for (slot, &c) in self.reserves.iter().enumerate() {
            h ^= reserve_key(slot, c);
        }
        for (slot, &v) in self.vars.iter().enumerate() {
            h ^= var_key(slot, v);
        }
        for (i, col) in self.columns.iter().flat_map(|c| c.iter()).enumerate() {
            h ^= super::stack::column_key(Pos(i as u16), col);
        }
        h
    }
}

/// The set bits of a word, lowest first.
struct BitIter(u64);

impl Iterator for BitIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

/// The attribute bits a new piece of a type starts with ([`Game::initial_attrs`]).
#[inline]
pub fn initial_attrs(game: &Game, kind: PieceType) -> AttrBits {
    game.initial_attrs(kind)
}
