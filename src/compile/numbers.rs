//! Numbers in move programs (this project's extension, `docs/language.md`, "Numbers"): integer expressions
//! (`+ - * / mod min max`, `count`, move variables), comparisons (`= != < <= > >=`) as conditions, and
//! `set-var`. Compiled here to [`Expr`]; the engine evaluates them in `engine/numbers.rs`.

use super::game::*;
use super::program::ProgramCompiler;
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node, NodeKind};

/// An arithmetic operator; every one takes one or more operands, folded from the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Min,
    Max,
}

/// A comparison between two numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
}

/// What `count` counts.
#[derive(Clone, Debug, PartialEq)]
pub enum Counted {
    /// Pieces on the whole line through the cursor along a direction and its opposite, the cursor's included.
    Line(Dir),
    /// Pieces from the cursor along a direction to the edge, the cursor's square excluded.
    Ray(Dir),
    /// Positions of a zone (the mover's).
    Zone(ZoneId),
    /// Positions of the board (not off-board ones) where the condition holds with the cursor there.
    Positions(Cond),
}

/// An integer expression of a move program.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    /// A move variable: lives for one program run, 0 until set.
    Var(u16),
    /// A game or player variable of the state: `Variable` index, and the player (the mover in a program, the
    /// tested player in an end condition, when `None`).
    StateVar(u16, Option<Player>),
    Arith(ArithOp, Vec<Expr>),
    /// Integer attribute field k of the piece there (0 for an empty square).
    IntAttr(u8, Loc),
    /// The declared `(value N)` of the piece's type there (rounded; 0 for an empty square or no value).
    PieceValue(Loc),
    Count(Box<Counted>),
    /// `(liberties [LOC])`: the empty positions next to the group of the piece there (`compile/groups.rs`).
    Liberties(Loc),
    /// `(group-size [LOC])`: the pieces of the group of the piece there.
    GroupSize(Loc),
    /// `(area [PLAYER])`: the player's pieces plus the empty positions enclosed by them alone (area scoring).
    Area(Option<Player>),
    /// `(passes)`: the passes made in a row just before this position.
    Passes,
    /// `(quiet-plies)`: the plies since the last irreversible move (a capture, or a move of a type named by
    /// the game's `(irreversible T...)`): the fifty-move rule's count.
    QuietPlies,
    /// `(sum ATTR [(zone Z)] [opponent])`: an integer attribute summed (see `compile/sow.rs`).
    Sum(super::sow::Sum),
    /// `(stack-height [LOC])`: pieces on the position (0 empty, 1 a lone piece, more a column).
    Height(Loc),
}

const ARITH: &[(&str, ArithOp)] = &[
    ("+", ArithOp::Add),
    ("-", ArithOp::Sub),
    ("*", ArithOp::Mul),
    ("/", ArithOp::Div),
    ("mod", ArithOp::Mod),
    ("min", ArithOp::Min),
    ("max", ArithOp::Max),
];

/// The comparison a predicate word names, if it is one.
pub fn cmp_op(word: &str) -> Option<CmpOp> {
    Some(match word {
        "=" => CmpOp::Eq,
        "!=" => CmpOp::Ne,
        "<" => CmpOp::Lt,
        "<=" => CmpOp::Le,
        ">" => CmpOp::Gt,
        ">=" => CmpOp::Ge,
        _ => return None,
    })
}

/// The declared variables: `(variables (NAME INIT) ...)` for the game, `(player-variables (NAME INIT) ...)`
/// for each player, `(ply-variables (NAME INIT) ...)` for the game, back to INIT at every move, `(turn-variables
/// (NAME INIT) ...)` for the game, back to INIT at every move and kept across its parts; INIT may be left out
/// (0).
pub fn variables(diags: &mut Vec<Diagnostic>, sections: &[&Node], players: usize) -> Vec<Variable> {
    let mut out: Vec<Variable> = vec![];
    let mut slot = 0;
    for s in sections {
        let per_player = s
            .head()
            .is_some_and(|h| h.eq_ignore_ascii_case("player-variables"));
        let per_ply = s
            .head()
            .is_some_and(|h| h.eq_ignore_ascii_case("ply-variables"));
        let per_turn = s
            .head()
            .is_some_and(|h| h.eq_ignore_ascii_case("turn-variables"));
        for v in s.args() {
            let (name, init) = match &v.kind {
                NodeKind::Atom(a) => (&a[..], Some(0)),
                NodeKind::List(l) => match l.as_slice() {
                    [n] => (n.atom().unwrap_or(""), Some(0)),
                    [n, i] => (
                        n.atom().unwrap_or(""),
                        i.atom().and_then(|x| x.parse::<i32>().ok()),
                    ),
                    _ => ("", None),
                },
                _ => ("", None),
            };
            let Some(init) = init.filter(|_| !name.is_empty() && name.parse::<i64>().is_err())
            else {
                diags.push(
                    Diagnostic::error(
                        v.span,
                        "a variable is a name and an optional integer start value",
                    )
                    .with_hint("(variables (moves-made 0))"),
                );
                continue;
            };
            if out.iter().any(|x| x.name.eq_ignore_ascii_case(name)) {
                diags.push(Diagnostic::error(
                    v.span,
                    format!("variable `{name}` is declared twice"),
                ));
                continue;
            }
            out.push(Variable {
                name: name.to_ascii_lowercase(),
                per_player,
                init,
                per_ply,
                per_turn,
                slot,
            });
            slot += if per_player { players } else { 1 };
        }
    }
    out
}

/// The integer attributes: those some piece declares with a number (`(attribute hp 3)`). Each takes 8 bits
/// of the 64 a piece has for attributes; more than fit beside the boolean ones is an error.
pub fn int_attributes(
    diags: &mut Vec<Diagnostic>,
    pieces: &[PieceInfo],
    booleans: usize,
    span: crate::lang::Span,
) -> Vec<AttrId> {
    let mut out: Vec<AttrId> = vec![];
    for p in pieces {
        for (a, text) in &p.constants {
            if text.parse::<i64>().is_ok() && !out.contains(a) {
                out.push(*a);
            }
        }
    }
    if booleans + 8 * out.len() > MAX_ATTRIBUTES {
        diags.push(
            Diagnostic::error(
                span,
                format!(
                    "{} attributes and {} integer attributes do not fit: each integer takes 8 of a piece's {MAX_ATTRIBUTES} bits",
                    booleans,
                    out.len()
                ),
            )
            .with_hint("declare fewer attributes"),
        );
    }
    out
}

/// The start value of an integer attribute as declared, in its 8-bit range.
pub fn int_value(text: &str) -> i8 {
    text.parse::<i64>().map_or(0, |v| v.clamp(-128, 127) as i8)
}

fn find_var(vars: &[Variable], name: &str) -> Option<u16> {
    vars.iter()
        .position(|v| v.name.eq_ignore_ascii_case(name))
        .map(|i| i as u16)
}

/// `(var NAME [PLAYER])`.
fn var_form(
    diags: &mut Vec<Diagnostic>,
    vars: &[Variable],
    players: &[PlayerInfo],
    node: &Node,
    args: &[Node],
) -> Expr {
    let name = args.first().and_then(|n| n.atom()).unwrap_or("");
    let Some(v) = find_var(vars, name) else {
        let known: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
        let d = Diagnostic::error(
            args.first().unwrap_or(node).span,
            format!("unknown variable `{name}`"),
        );
        diags.push(match suggest(name, known) {
            Some(s) => d.with_hint(format!("did you mean `{s}`?")),
            None => d.with_hint("declare it: (variables (NAME 0)) or (player-variables (NAME 0))"),
        });
        return Expr::Int(0);
    };
    match args.get(1..).unwrap_or(&[]) {
        [] => Expr::StateVar(v, None),
        [p] if vars[v as usize].per_player => {
            match players
                .iter()
                .position(|x| p.atom().is_some_and(|a| x.name.eq_ignore_ascii_case(a)))
            {
                Some(i) => Expr::StateVar(v, Some(Player(i as u8))),
                None => {
                    diags.push(Diagnostic::error(
                        p.span,
                        format!("unknown player `{}`", p.to_source()),
                    ));
                    Expr::Int(0)
                }
            }
        }
        _ => {
            diags.push(Diagnostic::error(
                node.span,
                format!("`(var {name} ...)`: a player is named only for a player variable"),
            ));
            Expr::Int(0)
        }
    }
}

/// What `(sum ...)` in an end condition may name: the integer attributes (name, field) and the board's zones.
pub struct StaticSums<'a> {
    pub int_attrs: &'a [(String, u8)],
    pub board: &'a Board,
}

/// A number of an end condition: integers, variables (a player variable is the tested player's unless
/// named) and arithmetic; what needs a cursor (`count`, move variables) is an error here.
pub fn static_expr(
    diags: &mut Vec<Diagnostic>,
    vars: &[Variable],
    players: &[PlayerInfo],
    sums: &StaticSums<'_>,
    node: &Node,
) -> Expr {
    match &node.kind {
        NodeKind::Atom(a) => {
            if let Ok(v) = a.parse::<i64>() {
                return Expr::Int(v);
            }
            if let Some(v) = find_var(vars, a) {
                return Expr::StateVar(v, None);
            }
            let known: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
            let d = Diagnostic::error(node.span, format!("unknown number `{a}`"));
            diags.push(match suggest(a, known) {
                Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                None => d.with_hint("an end condition reads integers and declared variables"),
            });
            Expr::Int(0)
        }
        NodeKind::List(items) if items.first().and_then(|h| h.atom()).is_some() => {
            let h = items[0].atom().unwrap().to_ascii_lowercase();
            let args = &items[1..];
            if h == "var" {
                return var_form(diags, vars, players, node, args);
            }
            if let Some(e) = super::groups::static_group_expr(diags, players, node, &h, args) {
                return e;
            }
            if h == "sum" {
                let find = |w: &str| {
                    sums.int_attrs
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(w))
                        .map(|x| x.1)
                };
                return super::sow::sum(diags, &find, sums.board, node, args);
            }
            match ARITH.iter().find(|(w, _)| *w == h) {
                Some(&(_, op)) if !args.is_empty() => Expr::Arith(
                    op,
                    args.iter()
                        .map(|a| static_expr(diags, vars, players, sums, a))
                        .collect(),
                ),
                _ => {
                    diags.push(
                        Diagnostic::error(
                            node.span,
                            format!("`{h}` is not a number of an end condition"),
                        )
                        .with_hint("end conditions read integers, variables, (sum ATTR ...), + - * / mod min max"),
                    );
                    Expr::Int(0)
                }
            }
        }
        _ => {
            diags.push(Diagnostic::error(node.span, "expected a number"));
            Expr::Int(0)
        }
    }
}

impl ProgramCompiler<'_, '_> {
    /// `(OP a b)`: a comparison of two numbers.
    pub(super) fn compare(&mut self, node: &Node, op: CmpOp, args: &[Node]) -> Cond {
        let [a, b] = args else {
            let w = node.head().unwrap_or("=");
            self.diags.push(
                Diagnostic::error(node.span, format!("`{w}` compares two numbers"))
                    .with_hint(format!("({w} (count (line n)) 3)")),
            );
            return Cond::False;
        };
        let a = self.expr(a);
        let b = self.expr(b);
        Cond::Compare(op, Box::new((a, b)))
    }

    /// `(set-var NAME EXPR)`: declares the move variable by use.
    pub(super) fn set_var(&mut self, node: &Node, args: &[Node]) -> Option<Instr> {
        let (Some(name), Some(v), 2) =
            (args.first().and_then(|n| n.atom()), args.get(1), args.len())
        else {
            self.diags.push(
                Diagnostic::error(node.span, "`set-var` needs a variable name and a number")
                    .with_hint("(set-var n (count (line n)))"),
            );
            return None;
        };
        if name.parse::<i64>().is_ok() || ARITH.iter().any(|(w, _)| name.eq_ignore_ascii_case(w)) {
            self.diags.push(Diagnostic::error(
                args[0].span,
                format!("`{name}` cannot name a variable"),
            ));
            return None;
        }
        let v = self.expr(v);
        if let Some(sv) = find_var(self.names.variables, name) {
            return Some(Instr::SetStateVar(sv, v));
        }
        let id = self.names.move_var(name);
        Some(Instr::SetVar(id, v))
    }

    fn int_attr(&self, name: &str) -> Option<u8> {
        let a = self.names.attribute(name)?;
        self.names
            .int_attributes
            .iter()
            .position(|x| *x == a)
            .map(|k| k as u8)
    }

    fn expr_err(&mut self, node: &Node, msg: String, hint: Option<String>) -> Expr {
        let d = Diagnostic::error(node.span, msg);
        self.diags.push(match hint {
            Some(h) => d.with_hint(h),
            None => d,
        });
        Expr::Int(0)
    }

    /// Compiles an integer expression.
    pub fn expr(&mut self, node: &Node) -> Expr {
        match &node.kind {
            NodeKind::Atom(a) => {
                if let Ok(v) = a.parse::<i64>() {
                    return Expr::Int(v);
                }
                if let Some(v) = find_var(self.names.variables, a) {
                    return Expr::StateVar(v, None);
                }
                if let Some(v) = self.names.find_move_var(a) {
                    return Expr::Var(v);
                }
                if let Some(k) = self.int_attr(a) {
                    return Expr::IntAttr(k, Loc::Cursor);
                }
                let known: Vec<&str> = self
                    .names
                    .move_vars
                    .iter()
                    .map(String::as_str)
                    .chain(self.names.variables.iter().map(|v| v.name.as_str()))
                    .collect();
                let hint = match suggest(a, known) {
                    Some(s) => Some(format!("did you mean `{s}`?")),
                    None => Some("a number is an integer, a variable set by `set-var` before, or (+ ...), (count ...)".into()),
                };
                self.expr_err(node, format!("unknown number `{a}`"), hint)
            }
            NodeKind::Str(_) => self.expr_err(node, "a string is not a number".into(), None),
            NodeKind::List(items) => {
                let Some(h) = items.first().and_then(|h| h.atom()) else {
                    if items.len() == 1 {
                        return self.expr(&items[0]);
                    }
                    return self.expr_err(node, "expected a number".into(), None);
                };
                let args = &items[1..];
                let hl = h.to_ascii_lowercase();
                if let Some(&(_, op)) = ARITH.iter().find(|(w, _)| *w == hl) {
                    if args.is_empty() {
                        return self.expr_err(
                            node,
                            format!("`{h}` needs at least one number"),
                            Some(format!("({h} 1 2)")),
                        );
                    }
                    let xs = args.iter().map(|a| self.expr(a)).collect();
                    return Expr::Arith(op, xs);
                }
                if hl == "var" {
                    return var_form(
                        self.diags,
                        self.names.variables,
                        self.names.players,
                        node,
                        args,
                    );
                }
                if let Some(k) = self.int_attr(h) {
                    // `(hp n)`: the attribute of the piece in a direction or at a position.
                    if args.len() > 1 {
                        return self.expr_err(
                            node,
                            format!("`({h} ...)` takes at most a position or direction"),
                            None,
                        );
                    }
                    return Expr::IntAttr(k, self.opt_loc(args));
                }
                if hl == "piece-value" {
                    if args.len() > 1 {
                        return self.expr_err(
                            node,
                            "`piece-value` takes at most a position or direction".into(),
                            Some("(piece-value n)".into()),
                        );
                    }
                    return Expr::PieceValue(self.opt_loc(args));
                }
                if let Some(e) = self.group_expr(node, &hl, args) {
                    return e;
                }
                if hl == "sum" {
                    return self.sum_expr(node, args);
                }
                if hl == "stack-height" {
                    if args.len() > 1 {
                        return self.expr_err(
                            node,
                            "`stack-height` takes at most a position or direction".into(),
                            Some("(stack-height n)".into()),
                        );
                    }
                    return Expr::Height(self.opt_loc(args));
                }
                if hl == "count" {
                    return match self.counted(node, args) {
                        Some(c) => Expr::Count(Box::new(c)),
                        None => Expr::Int(0),
                    };
                }
                let words: Vec<&str> = ARITH
                    .iter()
                    .map(|(w, _)| *w)
                    .chain([
                        "count",
                        "var",
                        "piece-value",
                        "sum",
                        "liberties",
                        "group-size",
                        "area",
                        "passes",
                        "quiet-plies",
                        "stack-height",
                    ])
                    .collect();
                let hint = suggest(h, words).map(|s| format!("did you mean `{s}`?"));
                self.expr_err(&items[0], format!("unknown number form `{h}`"), hint)
            }
        }
    }

    /// The argument of `count`: `(line DIR)`, `(ray DIR)`, `(zone Z)` or `(positions COND)`.
    fn counted(&mut self, node: &Node, args: &[Node]) -> Option<Counted> {
        let hint = "(count (line n)), (count (ray n)), (count (zone promotion-zone)) or (count (positions (enemy?)))";
        let [what] = args else {
            self.diags.push(
                Diagnostic::error(node.span, "`count` takes one thing to count").with_hint(hint),
            );
            return None;
        };
        let head = what.head().map(str::to_ascii_lowercase);
        let a = what.args();
        let dir = |c: &mut Self| -> Option<Dir> {
            match a
                .first()
                .and_then(|n| n.atom())
                .and_then(|n| c.names.board.direction(n))
            {
                Some(d) if a.len() == 1 => Some(d),
                _ => {
                    let n = a.first().unwrap_or(what);
                    let d = c.names.unknown(n, "direction");
                    c.diags.push(d);
                    None
                }
            }
        };
        Some(match head.as_deref() {
            Some("line") => Counted::Line(dir(self)?),
            Some("ray") => Counted::Ray(dir(self)?),
            Some("zone") => match a
                .first()
                .and_then(|n| n.atom())
                .and_then(|n| self.names.board.zone(n))
            {
                Some(z) if a.len() == 1 => Counted::Zone(z),
                _ => {
                    let d = self.names.unknown(a.first().unwrap_or(what), "zone");
                    self.diags.push(d);
                    return None;
                }
            },
            Some("positions") => match a {
                [c] => Counted::Positions(self.cond(c)),
                _ => {
                    self.diags.push(
                        Diagnostic::error(what.span, "`positions` takes one condition")
                            .with_hint("(count (positions (and (enemy?) (piece? King))))"),
                    );
                    return None;
                }
            },
            _ => {
                self.diags.push(
                    Diagnostic::error(
                        what.span,
                        "`count` counts a line, a ray, a zone or positions",
                    )
                    .with_hint(hint),
                );
                return None;
            }
        })
    }
}
