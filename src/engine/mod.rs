//! The engine: game state, moves, the move-program interpreter, composite moves, options, end of game, perft.
//! [`Engine`] is the one interface bots, the tournament and `dagaz session` use.
//!
//! The engine imports the compiler's data (`crate::compile`) and nothing of `crate::extension`: a game names
//! its extension modules, and the engine is handed their [`Hooks`] by whoever builds it ([`Engine::new`] and
//! [`Engine::with_options`] are defined in `crate::load`, which resolves the names through the registry;
//! [`Engine::with_hooks`] takes any resolver).

pub mod apply;
pub mod attack;
pub mod chains;
pub mod compose;
pub mod connects;
pub mod count;
pub mod draughts;
pub mod drop_flow;
pub mod end;
pub mod gen;
pub mod groups;
pub mod hooks;
pub mod huff;
pub mod invariant;
mod legality;
pub mod movelist;
pub mod moves;
pub mod ordering;
pub mod playout;
pub mod position;
pub mod run;
pub mod sample;
pub mod search;
pub mod sow_kernel;
pub mod stack;
pub mod state;

pub use end::Outcome;
pub use hooks::{Hooks, Resolver};
pub use movelist::MoveList;
pub use moves::{Action, Move, Part};
pub use state::{Piece, State};

use crate::compile::*;

/// An error while playing: a runaway program, a composite move that does not end. Names the game and where.
/// Rendered in one place (its `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A move program ran more steps than its budget from one square (an endless `while`?).
    Runaway {
        game: String,
        /// The square the program started from, by name.
        from: String,
        /// The program's source text.
        program: String,
    },
    /// The move programs of one position emitted more actions than the interpreter keeps.
    TooManyActions { game: String },
    /// A composite move grew past the composer's parts, or a position past its moves or parts in all.
    TooLarge { game: String },
    /// The game names an extension module that the engine's resolver does not know.
    UnknownModule { game: String, module: String },
    /// A method that serves some games only was called for another (`what` says which).
    NotServed { game: String, what: &'static str },
    /// The engine contradicted itself (a listed move that cannot be rebuilt, a counted one that cannot be
    /// built, ...): a bug, `what` says where.
    Inconsistent { game: String, what: String },
    /// Any other error, as its text (extension modules, callers outside the engine).
    Other(String),
}

/// [`EngineError::Other`]: the constructor the error had when it was a tuple struct of its text, kept for
/// callers outside the engine.
#[allow(non_snake_case)]
pub fn EngineError(message: String) -> EngineError {
    EngineError::Other(message)
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Runaway {
                game,
                from,
                program,
            } => write!(
                f,
                "{game}: a move program ran more than {} steps from {from} (an endless `while`?): {program}",
                run::STEP_BUDGET
            ),
            EngineError::TooManyActions { game } => write!(
                f,
                "{game}: the move programs of one position emitted more than {} actions",
                run::MAX_EMITTED_ACTIONS
            ),
            EngineError::TooLarge { game } => write!(
                f,
                "{game}: a composite move grew past {} parts, or the position past {} moves or {} parts in all",
                compose::MAX_PARTS,
                compose::MAX_MOVES,
                compose::MAX_TOTAL_PARTS
            ),
            EngineError::UnknownModule { game, module } => {
                write!(f, "{game}: unknown extension module `{module}`")
            }
            EngineError::NotServed { game, what } => write!(f, "{game}: {what}"),
            EngineError::Inconsistent { game, what } => write!(f, "{game}: {what}"),
            EngineError::Other(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for EngineError {}

/// Why [`Engine::play_checked`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The move is not one of the legal moves of the position (there are `legal` of them).
    NotLegal { legal: usize },
    /// The legal moves could not be listed.
    Engine(EngineError),
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IllegalMove::NotLegal { legal: 0 } => {
                f.write_str("illegal move: the player to move has no legal move")
            }
            IllegalMove::NotLegal { legal } => write!(
                f,
                "illegal move: not one of the {legal} legal moves of the position"
            ),
            IllegalMove::Engine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl From<EngineError> for IllegalMove {
    fn from(e: EngineError) -> IllegalMove {
        IllegalMove::Engine(e)
    }
}

/// How an engine plays: which of its backends it may use (see [`Engine::with_hooks`], where they are chosen).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// Force the general path everywhere: moves from the interpreter and the composer, with no native or
    /// specialised backend (no draughts kernel, no count plan, no sample plan, no royal-listed legality
    /// path, no first op decided before a program's run, no legality cache). The same moves, outcomes and
    /// games, only slower: the reference the backends are tested against. (The bytecode's fused ops are the
    /// compiler's and stay.)
    pub general_path: bool,
}

impl EngineOptions {
    /// The environment variable that forces the general path for every engine built by [`Engine::new`]:
    /// `1` (or `true`, `yes`, `on`) forces it; unset, empty, `0` (`false`, `no`, `off`) leaves the default.
    pub const GENERAL_PATH_ENV: &'static str = "DAGAZ_GENERAL_PATH";

    /// The general path everywhere (see [`EngineOptions::general_path`]).
    pub fn general() -> EngineOptions {
        EngineOptions { general_path: true }
    }

    /// The options the environment asks for ([`EngineOptions::GENERAL_PATH_ENV`]); an error names a value
    /// that is neither on nor off.
    pub fn from_env() -> Result<EngineOptions, String> {
        let value = std::env::var_os(Self::GENERAL_PATH_ENV).unwrap_or_default();
        let text = value.to_string_lossy().trim().to_ascii_lowercase();
        let general_path = match text.as_str() {
            "" | "0" | "false" | "no" | "off" => false,
            "1" | "true" | "yes" | "on" => true,
            _ => {
                return Err(format!(
                    "{}={:?}: expected 1 (force the general path) or 0",
                    Self::GENERAL_PATH_ENV,
                    value
                ))
            }
        };
        Ok(EngineOptions { general_path })
    }
}

/// A compiled game with what the engine derives from it once.
pub struct Engine<'g> {
    pub game: &'g Game,
    /// How it plays (the general path forced or not).
    options: EngineOptions,
    /// The hooks of the game's extension modules, in the order `Game::extensions` names them.
    hooks: Vec<&'static dyn Hooks>,
    /// Each piece type's move programs by move type (see [`gen::ProgramIndex`]).
    index: gen::ProgramIndex,
    /// Per player: the piece types `(checkmated T)` protects; moves that leave one attacked are illegal.
    royal: Vec<Vec<PieceType>>,
    /// The piece types a promotion produces (`(add T)`, `change-type T`): the "kings" of `maximal captures 2`.
    kings: Vec<PieceType>,
    /// No rule judges a move once generated (no phases, maximal captures, `capture-order`, royal pieces,
    /// invariants, repetition rule or extension module): the legal moves can be listed into a move buffer
    /// ([`Engine::legal_into`]) with nothing owned built. Off the general path, a repetition rule alone leaves
    /// the game flat: the listed moves are filtered (`groups::filter_listed`); so do extension modules that
    /// all say they keep exactly the drops on their sites ([`Hooks::listed`]).
    flat: bool,
    /// Where the count-only analysis accepts a flat game (`count::plan`): random playouts count the moves and
    /// build only the one they draw.
    count: Option<count::CountPlan>,
    /// The one rule that judges a generated move is `checkmated` (royal pieces), and there is no pass: the
    /// candidates can be listed into a move buffer and each tested by make and unmake on one working state
    /// ([`Engine::candidates_into`], [`Engine::listed_legal`]), with the same moves in the same order as
    /// [`Engine::legal_moves`] (chess).
    royal_listed: bool,
    /// Where the sampling analysis accepts a flat game without a count plan (`sample::plan`): random playouts
    /// draw a move by running move generators one at a time, with rejection.
    sample: Option<sample::SamplePlan>,
    /// Where the draughts analysis accepts a flat game (`draughts::plan`): [`Engine::legal_into`] lists the
    /// moves with a native generator, the same list as the general path's.
    draughts: Option<draughts::DraughtsPlan>,
    /// Where the sowing analysis accepts a flat game (`sow_kernel::plan`): random playouts run on an array
    /// of seed counts.
    sow: Option<sow_kernel::SowPlan>,
    /// Every end condition is `stalemated` (or there is none): no condition holds while the player to move has
    /// a move, which [`Engine::outcome_of_list`] answers without asking `end::outcome_of`.
    stalemated_only: bool,
    /// Whether the end of the game may read the history of position keys: a `repetition` or
    /// `caused-repetition` condition anywhere in an end condition, or an extension module. Where it may not,
    /// random playouts keep no history ([`Engine::reads_history`]).
    reads_history: bool,
    /// The start position ([`Engine::initial`]), built once: every game of a playout run, a match or a
    /// search starts from a copy of it.
    start: State,
}

/// Whether an end condition reads the history of position keys (`repetition`, `caused-repetition`).
pub fn cond_reads_history(c: &EndCond) -> bool {
    match c {
        EndCond::Repetition | EndCond::CausedRepetition(_) => true,
        EndCond::And(cs) | EndCond::Or(cs) => cs.iter().any(cond_reads_history),
        EndCond::Not(c) => cond_reads_history(c),
        EndCond::Stalemated
        | EndCond::Blocked
        | EndCond::PiecesRemaining { .. }
        | EndCond::TotalPieceCount { .. }
        | EndCond::Checkmated(_)
        | EndCond::Captured(_)
        | EndCond::AbsoluteConfig { .. }
        | EndCond::RelativeConfig { .. }
        | EndCond::Compare(..)
        | EndCond::Connected { .. }
        | EndCond::InReserve(_)
        | EndCond::Connects { .. }
        | EndCond::Attacked { .. } => false,
    }
}

/// The backends an engine uses, chosen in one place ([`Backends::choose`]).
struct Backends {
    flat: bool,
    royal_listed: bool,
    count: Option<count::CountPlan>,
    sample: Option<sample::SamplePlan>,
    draughts: Option<draughts::DraughtsPlan>,
    sow: Option<sow_kernel::SowPlan>,
    /// The general path is forced: the program index decides no program's first op before its run
    /// ([`gen::First`]), and the legality tests build no [`legality::LegalityCache`].
    general: bool,
}

impl Backends {
    /// Every choice of backend for `game`: the general interpreter and composer always serve; on top of them,
    /// where the analyses accept the game, the draughts kernel (native move lists), the count plan (perft's
    /// last level and playouts count without building), the sample plan (playouts draw one move by running
    /// generators), the royal-listed path (candidates in a move buffer, each tested by make and unmake), the
    /// first ops decided before a run and the legality cache. With `options.general_path`, none of them.
    fn choose(game: &Game, royal: &[Vec<PieceType>], options: EngineOptions) -> Backends {
        // `optional-priority` judges the generated moves by the pieces that make them (`gen::generated`).
        let judged_whole = game.phases.is_empty()
            && !game.life_cycle
            && game.optional_priority.is_empty()
            && matches!(game.options.maximal_captures, MaximalCaptures::No)
            && game.capture_order.is_empty()
            && game.invariants.is_empty()
            && game.forbid_repetition.is_none()
            && game.extensions.is_empty()
            && game.huffing.is_none();
        // Ko and superko judge the generated moves too, but each alone, by the key of the position after it:
        // off the general path, the move buffer lists such a game's moves and filters them
        // (`groups::filter_listed`, in `Engine::legal_into`).
        let ko_listed = !options.general_path
            && !game.life_cycle
            && game.forbid_repetition.is_some()
            && game.phases.is_empty()
            && matches!(game.options.maximal_captures, MaximalCaptures::No)
            && game.capture_order.is_empty()
            && game.invariants.is_empty()
            && game.extensions.is_empty()
            && game.huffing.is_none();
        // Not a backend: where no rule judges a generated move, the composer lists the moves into a buffer.
        let flat = (judged_whole || ko_listed) && royal.iter().all(|r| r.is_empty());
        if options.general_path {
            return Backends {
                flat,
                royal_listed: false,
                count: None,
                sample: None,
                draughts: None,
                sow: None,
                general: true,
            };
        }
        let royal_listed = judged_whole && !flat && game.options.pass_turn == PassTurn::No;
        // The plans below list or count moves without the repetition filter.
        let planned = flat && game.forbid_repetition.is_none();
        let count = if planned {
            count::plan(game).ok()
        } else {
            None
        };
        // The sampler judges each drawn move by the repetition rule as the filter does (`sample`'s module).
        let sample = if flat && count.is_none() {
            sample::plan(game).ok()
        } else {
            None
        };
        let draughts = if planned {
            draughts::plan(game).ok()
        } else {
            None
        };
        let sow = if planned {
            sow_kernel::plan(game).ok()
        } else {
            None
        };
        Backends {
            flat,
            royal_listed,
            count,
            sample,
            draughts,
            sow,
            general: false,
        }
    }
}

impl<'g> Engine<'g> {
    /// The engine of `game` playing as `options` say, with the hooks of the game's extension modules as
    /// `resolve` finds them by name; an error names a module it does not know. (`Engine::new` and
    /// `Engine::with_options`, in `crate::load`, resolve through the registry of `crate::extension`.)
    pub fn with_hooks(
        game: &'g Game,
        options: EngineOptions,
        resolve: Resolver<'_>,
    ) -> Result<Engine<'g>, EngineError> {
        // A game may have been compiled where a freed one was: `connects` forgets its kept answers.
        connects::engine_built();
        let hooks = game
            .extensions
            .iter()
            .map(|e| {
                resolve(&e.name).ok_or_else(|| EngineError::UnknownModule {
                    game: game.title.clone(),
                    module: e.name.clone(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut royal = vec![vec![]; game.players.len()];
        fn collect(c: &EndCond, out: &mut Vec<PieceType>) {
            match c {
                EndCond::Checkmated(ts) => out.extend(ts),
                EndCond::And(cs) | EndCond::Or(cs) => cs.iter().for_each(|c| collect(c, out)),
                EndCond::Not(c) => collect(c, out),
                _ => {}
            }
        }
        for ec in &game.end_conditions {
            for p in &ec.players {
                collect(&ec.cond, &mut royal[p.idx()]);
            }
        }
        for r in &mut royal {
            r.sort();
            r.dedup();
        }
        fn promoted(body: &[Instr], out: &mut Vec<PieceType>) {
            for i in body {
                match i {
                    Instr::Add { promote, .. } => out.extend(promote),
                    Instr::ChangeType(t, _) => out.push(*t),
                    Instr::If(_, a, b) => {
                        promoted(a, out);
                        promoted(b, out);
                    }
                    Instr::While(_, a) => promoted(a, out),
                    Instr::Post(p) => {
                        promoted(&p.post, out);
                        promoted(&p.emit, out);
                    }
                    _ => {}
                }
            }
        }
        let mut kings = vec![];
        for p in &game.pieces {
            for prog in p.moves.iter().chain(&p.drops) {
                promoted(&prog.body, &mut kings);
            }
        }
        kings.sort();
        kings.dedup();
        let Backends {
            flat,
            royal_listed,
            count,
            sample,
            draughts,
            sow,
            general,
        } = Backends::choose(game, &royal, options);
        let index = gen::ProgramIndex::new(game, general).with_hooks(hooks.clone());
        // Modules that keep exactly the drops on their sites and end the game from the count of moves
        // (`Hooks::listed`): their games list into the move buffer too, off the general path.
        let flat = flat
            || (!general
                && !hooks.is_empty()
                && hooks.iter().all(|h| h.listed())
                && index.drop_sites(game)
                && game.phases.is_empty()
                && matches!(game.options.maximal_captures, MaximalCaptures::No)
                && game.capture_order.is_empty()
                && game.invariants.is_empty()
                && game.forbid_repetition.is_none()
                && game.huffing.is_none()
                && royal.iter().all(|r| r.is_empty()));
        let start = Engine::start_of(game, &hooks);
        Ok(Engine {
            start,
            game,
            options,
            index,
            hooks,
            royal,
            kings,
            flat,
            count,
            royal_listed,
            sample,
            draughts,
            sow,
            stalemated_only: game
                .end_conditions
                .iter()
                .all(|ec| matches!(ec.cond, EndCond::Stalemated)),
            reads_history: !game.extensions.is_empty()
                || game
                    .end_conditions
                    .iter()
                    .any(|ec| cond_reads_history(&ec.cond)),
        })
    }

    /// The options this engine plays with.
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// The hooks of the game's extension modules, in the order the game names them.
    pub fn extension_hooks(&self) -> &[&'static dyn Hooks] {
        &self.hooks
    }

    /// Whether the end of the game may read the history of position keys (see the field); where it may not,
    /// the history given to the outcome functions is never read, so a playout need not keep it.
    pub fn reads_history(&self) -> bool {
        self.reads_history
    }

    /// The draughts plan of this game, if the analysis accepts it (see `draughts`).
    pub fn draughts_plan(&self) -> Option<&draughts::DraughtsPlan> {
        self.draughts.as_ref()
    }

    /// How many of the game's `sow` instructions read their board-only conditions from tables built once
    /// (`gen::sow::Tables`); none on the general path.
    pub fn sow_tabled(&self) -> usize {
        self.index.sow_tabled()
    }

    /// Whether the generation runs drops only where the game's modules say they may land
    /// ([`Hooks::drop_sites`]; never on the general path).
    pub fn drop_sites(&self) -> bool {
        self.index.drop_sites(self.game)
    }

    /// The sowing kernel's plan of this game, if the analysis accepts it (see `sow_kernel`).
    pub fn sow_plan(&self) -> Option<&sow_kernel::SowPlan> {
        self.sow.as_ref()
    }

    /// The sampling plan of this game, if the analysis accepts it (see `sample`).
    pub fn sample_plan(&self) -> Option<&sample::SamplePlan> {
        self.sample.as_ref()
    }

    pub fn initial(&self) -> State {
        self.start.clone()
    }

    /// The start position: the setup, then the modules' own ([`Hooks::setup`], which reads the game alone).
    fn start_of(game: &Game, hooks: &[&'static dyn Hooks]) -> State {
        let mut s = State::initial(game);
        if !hooks.is_empty() {
            for m in hooks {
                m.setup(game, &mut s);
            }
            s.hash = s.full_hash();
        }
        s
    }

    /// The player whose turn it is.
    pub fn to_move(&self, s: &State) -> Player {
        self.game.turn_order.entries[s.turn].player
    }

    /// Whether the move of `s` is a chance event: the player to move is a random (`?`) player, or a module
    /// says the state is a throw ([`Hooks::chance`]).
    pub fn is_chance(&self, s: &State) -> bool {
        self.game.players[self.to_move(s).idx()].random
            || (!self.hooks.is_empty() && self.hooks.iter().any(|h| h.chance(self.game, s)))
    }

    /// The legal moves of `s`: the rules' own, then the extension modules' (`crate::extension`), then ko and
    /// superko on the whole moves ([`gen::complete_legal_moves`]).
    pub fn legal_moves(&self, s: &State) -> Result<Vec<Move>, EngineError> {
        gen::complete_legal_moves(self.game, &self.index, s, &self.royal, &self.kings)
    }

    /// Whether [`Engine::legal_into`] serves this game (see the field).
    pub fn flat(&self) -> bool {
        self.flat
    }

    /// The legal moves into a reusable move buffer, the same moves in the same order as
    /// [`Engine::legal_moves`]; only for games where [`Engine::flat`] holds (otherwise an error).
    #[inline]
    pub fn legal_into(&self, s: &State, out: &mut MoveList) -> Result<(), EngineError> {
        if !self.flat {
            return Err(EngineError::NotServed {
                game: self.game.title.clone(),
                what: "the move buffer does not apply this game's rules on complete moves",
            });
        }
        // A draughts plan lists the moves natively where it takes the position (no scratch needed).
        if let Some(plan) = &self.draughts {
            if plan.generate(self.game, s, out) {
                compose::add_pass(self.game, s, out);
                return Ok(());
            }
        }
        self.compose_into(s, out)
    }

    /// The composer's list of the legal moves of a flat game: with a repetition rule, every move whole (no
    /// handle, whatever `out.lazy` says) and those the rule forbids removed.
    fn compose_into(&self, s: &State, out: &mut MoveList) -> Result<(), EngineError> {
        let Some(rule) = self.game.forbid_repetition else {
            return compose::with_scratch(|scratch| {
                compose::generate_into(self.game, &self.index, s, out, scratch)
            });
        };
        let lazy = std::mem::replace(&mut out.lazy, false);
        let listed = compose::with_scratch(|scratch| {
            compose::generate_into(self.game, &self.index, s, out, scratch)
        });
        out.lazy = lazy;
        listed?;
        groups::filter_listed(self.game, s, rule, out);
        Ok(())
    }

    /// [`Engine::legal_into`] always on the general path (the interpreter and the composer), never on a native
    /// generator: the reference the draughts kernel is tested against.
    pub fn legal_into_general(&self, s: &State, out: &mut MoveList) -> Result<(), EngineError> {
        if !self.flat {
            return self.legal_into(s, out);
        }
        self.compose_into(s, out)
    }

    /// The index of move `i` of a move buffer in handle mode ([`MoveList::lazy`]) as a whole move: built and
    /// appended if it is a handle, else `i` itself.
    pub fn resolve(&self, s: &State, moves: &mut MoveList, i: usize) -> Result<usize, EngineError> {
        // A whole move is its own index: no scratch needed.
        if i < moves.len() && moves.handle(i).is_none() {
            return Ok(i);
        }
        if i >= moves.len() {
            // Past the end: the same error as every accessor's.
            moves.check(i)?;
        }
        compose::with_scratch(|scratch| {
            compose::resolve(self.game, &self.index, s, moves, i, scratch)
        })
    }

    /// [`Engine::outcome`] given the legal moves in a move buffer (games where [`Engine::flat`] holds).
    pub fn outcome_of_list(
        &self,
        s: &State,
        moves: &MoveList,
        history: &[u64],
    ) -> Result<Option<Outcome>, EngineError> {
        // A listed module's end of the game comes first (as in `Engine::outcome`).
        if let Some(o) = self.module_outcome(s, moves.len(), history) {
            return Ok(Some(o));
        }
        // As `end::outcome_of` decides it first: no `stalemated` holds while there is a move.
        if self.stalemated_only && !moves.is_empty() {
            return Ok(None);
        }
        let count = end::MoveCount {
            count: moves.len(),
            all_pass: (0..moves.len()).all(|i| moves.is_pass_in(i)),
        };
        end::outcome_of(
            self.game,
            s,
            count,
            history,
            &self.royal,
            self.options.general_path,
        )
    }

    /// The end of the game the modules of a flat game decide from the count of its legal moves
    /// ([`Hooks::outcome_counted`]; the modules of a flat game are all [`Hooks::listed`]).
    #[inline]
    fn module_outcome(&self, s: &State, count: usize, history: &[u64]) -> Option<Outcome> {
        if self.hooks.is_empty() {
            return None;
        }
        self.hooks
            .iter()
            .find_map(|h| h.outcome_counted(self.game, s, count, history))
    }

    /// The count-only plan of this game, if the analysis accepts it (see `count`).
    pub fn count_plan(&self) -> Option<&count::CountPlan> {
        self.count.as_ref()
    }

    /// [`Engine::outcome`] given only how many legal moves there are and whether all are passes (games where
    /// [`Engine::flat`] holds).
    pub fn outcome_of_count(
        &self,
        s: &State,
        count: usize,
        all_pass: bool,
        history: &[u64],
    ) -> Result<Option<Outcome>, EngineError> {
        if let Some(o) = self.module_outcome(s, count, history) {
            return Ok(Some(o));
        }
        end::outcome_of(
            self.game,
            s,
            end::MoveCount { count, all_pass },
            history,
            &self.royal,
            self.options.general_path,
        )
    }

    /// The outcome of `s` where the game is over there whatever its legal moves, judged without listing them:
    /// the end conditions (and a flat game's modules, [`Hooks::outcome_counted`]) asked as if the player to
    /// move had one move, one pass only, and no move, and the game over with the same results in all three.
    /// `None` where the game goes on, where the answer depends on the moves (a checkmate, a stalemate) or where
    /// a module reads the whole list (a game that is not flat with modules). What MCTS's decisive-move checks
    /// ask after each candidate move: never a win the full [`Engine::outcome`] would not give.
    pub fn outcome_unlisted(
        &self,
        s: &State,
        history: &[u64],
    ) -> Result<Option<Outcome>, EngineError> {
        if !self.hooks.is_empty() && !self.flat {
            return Ok(None);
        }
        let judge = |count: usize, all_pass: bool| {
            if self.hooks.is_empty() {
                end::outcome_of(
                    self.game,
                    s,
                    end::MoveCount { count, all_pass },
                    history,
                    &self.royal,
                    self.options.general_path,
                )
            } else {
                self.outcome_of_count(s, count, all_pass, history)
            }
        };
        let Some(o) = judge(1, false)? else {
            return Ok(None);
        };
        for (count, all_pass) in [(1, true), (0, true)] {
            if judge(count, all_pass)?.is_none_or(|p| p.results != o.results) {
                return Ok(None);
            }
        }
        Ok(Some(o))
    }

    /// Plays move `i` of a move buffer on the state in place, saving in `undo` what [`Engine::unmake`] needs;
    /// an error (the state untouched) where `i` is not a whole move of the list ([`MoveList::check`]).
    pub fn make_listed(
        &self,
        s: &mut State,
        moves: &MoveList,
        i: usize,
        undo: &mut apply::Undo,
    ) -> Result<(), EngineError> {
        moves.check(i)?;
        self.make_listed_in(s, moves, i, undo);
        Ok(())
    }

    /// [`Engine::make_listed`] unchecked, for the engine's loops over its own lists.
    pub(crate) fn make_listed_in(
        &self,
        s: &mut State,
        moves: &MoveList,
        i: usize,
        undo: &mut apply::Undo,
    ) {
        apply::make_parts(
            self.game,
            s,
            moves.heads_in(i).len(),
            |j| moves.view_in(i, j),
            undo,
        )
    }

    /// Plays move `i` of a move buffer on the state in place (no undo); an error (the state untouched) where
    /// `i` is not a whole move of the list ([`MoveList::check`]).
    pub fn play_listed(
        &self,
        s: &mut State,
        moves: &MoveList,
        i: usize,
    ) -> Result<(), EngineError> {
        moves.check(i)?;
        self.play_listed_in(s, moves, i);
        Ok(())
    }

    /// [`Engine::play_listed`] unchecked, for the engine's loops over its own lists.
    #[inline]
    pub(crate) fn play_listed_in(&self, s: &mut State, moves: &MoveList, i: usize) {
        // The moves a draughts plan lists, played natively (the same state after them).
        if let Some(plan) = &self.draughts {
            if plan.play(self.game, s, moves, i) {
                return;
            }
        }
        apply::play_parts(self.game, s, moves.heads_in(i).len(), |j| {
            moves.view_in(i, j)
        })
    }

    /// Whether [`Engine::candidates_into`] and [`Engine::listed_legal`] serve this game (see the field).
    pub fn royal_listed(&self) -> bool {
        self.royal_listed
    }

    /// The candidate moves of [`Engine::candidates`] into a move buffer (cleared first), in the same order;
    /// only for games where [`Engine::royal_listed`] holds (otherwise an error).
    pub fn candidates_into(&self, s: &State, out: &mut MoveList) -> Result<(), EngineError> {
        if !self.royal_listed {
            return Err(EngineError::NotServed {
                game: self.game.title.clone(),
                what: "the move buffer does not list this game's candidates",
            });
        }
        // With no pass, no phases and no rule over whole lists, the generation of the flat path lists exactly
        // the candidates.
        compose::with_scratch(|scratch| {
            compose::generate_into(self.game, &self.index, s, out, scratch)
        })
    }

    /// Whether candidate `i` of a list from [`Engine::candidates_into`] is legal for `player`, the player to
    /// move in `s`: made on `s`, tested against the `checkmated` rule, unmade (the answer of
    /// [`Engine::candidate_legal`]).
    pub fn listed_legal(
        &self,
        s: &mut State,
        list: &MoveList,
        i: usize,
        player: Player,
        undo: &mut apply::Undo,
    ) -> Result<bool, EngineError> {
        list.check(i)?;
        let Some(types) = self.royal.get(player.idx()).filter(|t| !t.is_empty()) else {
            return Ok(true);
        };
        self.make_listed_in(s, list, i, undo);
        let attacked = gen::royal_attacked(self.game, s, player, types);
        self.unmake(s, undo);
        Ok(!attacked?)
    }

    /// [`Engine::outcome`] given only how many legal moves there are and whether all are passes (games without
    /// extension modules, whose end conditions read no more of the list).
    pub fn outcome_counted(
        &self,
        s: &State,
        count: end::MoveCount,
        history: &[u64],
    ) -> Result<Option<Outcome>, EngineError> {
        debug_assert!(self.game.extensions.is_empty());
        end::outcome_of(
            self.game,
            s,
            count,
            history,
            &self.royal,
            self.options.general_path,
        )
    }

    /// Whether a random playout may draw among the candidate moves and test only the drawn move's legality
    /// ([`Engine::candidates`], [`Engine::candidate_legal`]), with the same legal moves as [`Engine::legal_moves`]:
    /// not when extension modules rewrite the list or read it to end the game, when a repetition rule filters
    /// it, or when the pass is always a move (`blocked` would need the whole list).
    pub fn lazy_legality(&self) -> bool {
        self.game.extensions.is_empty()
            && self.game.forbid_repetition.is_none()
            && self.game.options.pass_turn != PassTurn::Yes
    }

    /// Whether some candidate moves may be illegal: a player has `checkmated` pieces, or the game invariants.
    pub fn tests_moves(&self) -> bool {
        !self.game.invariants.is_empty() || self.royal.iter().any(|r| !r.is_empty())
    }

    /// The player to move and the candidate moves (see [`gen::candidates`]): the legal moves are those of them
    /// that [`Engine::candidate_legal`] accepts, or, when none is, [`Engine::no_candidate`].
    pub fn candidates(&self, s: &State) -> Result<(Player, Vec<Move>), EngineError> {
        gen::candidates(self.game, &self.index, s, &self.kings)
    }

    /// Whether a candidate move of `player` is legal.
    pub fn candidate_legal(
        &self,
        s: &State,
        player: Player,
        m: &Move,
    ) -> Result<bool, EngineError> {
        gen::candidate_legal(
            self.game,
            &self.index,
            s,
            &self.royal,
            &self.kings,
            player,
            m,
        )
    }

    /// The legal moves when no candidate is legal: the forced pass, or none.
    pub fn no_candidate(&self, s: &State) -> Vec<Move> {
        let mut v = vec![];
        gen::add_pass(self.game, s, &mut v);
        v
    }

    pub fn apply(&self, s: &State, m: &Move) -> State {
        gen::apply_move(self.game, s, m)
    }

    /// Plays a move on the state in place (no copy): what a game that never goes back needs. Unchecked: `m`
    /// must be one of the legal moves of `s` (as search plays them); [`Engine::play_checked`] refuses any
    /// other.
    pub fn play(&self, s: &mut State, m: &Move) {
        apply::play(self.game, s, m)
    }

    /// [`Engine::play`] for a move from outside: refuses, leaving `s` as it was, a move that is not one of the
    /// legal moves of `s` ([`Engine::legal_moves`]) — a move of the other player, a move of another position,
    /// any move where there is none. It does not ask whether the game is over ([`Engine::outcome`] needs the
    /// history of the positions).
    pub fn play_checked(&self, s: &mut State, m: &Move) -> Result<(), IllegalMove> {
        let legal = self.legal_moves(s)?;
        if !legal.contains(m) {
            return Err(IllegalMove::NotLegal { legal: legal.len() });
        }
        self.play(s, m);
        Ok(())
    }

    /// Plays a move on the state in place, saving in `undo` what [`Engine::unmake`] needs to take it back.
    pub fn make(&self, s: &mut State, m: &Move, undo: &mut apply::Undo) {
        apply::make(self.game, s, m, undo)
    }

    /// Takes back the latest move made with [`Engine::make`].
    pub fn unmake(&self, s: &mut State, undo: &mut apply::Undo) {
        apply::unmake(s, undo)
    }

    /// The outcome, if the game is over in `s` (`moves` are its legal moves; `history` earlier position keys).
    pub fn outcome(
        &self,
        s: &State,
        moves: &[Move],
        history: &[u64],
    ) -> Result<Option<Outcome>, EngineError> {
        // An extension module's end of the game comes before the file's own conditions.
        for m in &self.hooks {
            if let Some(o) = m.outcome(self.game, s, moves, history) {
                return Ok(Some(o));
            }
        }
        end::outcome(
            self.game,
            s,
            moves,
            history,
            &self.royal,
            self.options.general_path,
        )
    }

    /// Leaf count at `depth`; positions where the game is over are not expanded.
    pub fn perft(&self, s: &State, depth: u32) -> Result<u64, EngineError> {
        let mut work = s.clone();
        let mut undo = apply::Undo::new();
        if self.flat {
            let mut lists = vec![MoveList::new(); depth as usize];
            // The last level counted, not listed, where the count-only analysis accepts the game.
            if let Some(plan) = &self.count {
                let mut c = count::Counter::default();
                return count::perft(self, plan, &mut work, depth, &mut undo, &mut lists, &mut c);
            }
            return self.perft_flat(&mut work, depth, &mut undo, &mut lists);
        }
        if self.royal_listed {
            let mut lists = vec![Default::default(); depth as usize];
            return self.perft_royal(&mut work, depth, &mut undo, &mut lists);
        }
        self.perft_in(&mut work, depth, &mut undo)
    }

    /// Perft with a move buffer per depth, reused across the whole count (games where `flat` holds).
    fn perft_flat(
        &self,
        s: &mut State,
        depth: u32,
        undo: &mut apply::Undo,
        lists: &mut [MoveList],
    ) -> Result<u64, EngineError> {
        if depth == 0 {
            return Ok(1);
        }
        let (list, deeper) = lists.split_first_mut().expect("a buffer per depth");
        self.legal_into(s, list)?;
        if self.outcome_of_list(s, list, &[])?.is_some() {
            return Ok(0);
        }
        if depth == 1 {
            return Ok(list.len() as u64);
        }
        let mut n = 0;
        for i in 0..list.len() {
            self.make_listed_in(s, list, i, undo);
            let r = self.perft_flat(s, depth - 1, undo, deeper);
            self.unmake(s, undo);
            n += r?;
        }
        Ok(n)
    }

    /// Perft with a move buffer of candidates per depth, each tested by make and unmake (games where
    /// `royal_listed` holds): the legal moves of [`Engine::legal_moves`], in the same order.
    fn perft_royal(
        &self,
        s: &mut State,
        depth: u32,
        undo: &mut apply::Undo,
        lists: &mut [(MoveList, Vec<u32>, legality::LegalityCache)],
    ) -> Result<u64, EngineError> {
        if depth == 0 {
            return Ok(1);
        }
        let ((list, legal, cache), deeper) = lists.split_first_mut().expect("a buffer per depth");
        self.candidates_into(s, list)?;
        let player = self.to_move(s);
        legal.clear();
        match self.royal.get(player.idx()).filter(|t| !t.is_empty()) {
            None => legal.extend(0..list.len() as u32),
            Some(types) => {
                let cached = cache.rebuild(self.game, s, player, types)?;
                for i in 0..list.len() {
                    let ok = if cached {
                        !cache.attacked_listed(self.game, s, list, i, undo, player, types)?
                    } else {
                        self.listed_legal(s, list, i, player, undo)?
                    };
                    if ok {
                        legal.push(i as u32);
                    }
                }
            }
        }
        let count = end::MoveCount {
            count: legal.len(),
            all_pass: legal.iter().all(|&i| list.is_pass_in(i as usize)),
        };
        if self.outcome_counted(s, count, &[])?.is_some() {
            return Ok(0);
        }
        if depth == 1 {
            return Ok(legal.len() as u64);
        }
        let mut n = 0;
        for &i in legal.iter() {
            self.make_listed_in(s, list, i as usize, undo);
            let r = self.perft_royal(s, depth - 1, undo, deeper);
            self.unmake(s, undo);
            n += r?;
        }
        Ok(n)
    }

    /// Perft on one working state, each move made and unmade.
    fn perft_in(
        &self,
        s: &mut State,
        depth: u32,
        undo: &mut apply::Undo,
    ) -> Result<u64, EngineError> {
        if depth == 0 {
            return Ok(1);
        }
        let moves = self.legal_moves(s)?;
        if self.outcome(s, &moves, &[])?.is_some() {
            return Ok(0);
        }
        if depth == 1 {
            return Ok(moves.len() as u64);
        }
        let mut n = 0;
        for m in &moves {
            self.make(s, m, undo);
            let r = self.perft_in(s, depth - 1, undo);
            self.unmake(s, undo);
            n += r?;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::{below, game_rng};
    use crate::load::{load_game, VariantSel};

    /// Each kind of error renders the text the engine gave it when errors were their text (tests and outputs
    /// read it).
    #[test]
    fn errors_render_their_old_texts() {
        let g = || "Chess".to_string();
        let cases = [
            (
                EngineError::Runaway {
                    game: g(),
                    from: "e2".into(),
                    program: "(n add)".into(),
                },
                "Chess: a move program ran more than 1000000 steps from e2 (an endless `while`?): (n add)",
            ),
            (
                EngineError::TooManyActions { game: g() },
                "Chess: the move programs of one position emitted more than 10000000 actions",
            ),
            (
                EngineError::TooLarge { game: g() },
                "Chess: a composite move grew past 256 parts, or the position past 200000 moves or 2000000 \
                 parts in all",
            ),
            (
                EngineError::UnknownModule {
                    game: g(),
                    module: "gravity".into(),
                },
                "Chess: unknown extension module `gravity`",
            ),
            (
                EngineError::Inconsistent {
                    game: g(),
                    what: "a listed move could not be rebuilt".into(),
                },
                "Chess: a listed move could not be rebuilt",
            ),
            (EngineError("any text".into()), "any text"),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
        // A live one: the move buffer refuses chess, whose royal pieces judge the complete moves.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/chess.zrf");
        let game = load_game(&path, &VariantSel::First).unwrap();
        let engine = Engine::with_options(&game, EngineOptions::default());
        let err = engine
            .legal_into(&engine.initial(), &mut MoveList::new())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}: the move buffer does not apply this game's rules on complete moves",
                game.title
            )
        );
        assert!(matches!(err, EngineError::NotServed { .. }));
    }

    /// The incremental Zobrist hash equals the hash computed from scratch after every move of random games, in
    /// games with captures, promotions, attributes, castling and composite moves.
    #[test]
    fn incremental_hash_matches_full_hash() {
        for file in [
            "games/chess.zrf",
            "games/english-checkers.zrf",
            "games/breakthrough.zrf",
        ] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            let game = load_game(&path, &VariantSel::First).unwrap();
            let engine = Engine::new(&game);
            for g in 0..20 {
                let mut rng = game_rng(7, g);
                let mut s = engine.initial();
                for _ in 0..200 {
                    assert_eq!(s.hash, s.full_hash(), "{file} game {g} ply {}", s.ply);
                    let moves = engine.legal_moves(&s).unwrap();
                    if moves.is_empty() {
                        break;
                    }
                    s = engine.apply(&s, &moves[below(&mut rng, moves.len())]);
                }
            }
        }
    }
}
