//! Groups, connections and repetition rules (this project's extension, `docs/language.md`, "Groups,
//! connections and repetition"): Go's captures and suicide, Hex's connection, ko and superko.
//!
//! A group is a maximal set of pieces of one player, each next to another along any of the board's
//! directions; its liberties are the empty positions next to it. The forms compiled here:
//! * in move programs: `(capture-groups [suicide] [LOC])`, `suicide?`, `(liberties [LOC])`, `(group-size [LOC])`;
//! * in end conditions: `(connects ZONE ZONE... [T...])`, `(caused-repetition [N])`, the numbers `(area
//!   [PLAYER])` and `(passes)`;
//! * the section `(forbid-repetition simple-ko | positional-superko | situational-superko)`.
//!
//! The engine side is `engine/groups.rs`.

use super::game::*;
use super::numbers::Expr;
use super::program::ProgramCompiler;
use super::Compiler;
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node};
use rustc_hash::FxHashMap as HashMap;

/// `(forbid-repetition ...)`: which earlier positions a move may not recreate. A pass is never refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// The position before the opponent's last move (Go's ko).
    SimpleKo,
    /// Any earlier position of the game, whoever was to move in it.
    PositionalSuperko,
    /// Any earlier position of the game with the same player to move.
    SituationalSuperko,
}

const RULES: &[(&str, RepetitionRule)] = &[
    ("simple-ko", RepetitionRule::SimpleKo),
    ("positional-superko", RepetitionRule::PositionalSuperko),
    ("situational-superko", RepetitionRule::SituationalSuperko),
];

/// The rule's name as written in `forbid-repetition`.
pub fn rule_name(rule: RepetitionRule) -> &'static str {
    RULES.iter().find(|r| r.1 == rule).map_or("?", |r| r.0)
}

impl Compiler<'_> {
    /// `(forbid-repetition RULE)`.
    pub(super) fn forbid_repetition(&mut self, s: &Node) -> Option<RepetitionRule> {
        let hint = "(forbid-repetition simple-ko), positional-superko or situational-superko";
        let [arg] = s.args() else {
            self.diags.push(
                Diagnostic::error(s.span, "`forbid-repetition` names one rule").with_hint(hint),
            );
            return None;
        };
        let word = arg.atom().unwrap_or("").to_ascii_lowercase();
        match RULES.iter().find(|(w, _)| *w == word) {
            Some(&(_, r)) => Some(r),
            None => {
                let d = Diagnostic::error(
                    arg.span,
                    format!("unknown repetition rule `{}`", arg.to_source()),
                );
                self.diags
                    .push(match suggest(&word, RULES.iter().map(|r| r.0)) {
                        Some(w) => d.with_hint(format!("did you mean `{w}`?")),
                        None => d.with_hint(hint),
                    });
                None
            }
        }
    }

    /// `(connects ZONE ZONE... [T...])`: the words are zones, then piece types.
    pub(super) fn connects(
        &mut self,
        node: &Node,
        args: &[Node],
        pieces: &HashMap<String, PieceType>,
        board: &Board,
    ) -> Option<EndCond> {
        let mut zones = vec![];
        let mut types = vec![];
        for a in args {
            let w = a.atom().unwrap_or("");
            if let Some(z) = board.zone(w).filter(|_| types.is_empty()) {
                zones.push(z);
            } else if let Some(&t) = pieces.get(&w.to_ascii_lowercase()) {
                types.push(t);
            } else {
                let d = Diagnostic::error(
                    a.span,
                    format!("unknown zone or piece type `{}`", a.to_source()),
                );
                let names = board
                    .zones
                    .iter()
                    .map(|z| z.name.as_str())
                    .chain(pieces.keys().map(String::as_str));
                self.diags.push(match suggest(w, names) {
                    Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                    None => d.with_hint("(connects top bottom), zones first, then piece types"),
                });
                return None;
            }
        }
        if zones.len() < 2 {
            self.diags.push(
                Diagnostic::error(node.span, "`connects` needs at least two zones")
                    .with_hint("(connects top bottom): a chain of the player's pieces links them"),
            );
            return None;
        }
        Some(EndCond::Connects { zones, types })
    }

    /// `(caused-repetition [N])`, N at least 2 (3 when left out).
    pub(super) fn caused_repetition(&mut self, node: &Node, args: &[Node]) -> Option<EndCond> {
        let n = match args {
            [] => 3,
            [a] => match a.atom().and_then(|t| t.parse::<u32>().ok()) {
                Some(n) if n >= 2 => n,
                _ => {
                    self.diags.push(
                        Diagnostic::error(
                            a.span,
                            "`caused-repetition` counts occurrences: a whole number of at least 2",
                        )
                        .with_hint("(caused-repetition 3)"),
                    );
                    return None;
                }
            },
            _ => {
                self.diags.push(
                    Diagnostic::error(node.span, "`caused-repetition` takes at most one count")
                        .with_hint("(caused-repetition 3)"),
                );
                return None;
            }
        };
        Some(EndCond::CausedRepetition(n))
    }
}

/// The number forms of groups in an end condition (`(area [PLAYER])`, `(passes)`); `None` when `head` is
/// not one of them.
pub fn static_group_expr(
    diags: &mut Vec<Diagnostic>,
    players: &[PlayerInfo],
    node: &Node,
    head: &str,
    args: &[Node],
) -> Option<Expr> {
    match head {
        "area" => Some(area(diags, players, node, args)),
        "passes" => Some(passes(diags, node, args)),
        "quiet-plies" => Some(quiet_plies(diags, node, args)),
        "liberties" | "group-size" => {
            diags.push(
                Diagnostic::error(
                    node.span,
                    format!(
                        "`{head}` reads a group at the cursor: it is a number of move programs"
                    ),
                )
                .with_hint("end conditions read (area PLAYER), (passes), variables and integers"),
            );
            Some(Expr::Int(0))
        }
        _ => None,
    }
}

fn area(diags: &mut Vec<Diagnostic>, players: &[PlayerInfo], node: &Node, args: &[Node]) -> Expr {
    match args {
        [] => Expr::Area(None),
        [p] => match players
            .iter()
            .position(|x| p.atom().is_some_and(|a| x.name.eq_ignore_ascii_case(a)))
        {
            Some(i) => Expr::Area(Some(Player(i as u8))),
            None => {
                diags.push(Diagnostic::error(
                    p.span,
                    format!("unknown player `{}`", p.to_source()),
                ));
                Expr::Int(0)
            }
        },
        _ => {
            diags.push(
                Diagnostic::error(node.span, "`area` takes at most a player")
                    .with_hint("(area White)"),
            );
            Expr::Int(0)
        }
    }
}

fn passes(diags: &mut Vec<Diagnostic>, node: &Node, args: &[Node]) -> Expr {
    if !args.is_empty() {
        diags.push(
            Diagnostic::error(node.span, "`passes` takes no argument").with_hint("(>= (passes) 2)"),
        );
    }
    Expr::Passes
}

fn quiet_plies(diags: &mut Vec<Diagnostic>, node: &Node, args: &[Node]) -> Expr {
    if !args.is_empty() {
        diags.push(
            Diagnostic::error(node.span, "`quiet-plies` takes no argument")
                .with_hint("(>= (quiet-plies) 100), with the game's (irreversible Pawn)"),
        );
    }
    Expr::QuietPlies
}

impl ProgramCompiler<'_, '_> {
    /// The number forms of groups in a move program; `None` when `head` is not one of them.
    pub(super) fn group_expr(&mut self, node: &Node, head: &str, args: &[Node]) -> Option<Expr> {
        match head {
            "liberties" | "group-size" => {
                if args.len() > 1 {
                    self.diags.push(
                        Diagnostic::error(
                            node.span,
                            format!("`{head}` takes at most a position or direction"),
                        )
                        .with_hint(format!("({head} n)")),
                    );
                    return Some(Expr::Int(0));
                }
                let l = self.opt_loc(args);
                Some(if head == "liberties" {
                    Expr::Liberties(l)
                } else {
                    Expr::GroupSize(l)
                })
            }
            "area" => Some(area(self.diags, self.names.players, node, args)),
            "passes" => Some(passes(self.diags, node, args)),
            "quiet-plies" => Some(quiet_plies(self.diags, node, args)),
            _ => None,
        }
    }

    /// `(capture-groups [suicide] [LOC])`.
    pub(super) fn capture_groups(&mut self, node: &Node, args: &[Node]) -> Option<Instr> {
        let suicide = args.first().is_some_and(|a| a.is_atom("suicide"));
        let args = &args[suicide as usize..];
        if args.len() > 1 {
            self.diags.push(
                Diagnostic::error(
                    node.span,
                    "`capture-groups` takes `suicide` and at most a position or direction",
                )
                .with_hint("(capture-groups) or (capture-groups suicide)"),
            );
            return None;
        }
        Some(Instr::CaptureGroups(self.opt_loc(args), suicide))
    }
}
