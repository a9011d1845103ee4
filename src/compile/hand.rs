//! `(captures-to-hand (Promoted Base) ...)`: a captured piece changes sides and goes to the captor's reserve,
//! as its base type (shogi's hand). ZRF's `recycle captures` returns pieces to their owner's reserve, and
//! stays so. The engine side is in `engine::gen` (`apply_part`, `parts`). See `docs/language.md`,
//! "Captures to hand".

use super::{Compiler, PieceType};
use crate::lang::Node;
use rustc_hash::FxHashMap as HashMap;

impl Compiler<'_> {
    /// Reads one `(captures-to-hand (Promoted Base)...)` section into `map` (the type each captured type
    /// enters the hand as, indexed by piece type); reports every error with its place.
    pub(super) fn captures_to_hand(
        &mut self,
        s: &Node,
        pieces: &HashMap<String, PieceType>,
        map: &mut [PieceType],
    ) {
        for a in s.args() {
            let Some([from, to]) = a.list() else {
                self.err(
                    a.span,
                    "a captures-to-hand entry is (PROMOTED BASE), as in `(Tokin Pawn)`",
                );
                continue;
            };
            let get = |c: &mut Self, n: &Node| match n
                .atom()
                .and_then(|w| pieces.get(&w.to_ascii_lowercase()))
            {
                Some(&t) => Some(t),
                None => {
                    c.unknown_piece(n, pieces);
                    None
                }
            };
            let (f, t) = (get(self, from), get(self, to));
            let (Some(f), Some(t)) = (f, t) else { continue };
            if map[f.idx()] != f {
                self.err(
                    a.span,
                    format!(
                        "`{}` is demoted twice in captures-to-hand",
                        from.atom().unwrap_or("")
                    ),
                );
                continue;
            }
            map[f.idx()] = t;
        }
    }
}
