//! `(extension NAME...)`: the Rust modules a game names (see `docs/extensions.md`). An unknown name is an
//! error at its place; a module whose `check` refuses the game is an error at the form; the missing rules a
//! module covers are dropped, with their warnings.
//!
//! The compiler imports no module: what it needs to know of one (its name, the setup positions it accounts
//! for, what it adds to the game, whether it keeps stacks, which missing rules it covers) is the [`Module`]
//! trait defined here, and the caller hands the compiler the modules it knows (`crate::load` gives every
//! registered one). A compiled [`Game`] names its modules ([`ExtensionRef`]); the engine resolves the names to
//! the modules' hooks.

use super::{Compiler, ExtensionRef, Game, MissingKind, MissingRule};
use crate::lang::{Diagnostic, Node, Span};

/// What the compiler knows of an extension module: the compile-time half of a module (the engine's half is
/// `engine::Hooks`). Implementations are unit structs kept in statics.
pub trait Module: Send + Sync {
    /// The name a file or the command line uses (`connect-four`).
    fn name(&self) -> &'static str;

    /// One line on what the module plays, for `dagaz check` and the list of known modules.
    fn description(&self) -> &'static str {
        ""
    }

    /// Asked while the file is compiled, before its `board-setup` is resolved, for each position the setup
    /// names and the board lacks: `Some(why)` when the module accounts for that name (the piece is not
    /// placed, and a warning gives `why`); `None` leaves it an error. The modules asked are the file's own
    /// and the command line's (`--extension`).
    fn setup_position(&self, _name: &str) -> Option<&'static str> {
        None
    }

    /// Called once when the module is attached to a game, before `check`, with the game still open to
    /// change: declares what the module's moves need and the file lacks (the mancala modules add the
    /// integer attribute that counts a pit's seeds; `go` turns on `forbid-repetition simple-ko`, so that the
    /// state keeps the history ko needs; `alak` declares the variable of its ko cells). An `Err` is a load
    /// error naming the module.
    fn prepare(&self, _game: &mut Game) -> Result<(), String> {
        Ok(())
    }

    /// Called once when the module is attached to a game: whether the game has what the module needs (a
    /// direction, a piece type, a player count). An `Err` is a load error naming the module.
    fn check(&self, _game: &Game) -> Result<(), String> {
        Ok(())
    }

    /// Whether the module's game keeps columns of pieces (as if the file declared `(stacks)`): the state then
    /// has the column table from the start, and position texts may stack pieces.
    fn stacks(&self) -> bool {
        false
    }

    /// The missing rules this module supplies, so that `Game::missing_rules` no longer lists them: an option
    /// or section name as the file writes it (`"ko"`, `"go-captures"`; matched regardless of case, dashes and
    /// underscores as spaces), or `"no-end-condition"` when the module decides the end of the game,
    /// `"stacked-setup"` when it reads a position the setup lists several times (backgammon's checker counts).
    fn covers(&self) -> &[&str] {
        &[]
    }
}

impl std::fmt::Debug for dyn Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "extension {}", self.name())
    }
}

/// The module of `known` registered under `name` (case-insensitive).
pub fn lookup(known: &[&'static dyn Module], name: &str) -> Option<&'static dyn Module> {
    known
        .iter()
        .copied()
        .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
}

/// The hint for an unknown module name: the known ones, or why there are none.
fn known_hint(known: &[&'static dyn Module]) -> String {
    if known.is_empty() {
        "this compile was given no extension modules; `dagaz::load::compile_source` knows every \
         registered module"
            .to_string()
    } else {
        let names: Vec<_> = known.iter().map(|m| m.name()).collect();
        format!("the known modules are: {}", names.join(", "))
    }
}

/// The record of module `m` in a game.
fn reference(m: &dyn Module) -> ExtensionRef {
    ExtensionRef {
        name: m.name().to_string(),
        description: m.description().to_string(),
        stacks: m.stacks(),
        covers: m.covers().iter().map(|c| c.to_string()).collect(),
    }
}

/// Attaches a module to a compiled game (the command line's `--extension`): runs its `prepare` and `check`,
/// then drops the missing rules it covers. A module the game already has is not added twice.
pub fn attach(game: &mut Game, m: &dyn Module) -> Result<(), String> {
    if game.extensions.iter().any(|e| e.name == m.name()) {
        return Ok(());
    }
    m.prepare(game)
        .and_then(|()| m.check(game))
        .map_err(|e| format!("extension module `{}`: {e}", m.name()))?;
    game.extensions.push(reference(m));
    drop_covered(game);
    Ok(())
}

/// Whether a missing rule is supplied by one of the game's modules.
pub fn is_covered(game: &Game, rule: &MissingRule) -> bool {
    let key = |s: &str| s.trim().to_ascii_lowercase().replace(['-', '_'], " ");
    let name = key(&rule.name);
    let kind = key(rule.kind.as_str());
    game.extensions.iter().any(|m| {
        // A Dagaz rule script: by the module's `covers()` or the table of what modules play.
        if rule.kind == MissingKind::Script && super::dagaz_site::module_applies(m, &rule.name) {
            return true;
        }
        m.covers.iter().any(|c| {
            let c = key(c);
            // A kind of rule that names no option (a game without an end condition, a setup of several
            // pieces on one position) is covered by the kind's name.
            (!name.is_empty() && c == name)
                || (matches!(
                    rule.kind,
                    MissingKind::NoEndCondition
                        | MissingKind::StackedSetup
                        | MissingKind::MoverDice
                        | MissingKind::SeedSteps
                ) && c == kind)
        })
    })
}

/// Removes from `Game::missing_rules` what the game's modules supply.
pub fn drop_covered(game: &mut Game) {
    if game.extensions.is_empty() {
        return;
    }
    let rules = std::mem::take(&mut game.missing_rules);
    game.missing_rules = rules.into_iter().filter(|r| !is_covered(game, r)).collect();
}

impl Compiler<'_> {
    /// Reads one `(extension NAME...)` section into `out` (module and the span of its name).
    pub(super) fn extensions(&mut self, s: &Node, out: &mut Vec<(&'static dyn Module, Span)>) {
        if s.args().is_empty() {
            self.err(
                s.span,
                "`extension` needs the name of a module, as in `(extension connect-four)`",
            );
        }
        for a in s.args() {
            let Some(name) = a.text() else {
                self.err(
                    a.span,
                    "an extension module is named by a word, as in `(extension connect-four)`",
                );
                continue;
            };
            match lookup(self.known, name) {
                Some(m) if out.iter().any(|(x, _)| x.name() == m.name()) => {
                    self.diags.push(Diagnostic::warning(
                        a.span,
                        format!("extension module `{name}` is named twice"),
                    ))
                }
                Some(m) => out.push((m, a.span)),
                None => {
                    let d = Diagnostic::error(a.span, format!("unknown extension module `{name}`"))
                        .with_hint(known_hint(self.known));
                    self.diags.push(d);
                }
            }
        }
    }

    /// Runs each module's `check` on the compiled game and attaches the modules; `false` on an error.
    pub(super) fn attach_extensions(
        &mut self,
        game: &mut Game,
        modules: &[(&'static dyn Module, Span)],
    ) -> bool {
        let mut ok = true;
        for &(m, span) in modules {
            if let Err(e) = m.prepare(game).and_then(|()| m.check(game)) {
                self.err(span, format!("extension module `{}`: {e}", m.name()));
                ok = false;
            }
            game.extensions.push(reference(m));
        }
        // The warnings of the rules the modules supply go with them.
        let covered: Vec<_> = game
            .missing_rules
            .iter()
            .filter(|r| is_covered(game, r))
            .map(|r| (r.span, r.clause()))
            .collect();
        self.diags.retain(|d| {
            d.is_error()
                || !covered
                    .iter()
                    .any(|(sp, msg)| d.span == Some(*sp) && d.message == *msg)
        });
        drop_covered(game);
        ok
    }
}
