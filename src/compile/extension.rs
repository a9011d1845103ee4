//! `(extension NAME...)`: the Rust modules a game names (see `crate::extension` and `docs/extensions.md`).
//! An unknown name is an error at its place; a module whose `check` refuses the game is an error at the
//! form; the missing rules a module covers are dropped, with their warnings.

use super::{Compiler, Game};
use crate::extension::{self, Extension};
use crate::lang::{Diagnostic, Node, Span};

impl Compiler<'_> {
    /// Reads one `(extension NAME...)` section into `out` (module and the span of its name).
    pub(super) fn extensions(&mut self, s: &Node, out: &mut Vec<(&'static dyn Extension, Span)>) {
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
            match extension::lookup(name) {
                Some(m) if out.iter().any(|(x, _)| x.name() == m.name()) => {
                    self.diags.push(Diagnostic::warning(
                        a.span,
                        format!("extension module `{name}` is named twice"),
                    ))
                }
                Some(m) => out.push((m, a.span)),
                None => {
                    let d = Diagnostic::error(a.span, format!("unknown extension module `{name}`"))
                        .with_hint(format!(
                            "the known modules are: {}",
                            extension::known().join(", ")
                        ));
                    self.diags.push(d);
                }
            }
        }
    }

    /// Runs each module's `check` on the compiled game and attaches the modules; `false` on an error.
    pub(super) fn attach_extensions(
        &mut self,
        game: &mut Game,
        modules: &[(&'static dyn Extension, Span)],
    ) -> bool {
        let mut ok = true;
        for &(m, span) in modules {
            if let Err(e) = m.prepare(game).and_then(|()| m.check(game)) {
                self.err(span, format!("extension module `{}`: {e}", m.name()));
                ok = false;
            }
            game.extensions.push(m);
        }
        // The warnings of the rules the modules supply go with them.
        let covered: Vec<_> = game
            .missing_rules
            .iter()
            .filter(|r| extension::is_covered(game, r))
            .map(|r| (r.span, r.clause()))
            .collect();
        self.diags.retain(|d| {
            d.is_error()
                || !covered
                    .iter()
                    .any(|(sp, msg)| d.span == Some(*sp) && d.message == *msg)
        });
        extension::drop_covered(game);
        ok
    }
}
