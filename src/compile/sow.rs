//! Sowing, the move of the mancala family (docs/language.md, "Sowing"): the `(sow ATTR DIR option...)`
//! instruction and the `(sum ATTR [(zone Z)] [opponent])` number. Seeds are counts: an integer piece
//! attribute of the pile standing in each pit, so that they are in the state's hash, its position format and
//! every copy, and a move carries its whole effect as attribute changes (`engine/sow.rs` plays it).

use super::game::*;
use super::numbers::Expr;
use super::program::ProgramCompiler;
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node, Span};

/// What happens when a capture would take every seed of the positions where captures are made (Oware's
/// "grand slam").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GrandSlam {
    /// The move is played, and captures nothing (Abapa, as OpenSpiel and the Oware Society play it).
    #[default]
    CaptureNothing,
    /// The move is not allowed.
    Illegal,
    /// The move captures as usual.
    Allowed,
}

/// `(capture COND (counts N...) [chain])`.
#[derive(Clone, Debug, PartialEq)]
pub struct SowCapture {
    /// Where a capture may be made (read with the cursor on the pit, on the board before the move).
    pub cond: Cond,
    /// The counts (after the seed lands) that capture.
    pub counts: Vec<i32>,
    /// Then the pits before it, against the sowing order, while each holds where `cond` and has such a count.
    pub chain: bool,
}

/// `(sow ATTR DIR option...)`: see docs/language.md, "Sowing".
#[derive(Clone, Debug, PartialEq)]
pub struct Sow {
    /// The integer attribute field that holds the seeds of a pile.
    pub field: u8,
    pub dir: Dir,
    pub skip_origin: bool,
    pub skip: Option<Cond>,
    /// The mover's store (the zone as it is for the mover): where captured seeds go.
    pub store: Option<ZoneId>,
    pub capture: Option<SowCapture>,
    /// `(capture-opposite COND DIR)`: the last seed in an empty pit where COND holds takes the seeds of the
    /// pit DIR from it, if any, with itself, to the store.
    pub opposite: Option<(Cond, Dir)>,
    pub grand_slam: GrandSlam,
    /// `(feed COND)`: when no position where COND holds has a seed, the move must sow into one of them.
    pub feed: Option<Cond>,
    /// `(again COND)`: the last seed landing where COND holds continues the move with another sowing.
    pub again: Option<Cond>,
    pub span: Span,
}

/// `(sum ATTR [(zone Z)] [opponent])`: the sum of an integer attribute over the pieces of a player (the mover
/// in a program, the tested player in an end condition; every other player together with `opponent`), or
/// over the positions of a zone as it is for that player, whoever owns the pieces there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sum {
    pub field: u8,
    pub zone: Option<ZoneId>,
    pub opponent: bool,
}

const OPTIONS: &[&str] = &[
    "skip-origin",
    "skip",
    "store",
    "capture",
    "capture-opposite",
    "grand-slam",
    "feed",
    "again",
];

/// `(sum ...)` from its arguments, given how to find an integer attribute and a zone. Shared by move
/// programs and end conditions.
pub fn sum(
    diags: &mut Vec<Diagnostic>,
    int_attr: &dyn Fn(&str) -> Option<u8>,
    board: &Board,
    node: &Node,
    args: &[Node],
) -> Expr {
    let hint = "(sum seeds), (sum seeds (zone store)), (sum seeds opponent)";
    let Some(field) = args.first().and_then(|n| n.atom()).and_then(int_attr) else {
        let at = args.first().map_or(node.span, |n| n.span);
        diags.push(
            Diagnostic::error(at, "`sum` needs an integer attribute").with_hint(
                "declare one on a piece with a number, (attribute seeds 4), then (sum seeds)",
            ),
        );
        return Expr::Int(0);
    };
    let mut out = Sum {
        field,
        zone: None,
        opponent: false,
    };
    for a in &args[1..] {
        if a.is_atom("opponent") {
            out.opponent = true;
        } else if a.head().is_some_and(|h| h.eq_ignore_ascii_case("zone")) {
            match a
                .args()
                .first()
                .and_then(|n| n.atom())
                .and_then(|z| board.zone(z))
            {
                Some(z) if a.args().len() == 1 => out.zone = Some(z),
                _ => diags.push(Diagnostic::error(
                    a.span,
                    "`(zone Z)` names one zone of the board",
                )),
            }
        } else {
            diags.push(
                Diagnostic::error(
                    a.span,
                    "`sum` takes an attribute, then (zone Z) and/or `opponent`",
                )
                .with_hint(hint),
            );
        }
    }
    Expr::Sum(out)
}

impl ProgramCompiler<'_, '_> {
    fn int_field(&self, name: &str) -> Option<u8> {
        let a = self.names.attribute(name)?;
        self.names
            .int_attributes
            .iter()
            .position(|x| *x == a)
            .map(|k| k as u8)
    }

    /// `(sum ...)` in a move program.
    pub(super) fn sum_expr(&mut self, node: &Node, args: &[Node]) -> Expr {
        let fields: Vec<(String, u8)> = self
            .names
            .attributes
            .iter()
            .filter_map(|(n, a)| {
                let k = self.names.int_attributes.iter().position(|x| x == a)?;
                Some((n.clone(), k as u8))
            })
            .collect();
        let find = |w: &str| {
            fields
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(w))
                .map(|x| x.1)
        };
        sum(self.diags, &find, self.names.board, node, args)
    }

    /// `(sow ATTR DIR option...)`.
    pub(super) fn sow(&mut self, node: &Node, args: &[Node]) -> Option<Instr> {
        let hint = "(sow seeds cw skip-origin (store store) (capture (in-zone? their-row) (counts 2 3) chain))";
        let (Some(attr), Some(dir)) = (args.first(), args.get(1)) else {
            self.diags.push(
                Diagnostic::error(
                    node.span,
                    "`sow` needs an integer attribute and a direction",
                )
                .with_hint(hint),
            );
            return None;
        };
        let field = match attr.atom().and_then(|a| self.int_field(a)) {
            Some(k) => k,
            None => {
                self.diags.push(
                    Diagnostic::error(
                        attr.span,
                        format!(
                            "`{}` is not an integer attribute: seeds are counted by one",
                            attr.to_source_limited(40)
                        ),
                    )
                    .with_hint("declare it on the pile's piece with a number: (attribute seeds 4)"),
                );
                return None;
            }
        };
        let dir = self.direction_arg(dir)?;
        let mut sow = Sow {
            field,
            dir,
            skip_origin: false,
            skip: None,
            store: None,
            capture: None,
            opposite: None,
            grand_slam: GrandSlam::default(),
            feed: None,
            again: None,
            span: node.span,
        };
        let mut seen: Vec<String> = vec![];
        for opt in &args[2..] {
            let word = opt
                .atom()
                .or_else(|| opt.head())
                .unwrap_or("")
                .to_ascii_lowercase();
            if OPTIONS.contains(&word.as_str()) {
                if seen.contains(&word) {
                    self.diags.push(Diagnostic::error(
                        opt.span,
                        format!("`{word}` is given twice in one `sow`"),
                    ));
                    continue;
                }
                seen.push(word.clone());
            }
            let a = opt.args();
            match word.as_str() {
                "skip-origin" if opt.atom().is_some() => sow.skip_origin = true,
                "skip" | "feed" | "again" if a.len() == 1 => {
                    let c = self.cond(&a[0]);
                    match word.as_str() {
                        "skip" => sow.skip = Some(c),
                        "feed" => sow.feed = Some(c),
                        _ => sow.again = Some(c),
                    }
                }
                "store" if a.len() == 1 => {
                    match a[0].atom().and_then(|z| self.names.board.zone(z)) {
                        Some(z) => sow.store = Some(z),
                        None => {
                            let d = self.names.unknown(&a[0], "zone");
                            self.diags.push(d);
                        }
                    }
                }
                "capture" if (2..=3).contains(&a.len()) => {
                    let cond = self.cond(&a[0]);
                    let counts = self.counts(&a[1]);
                    let chain = match a.get(2) {
                        None => false,
                        Some(n) if n.is_atom("chain") => true,
                        Some(n) => {
                            self.diags.push(
                                Diagnostic::error(n.span, "expected `chain` or nothing")
                                    .with_hint("(capture (in-zone? their-row) (counts 2 3) chain)"),
                            );
                            false
                        }
                    };
                    sow.capture = Some(SowCapture {
                        cond,
                        counts: counts?,
                        chain,
                    });
                }
                "capture-opposite" if a.len() == 2 => {
                    let cond = self.cond(&a[0]);
                    let d = self.direction_arg(&a[1])?;
                    sow.opposite = Some((cond, d));
                }
                "grand-slam" if a.len() == 1 => {
                    sow.grand_slam = match a[0].atom().map(str::to_ascii_lowercase).as_deref() {
                        Some("capture-nothing") => GrandSlam::CaptureNothing,
                        Some("illegal") => GrandSlam::Illegal,
                        Some("allowed") => GrandSlam::Allowed,
                        _ => {
                            self.diags.push(Diagnostic::error(
                                a[0].span,
                                "a grand slam is `capture-nothing`, `illegal` or `allowed`",
                            ));
                            GrandSlam::default()
                        }
                    }
                }
                w if OPTIONS.contains(&w) => {
                    let form = match w {
                        "skip-origin" => "skip-origin (a bare word)",
                        "skip" => "(skip CONDITION)",
                        "feed" => "(feed CONDITION)",
                        "again" => "(again CONDITION)",
                        "store" => "(store ZONE)",
                        "capture" => "(capture CONDITION (counts N...) [chain])",
                        "capture-opposite" => "(capture-opposite CONDITION DIRECTION)",
                        _ => "(grand-slam capture-nothing|illegal|allowed)",
                    };
                    self.diags.push(Diagnostic::error(
                        opt.span,
                        format!("`{w}` is written {form}"),
                    ));
                }
                _ => {
                    let d = Diagnostic::error(
                        opt.span,
                        format!("unknown sow option `{}`", opt.to_source_limited(40)),
                    );
                    self.diags
                        .push(match suggest(&word, OPTIONS.iter().copied()) {
                            Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                            None => d.with_hint(format!("the options are {}", OPTIONS.join(", "))),
                        });
                }
            }
        }
        if (sow.capture.is_some() || sow.opposite.is_some()) && sow.store.is_none() {
            self.diags.push(
                Diagnostic::error(node.span, "captured seeds need a store: add (store ZONE)")
                    .with_hint("a zone holding each player's store, declared per player"),
            );
        }
        Some(Instr::Sow(Box::new(sow)))
    }

    fn direction_arg(&mut self, n: &Node) -> Option<Dir> {
        match n.atom().and_then(|a| self.names.board.direction(a)) {
            Some(d) => Some(d),
            None => {
                let d = self.names.unknown(n, "direction");
                self.diags.push(d);
                None
            }
        }
    }

    /// `(counts 2 3)`.
    fn counts(&mut self, n: &Node) -> Option<Vec<i32>> {
        let ok = n.head().is_some_and(|h| h.eq_ignore_ascii_case("counts"));
        let values: Option<Vec<i32>> = n
            .args()
            .iter()
            .map(|a| a.atom().and_then(|t| t.parse::<i32>().ok()))
            .collect();
        match values {
            Some(v) if ok && !v.is_empty() => Some(v),
            _ => {
                self.diags.push(
                    Diagnostic::error(n.span, "the counts that capture are (counts N...)")
                        .with_hint("(counts 2 3)"),
                );
                None
            }
        }
    }
}

/// The seeds a game starts with in the attribute a `sow` counts must fit a pile's 8 bits (at most 127 in one
/// pit, which every seed may reach): an error at the `sow` otherwise.
pub fn check_capacity(game: &Game, diags: &mut Vec<Diagnostic>) {
    fn sows<'a>(body: &'a [Instr], out: &mut Vec<&'a Sow>) {
        for i in body {
            match i {
                Instr::Sow(s) => out.push(s),
                Instr::If(_, a, b) => {
                    sows(a, out);
                    sows(b, out);
                }
                Instr::While(_, a) => sows(a, out),
                Instr::Choose(c) => {
                    sows(&c.body, out);
                    sows(&c.rest, out);
                }
                _ => {}
            }
        }
    }
    let mut found = vec![];
    for p in &game.pieces {
        for prog in p.moves.iter().chain(&p.drops) {
            sows(&prog.body, &mut found);
        }
    }
    for s in found {
        let total: i64 = game
            .setup
            .pieces
            .iter()
            .map(|&(_, kind, _)| game.initial_attrs(kind).get_int(s.field as usize) as i64)
            .sum();
        if total > 127 {
            diags.push(
                Diagnostic::error(
                    s.span,
                    format!("the board starts with {total} seeds; a pile holds at most 127"),
                )
                .with_hint("a pile's count is an 8-bit integer attribute"),
            );
        }
    }
}
