//! Invariants and teams: `(invariant (name "...") CONDITION)` sections, `(allies (A C) (B D))`, and the end
//! conditions `(attacked T...)` / `(all-attacked T...)`. See `docs/language.md`, section Invariants.

use super::game::*;
use super::Compiler;
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node, NodeKind};
use rustc_hash::FxHashMap as HashMap;

const INVARIANT_WORDS: &[&str] = &[
    "not-attacked",
    "not-all-attacked",
    "facing",
    "moved",
    "dropped",
    "mates",
    "drop-mate",
    "and",
    "or",
    "not",
];

impl Compiler<'_> {
    /// `(invariant (name "...") CONDITION)`.
    pub(super) fn invariant(
        &mut self,
        s: &Node,
        pieces: &HashMap<String, PieceType>,
        board: &Board,
    ) -> Option<Invariant> {
        let mut name = None;
        let mut conds = vec![];
        for a in s.args() {
            if a.head().is_some_and(|h| h.eq_ignore_ascii_case("name")) {
                match a.args().first().and_then(|n| n.text()) {
                    Some(n) => name = Some(n.to_string()),
                    None => self.err(a.span, "`name` needs a text, as in `(name \"check\")`"),
                }
            } else {
                conds.push(a);
            }
        }
        let cond = match conds.as_slice() {
            [one] => self.inv_cond(one, pieces, board)?,
            [] => {
                self.diags.push(
                    Diagnostic::error(s.span, "`invariant` needs a condition")
                        .with_hint("as in `(invariant (name \"check\") (not-attacked King))`"),
                );
                return None;
            }
            many => InvCond::And(
                many.iter()
                    .filter_map(|n| self.inv_cond(n, pieces, board))
                    .collect(),
            ),
        };
        Some(Invariant {
            name: name.unwrap_or_else(|| "invariant".to_string()),
            cond,
            span: s.span,
        })
    }

    fn inv_cond(
        &mut self,
        node: &Node,
        pieces: &HashMap<String, PieceType>,
        board: &Board,
    ) -> Option<InvCond> {
        let (head, args) = match &node.kind {
            NodeKind::List(items) if !items.is_empty() && items[0].atom().is_some() => {
                (items[0].atom().unwrap().to_ascii_lowercase(), &items[1..])
            }
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        node.span,
                        "expected an invariant condition, a list such as `(not-attacked King)`",
                    )
                    .with_hint(format!(
                        "invariant conditions are {}",
                        INVARIANT_WORDS.join(", ")
                    )),
                );
                return None;
            }
        };
        let need_types = |c: &mut Self, ts: &[Node]| -> Option<Vec<PieceType>> {
            if ts.is_empty() {
                c.err(node.span, format!("`{head}` needs piece types"));
                return None;
            }
            Some(c.piece_list(ts, pieces))
        };
        Some(match head.as_str() {
            "not-attacked" | "not-all-attacked" => InvCond::NotAttacked {
                types: need_types(self, args)?,
                all: head == "not-all-attacked",
            },
            "facing" => {
                let mut types = vec![];
                let mut dirs = vec![];
                for a in args {
                    let word = a.atom().unwrap_or("");
                    if let Some(d) = board.direction(word) {
                        dirs.push(d);
                    } else if pieces.contains_key(&word.to_ascii_lowercase()) || a.list().is_some()
                    {
                        types.extend(self.piece_list(std::slice::from_ref(a), pieces));
                    } else {
                        let d = Diagnostic::error(
                            a.span,
                            format!(
                                "`{}` is neither a piece type nor a direction",
                                a.text().unwrap_or("(list)")
                            ),
                        );
                        let names = pieces.keys().map(String::as_str);
                        let d = match suggest(word, names) {
                            Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                            None => d.with_hint("`facing` takes piece types, then directions: `(facing General n s)`"),
                        };
                        self.diags.push(d);
                    }
                }
                if types.is_empty() || dirs.is_empty() {
                    self.diags.push(
                        Diagnostic::error(node.span, "`facing` needs piece types and directions")
                            .with_hint("as in `(facing General n s)`"),
                    );
                    return None;
                }
                InvCond::Facing { types, dirs }
            }
            "moved" => InvCond::Moved(need_types(self, args)?),
            "dropped" => InvCond::Dropped(need_types(self, args)?),
            "mates" => InvCond::Mates(need_types(self, args)?),
            "drop-mate" => {
                let (Some(first), rest) = (args.first(), args.get(1..).unwrap_or(&[])) else {
                    self.err(
                        node.span,
                        "`drop-mate` needs the dropped type and the royal types",
                    );
                    return None;
                };
                let types = self.piece_list(std::slice::from_ref(first), pieces);
                let royal = need_types(self, rest)?;
                InvCond::And(vec![InvCond::Dropped(types), InvCond::Mates(royal)])
            }
            "and" | "or" => {
                let subs: Vec<InvCond> = args
                    .iter()
                    .filter_map(|a| self.inv_cond(a, pieces, board))
                    .collect();
                if head == "and" {
                    InvCond::And(subs)
                } else {
                    InvCond::Or(subs)
                }
            }
            "not" => match args {
                [one] => InvCond::Not(Box::new(self.inv_cond(one, pieces, board)?)),
                _ => {
                    self.err(node.span, "`not` takes one condition");
                    return None;
                }
            },
            _ => {
                let d =
                    Diagnostic::error(node.span, format!("unknown invariant condition `{head}`"));
                let d = match suggest(&head, INVARIANT_WORDS.iter().copied()) {
                    Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                    None => d.with_hint(format!(
                        "invariant conditions are {}",
                        INVARIANT_WORDS.join(", ")
                    )),
                };
                self.diags.push(d);
                return None;
            }
        })
    }

    /// `(allies (A C) (B D))`: each list is a team. A player in no list is a team of its own.
    pub(super) fn allies(&mut self, s: &Node, players: &[PlayerInfo], teams: &mut [u8]) {
        let mut seen = vec![false; players.len()];
        for a in s.args() {
            let Some(list) = a.list() else {
                self.diags.push(
                    Diagnostic::error(a.span, "a team is a list of players")
                        .with_hint("as in `(allies (North South) (East West))`"),
                );
                continue;
            };
            let mut first = None;
            for p in list {
                let Some(pl) = self.player(p, players) else {
                    continue;
                };
                if std::mem::replace(&mut seen[pl.idx()], true) {
                    self.err(
                        p.span,
                        format!("player `{}` is in two teams", p.text().unwrap_or("")),
                    );
                    continue;
                }
                let team = *first.get_or_insert(teams[pl.idx()]);
                teams[pl.idx()] = team;
            }
        }
    }

    /// `(attacked T...)`, `(all-attacked T...)` as end conditions.
    pub(super) fn attacked_end_cond(
        &mut self,
        node: &Node,
        head: &str,
        args: &[Node],
        pieces: &HashMap<String, PieceType>,
    ) -> Option<EndCond> {
        if args.is_empty() {
            self.diags.push(
                Diagnostic::error(node.span, format!("`{head}` needs piece types"))
                    .with_hint(format!("as in `({head} King)`")),
            );
            return None;
        }
        Some(EndCond::Attacked {
            types: self.piece_list(args, pieces),
            all: head == "all-attacked",
        })
    }
}
