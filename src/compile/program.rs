//! Move programs: the expanded ZRF text of `moves` and `drops` compiled to the [`Instr`] tree the engine runs.
//! Every bare word is resolved here to what the file declared (direction, position, zone, piece type,
//! attribute, flag, move type); an unknown word is an error with a did-you-mean hint.

use super::game::*;
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node, NodeKind};
use rustc_hash::FxHashMap as HashMap;

/// Names a program may use, and the tables it extends (flags are declared by use).
pub struct Names<'a> {
    pub board: &'a Board,
    pub players: &'a [PlayerInfo],
    pub pieces: &'a HashMap<String, PieceType>,
    pub attributes: &'a HashMap<String, AttrId>,
    pub move_types: &'a mut Vec<String>,
    pub flags: &'a mut Vec<String>,
    pub position_flags: &'a mut Vec<String>,
    /// Move variables (`set-var`), declared by use; numbered in order of first use.
    pub move_vars: Vec<String>,
    /// Game and player variables.
    pub variables: &'a [Variable],
    /// Integer attributes, by field.
    pub int_attributes: &'a [AttrId],
    /// The turn order's labels (`(label NAME)`), for `goto-turn`.
    pub turn_labels: &'a [(String, usize)],
    /// Some program reads the memory of a composite move (`visited?`, `last-direction?`).
    pub memory: bool,
}

/// Past this many diagnostics, move programs are no longer compiled: a file of junk would otherwise cost an
/// edit-distance search per word.
const MAX_DIAGNOSTICS: usize = 1000;

const INSTRUCTION_WORDS: &[&str] = &[
    "from",
    "to",
    "cascade",
    "add",
    "add-copy",
    "add-partial",
    "add-copy-partial",
    "mark",
    "back",
    "capture",
    "flip",
    "change-owner",
    "change-type",
    "create",
    "go",
    "verify",
    "if",
    "while",
    "set-flag",
    "set-position-flag",
    "set-attribute",
    "opposite",
    "set-var",
    "choose",
    "extra-turn",
    "add-partial-required",
    "capture-groups",
    "sow",
    "goto-turn",
    "take-prisoner",
    "carry",
    "add-rotate",
];

const PREDICATE_WORDS: &[&str] = &[
    "empty?",
    "friend?",
    "enemy?",
    "my?",
    "neutral?",
    "piece?",
    "in-zone?",
    "on-board?",
    "last-from?",
    "last-to?",
    "marked?",
    "position?",
    "attacked?",
    "defended?",
    "flag?",
    "position-flag?",
    "visited?",
    "last-direction?",
    "suicide?",
    "true",
    "false",
    "and",
    "or",
    "not",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
];

/// The word in lower case, allocating only when it has upper-case letters (most ZRF words do not).
fn lower(s: &str) -> std::borrow::Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(s.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// Strips one `not-` prefix, returning whether it was there.
fn negated(word: &str) -> (bool, &str) {
    match word.strip_prefix("not-") {
        Some(rest) if !rest.is_empty() => (true, rest),
        _ => (false, word),
    }
}

impl Names<'_> {
    fn intern(table: &mut Vec<String>, name: &str) -> u16 {
        let l = lower(name);
        match table.iter().position(|f| *f == l) {
            Some(i) => i as u16,
            None => {
                table.push(l.into_owned());
                table.len() as u16 - 1
            }
        }
    }

    pub fn move_type(&mut self, name: &str) -> MoveType {
        MoveType(Self::intern(self.move_types, name))
    }

    pub(super) fn move_var(&mut self, name: &str) -> u16 {
        Self::intern(&mut self.move_vars, name)
    }

    pub(super) fn find_move_var(&self, name: &str) -> Option<u16> {
        let l = lower(name);
        self.move_vars
            .iter()
            .position(|v| *v == l)
            .map(|i| i as u16)
    }

    fn flag(&mut self, name: &str) -> FlagId {
        FlagId(Self::intern(self.flags, name))
    }

    fn position_flag(&mut self, name: &str) -> FlagId {
        FlagId(Self::intern(self.position_flags, name))
    }

    fn piece(&self, name: &str) -> Option<PieceType> {
        self.pieces.get(lower(name).as_ref()).copied()
    }

    fn player(&self, name: &str) -> Option<Player> {
        self.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
            .map(|i| Player(i as u8))
    }

    pub(super) fn attribute(&self, name: &str) -> Option<AttrId> {
        let l = lower(name);
        if let Some(a) = self.attributes.get(l.as_ref()) {
            return Some(*a);
        }
        // `never-moved?` as a predicate names the attribute `never-moved`, and the reverse.
        match l.strip_suffix('?') {
            Some(base) => self.attributes.get(base).copied(),
            None => self.attributes.get(&format!("{l}?")).copied(),
        }
    }

    /// Every name a bare word could have meant, for did-you-mean hints.
    fn all_words(&self) -> Vec<&str> {
        let b = self.board;
        let mut v: Vec<&str> = INSTRUCTION_WORDS
            .iter()
            .chain(PREDICATE_WORDS)
            .copied()
            .collect();
        v.extend(b.directions.iter().map(String::as_str));
        v.extend(b.positions.iter().map(|p| p.name.as_str()));
        v.extend(b.zones.iter().map(|z| z.name.as_str()));
        v.extend(self.pieces.keys().map(String::as_str));
        v.extend(self.attributes.keys().map(String::as_str));
        v
    }

    pub(super) fn unknown(&self, node: &Node, what: &str) -> Diagnostic {
        // A list where a name should be is shown cut (macro expansions can be megabytes) and is no typo.
        let (word, suggestion) = match node.text() {
            Some(w) => (w.to_string(), suggest(w, self.all_words())),
            None => (node.to_source_limited(80), None),
        };
        // A word in instruction position that looks like a direction is most likely a misspelt direction.
        let what = match suggestion {
            Some(s) if what == "instruction" && self.board.direction(s).is_some() => "direction",
            Some(s) if what == "instruction" && self.board.position(s).is_some() => "position",
            _ => what,
        };
        let d = Diagnostic::error(node.span, format!("unknown {what} `{word}`"));
        if what == "instruction" && PREDICATE_WORDS.contains(&lower(&word).as_ref()) {
            return d.with_hint(format!(
                "`{word}` is a condition: it stands inside `verify`, `if` or `while`, as in (verify ({word} ...))"
            ));
        }
        match suggestion {
            Some(s) => d.with_hint(format!("did you mean `{s}`?")),
            None => d,
        }
    }
}

/// Compiles move programs. One instance per game; errors accumulate in `diags`.
pub struct ProgramCompiler<'a, 'd> {
    pub names: Names<'a>,
    pub diags: &'d mut Vec<Diagnostic>,
    /// The move life cycle of the piece whose programs are being compiled: the `pre` instructions put in
    /// front of each program (the game's, then the piece's) and the `post` instructions put in front of each
    /// emission (the piece's, then the game's). See `docs/language.md`, "The move life cycle".
    pub pre: Vec<Instr>,
    pub post: Vec<Instr>,
}

/// The first instruction in `body` that the life-cycle section `what` may not hold, by name: an emission
/// (`pre`, `post`, `move-post`) or a `choose` (`post`, `move-post`).
fn not_in_life_cycle(body: &[Instr], what: &str) -> Option<&'static str> {
    body.iter().find_map(|i| match i {
        Instr::Add { partial: None, .. } => Some("add"),
        Instr::Add { .. } => Some("add-partial"),
        Instr::AddRotate(..) => Some("add-rotate"),
        Instr::Choose(_) if what != "pre" => Some("choose"),
        Instr::Choose(c) => not_in_life_cycle(&c.body, what).or(not_in_life_cycle(&c.rest, what)),
        Instr::If(_, a, b) => not_in_life_cycle(a, what).or(not_in_life_cycle(b, what)),
        Instr::While(_, a) => not_in_life_cycle(a, what),
        _ => None,
    })
}

/// Puts `post` in front of every emission of `body` ([`Instr::Post`]).
pub(super) fn wrap_emissions(body: Vec<Instr>, post: &[Instr]) -> Vec<Instr> {
    let mut out = Vec::with_capacity(body.len());
    let mut it = body.into_iter().peekable();
    while let Some(i) = it.next() {
        let wrapped = |emit: Vec<Instr>| {
            Instr::Post(Box::new(PostEmit {
                post: post.to_vec(),
                emit,
            }))
        };
        match i {
            // `add-partial-required`: the marker goes with its `add`, so that a dropped emission leaves none.
            Instr::RequireContinuation if matches!(it.peek(), Some(Instr::Add { .. })) => {
                let add = it.next().into_iter();
                out.push(wrapped(std::iter::once(i).chain(add).collect()));
            }
            Instr::Add { .. } | Instr::AddRotate(..) => out.push(wrapped(vec![i])),
            Instr::If(c, a, b) => out.push(Instr::If(
                c,
                wrap_emissions(a, post),
                wrap_emissions(b, post),
            )),
            Instr::While(c, a) => out.push(Instr::While(c, wrap_emissions(a, post))),
            Instr::Choose(mut c) => {
                c.body = wrap_emissions(std::mem::take(&mut c.body), post);
                c.rest = wrap_emissions(std::mem::take(&mut c.rest), post);
                out.push(Instr::Choose(c));
            }
            other => out.push(other),
        }
    }
    out
}

impl ProgramCompiler<'_, '_> {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// `(add-rotate NAME [STEPS])`: a rotation the board declares, and a whole number of steps other than 0.
    fn add_rotate(&mut self, node: &Node, args: &[Node]) -> Option<Instr> {
        let rotations = &self.names.board.rotations;
        let Some(first) = args.first() else {
            self.err(
                Diagnostic::error(node.span, "`add-rotate` needs the name of a rotation")
                    .with_hint("(add-rotate NAME) or (add-rotate NAME STEPS), NAME declared by (rotation (name NAME) (cycle ...)) in the board"),
            );
            return None;
        };
        let word = first.text().unwrap_or_default();
        let found = rotations.iter().position(|r| r.name == word).or_else(|| {
            rotations
                .iter()
                .position(|r| r.name.eq_ignore_ascii_case(word))
        });
        let Some(r) = found else {
            let d = Diagnostic::error(
                first.span,
                format!("unknown rotation `{}`", first.to_source_limited(80)),
            );
            let d = match suggest(word, rotations.iter().map(|r| r.name.as_str())) {
                Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                None if rotations.is_empty() => d.with_hint(
                    "the board declares no rotation: (rotation (name NAME) (cycle POSITION ...))",
                ),
                None => d,
            };
            self.err(d);
            return None;
        };
        let steps = match &args[1..] {
            [] => 1,
            [n] => match n.atom().and_then(|a| a.parse::<i32>().ok()) {
                Some(v) if v != 0 => v,
                _ => {
                    self.err(
                        Diagnostic::error(n.span, format!("`add-rotate` takes a whole number of steps other than 0, not `{}`", n.to_source_limited(80)))
                            .with_hint("1 turns each piece to the next position of its cycle, -1 to the one before"),
                    );
                    return None;
                }
            },
            [_, extra, ..] => {
                self.err(Diagnostic::error(
                    extra.span,
                    "`add-rotate` takes a rotation and at most a number of steps",
                ));
                return None;
            }
        };
        Some(Instr::AddRotate(r as u16, steps))
    }

    /// Compiles the elements of a `moves` or `drops` section into programs, with their move types.
    pub fn section(&mut self, items: &[Node]) -> Vec<MoveProgram> {
        let mut out = Vec::new();
        let mut move_type = None;
        for item in items {
            if item
                .head()
                .is_some_and(|h| h.eq_ignore_ascii_case("move-type"))
            {
                match item.args().first().and_then(|n| n.atom()) {
                    Some(t) => move_type = Some(self.names.move_type(t)),
                    None => self.err(Diagnostic::error(item.span, "`move-type` needs a name")),
                }
                continue;
            }
            let mut body = match &item.kind {
                NodeKind::List(l) => self.block(l),
                _ => self.block(std::slice::from_ref(item)),
            };
            if !self.pre.is_empty() {
                body.splice(0..0, self.pre.iter().cloned());
            }
            // A `choose` runs the rest of the program once per choice: move that tail into it.
            let mut body = super::turns::sink_choices(body).unwrap_or_default();
            if !self.post.is_empty() {
                body = wrap_emissions(body, &self.post);
            }
            let code = super::code::Code::lower(&body, &self.names.board.opposite);
            out.push(MoveProgram {
                move_type,
                code,
                body,
                span: item.span,
                source: item.to_source_limited(600),
            });
        }
        out
    }

    /// The instructions of a life-cycle section (`(pre ...)`, `(post ...)`, `(move-post ...)`, named `what`),
    /// with the errors for misuse at the section.
    pub fn life_block(&mut self, node: &Node, what: &str) -> Vec<Instr> {
        let args = node.args();
        if args.is_empty() {
            self.err(
                Diagnostic::error(node.span, format!("`{what}` needs instructions")).with_hint(
                    format!("({what} (if (in-zone? promotion) (change-type King)))"),
                ),
            );
            return vec![];
        }
        let body = self.block(args);
        if let Some(word) = not_in_life_cycle(&body, what) {
            let (msg, hint) = match (what, word) {
                ("move-post", "choose") => (
                    "`move-post` runs once on the position after the move; it cannot `choose`".to_string(),
                    "choose in the move programs",
                ),
                ("move-post", _) => (
                    format!("`move-post` runs after the move; it cannot add a part (`{word}`)"),
                    "its changes are the move's last part: write them without `add`",
                ),
                (_, "choose") => (
                    format!("`{what}` runs at each emission; it cannot `choose`"),
                    "choose in the move programs, or in `pre`",
                ),
                _ => (
                    format!("`pre` and `post` run inside a part and cannot emit one (`{word}` in `{what}`)"),
                    "the move programs emit; `pre` and `post` only test and change",
                ),
            };
            self.err(Diagnostic::error(node.span, msg).with_hint(hint));
        }
        body
    }

    /// A sequence of instructions.
    fn block(&mut self, items: &[Node]) -> Vec<Instr> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            self.instr(item, &mut out);
        }
        out
    }

    fn loc(&mut self, node: &Node) -> Option<Loc> {
        if node
            .head()
            .is_some_and(|h| h.eq_ignore_ascii_case("opposite"))
        {
            let d = node
                .args()
                .first()
                .and_then(|n| n.atom())
                .and_then(|a| self.names.board.direction(a));
            if let Some(d) = d {
                return match self.names.board.opposite[d.idx()] {
                    Some(o) => Some(Loc::Dir(o)),
                    None => {
                        let name = &self.names.board.directions[d.idx()];
                        self.err(Diagnostic::error(
                            node.span,
                            format!("direction `{name}` has no opposite on this board"),
                        ));
                        None
                    }
                };
            }
        }
        if let Some(a) = node.atom() {
            if let Some(d) = self.names.board.direction(a) {
                return Some(Loc::Dir(d));
            }
            if let Some(p) = self.names.board.position(a) {
                return Some(Loc::Pos(p));
            }
        }
        let d = self.names.unknown(node, "position or direction");
        self.err(d);
        None
    }

    /// An optional location argument: the cursor when absent.
    pub(super) fn opt_loc(&mut self, args: &[Node]) -> Loc {
        match args.first() {
            None => Loc::Cursor,
            Some(n) => self.loc(n).unwrap_or(Loc::Cursor),
        }
    }

    fn piece_arg(&mut self, node: &Node) -> Option<PieceType> {
        match node.atom().and_then(|a| self.names.piece(a)) {
            Some(p) => Some(p),
            None => {
                let d = self.names.unknown(node, "piece type");
                self.err(d);
                None
            }
        }
    }

    fn instr(&mut self, node: &Node, out: &mut Vec<Instr>) {
        if self.diags.len() > MAX_DIAGNOSTICS {
            return; // the game does not compile; more errors would only cost time
        }
        match &node.kind {
            NodeKind::Atom(a) => {
                let word = lower(a);
                let i = match word.as_ref() {
                    "from" => Instr::From,
                    "to" => Instr::To,
                    "cascade" => Instr::Cascade,
                    "add" => Instr::Add {
                        promote: vec![],
                        copy: false,
                        partial: None,
                    },
                    "add-copy" => Instr::Add {
                        promote: vec![],
                        copy: true,
                        partial: None,
                    },
                    "add-partial" => Instr::Add {
                        promote: vec![],
                        copy: false,
                        partial: Some(None),
                    },
                    "add-copy-partial" => Instr::Add {
                        promote: vec![],
                        copy: true,
                        partial: Some(None),
                    },
                    "mark" => Instr::Mark,
                    "back" => Instr::Back,
                    "extra-turn" => Instr::ExtraTurn,
                    "add-partial-required" => {
                        out.push(Instr::RequireContinuation);
                        Instr::Add {
                            promote: vec![],
                            copy: false,
                            partial: Some(None),
                        }
                    }
                    "capture" => Instr::Capture(Loc::Cursor),
                    "take-prisoner" => Instr::TakePrisoner(Loc::Cursor),
                    "flip" => Instr::Flip(Loc::Cursor),
                    "capture-groups" => Instr::CaptureGroups(Loc::Cursor, false),
                    "change-owner" => Instr::ChangeOwner(PlayerRef::Mover, Loc::Cursor),
                    _ => {
                        if let Some(d) = self.names.board.direction(&word) {
                            Instr::Step(d)
                        } else if let Some(p) = self.names.board.position(&word) {
                            Instr::JumpTo(p)
                        } else {
                            let d = self.names.unknown(node, "instruction");
                            self.err(d);
                            return;
                        }
                    }
                };
                out.push(i);
            }
            NodeKind::Str(_) => {
                self.err(Diagnostic::error(
                    node.span,
                    "a string cannot stand in a move program",
                ));
            }
            NodeKind::List(items) => {
                let Some(head) = items.first() else { return };
                let Some(h) = head.atom() else {
                    // A nested block, as macros produce: ((verify x) add).
                    for i in items.iter() {
                        self.instr(i, out);
                    }
                    return;
                };
                let args = &items[1..];
                match lower(h).as_ref() {
                    "verify" => {
                        let c = self.cond_args(node, args);
                        out.push(Instr::Verify(c));
                    }
                    "if" => {
                        let Some(c) = args.first() else {
                            self.err(Diagnostic::error(node.span, "`if` needs a condition"));
                            return;
                        };
                        let c = self.cond(c);
                        let rest = &args[1..];
                        let split = rest.iter().position(|n| n.is_atom("else"));
                        let (then, els) = match split {
                            Some(i) => (&rest[..i], &rest[i + 1..]),
                            None => (rest, &rest[rest.len()..]),
                        };
                        let then = self.block(then);
                        let els = self.block(els);
                        out.push(Instr::If(c, then, els));
                    }
                    "while" => {
                        let Some(c) = args.first() else {
                            self.err(Diagnostic::error(node.span, "`while` needs a condition"));
                            return;
                        };
                        let c = self.cond(c);
                        let body = self.block(&args[1..]);
                        if body.iter().any(super::turns::has_choice) {
                            self.err(Diagnostic::error(
                                node.span,
                                "`choose` inside `while` is not supported: the loop's later rounds would have to follow each choice",
                            ).with_hint("choose after the loop, or iterate with the choice itself: (choose (positions ...) ...)"));
                        }
                        out.push(Instr::While(c, body));
                    }
                    "go" => {
                        let t = args.first().and_then(|n| n.atom()).map(lower);
                        let t = match t.as_deref() {
                            Some("from") => GoTarget::From,
                            Some("to") => GoTarget::To,
                            Some("mark") => GoTarget::Mark,
                            Some("last-from") => GoTarget::LastFrom,
                            Some("last-to") => GoTarget::LastTo,
                            _ => {
                                self.err(
                                    Diagnostic::error(
                                        node.span,
                                        "`go` needs one of from, to, mark, last-from, last-to",
                                    )
                                    .with_hint("(go from)"),
                                );
                                return;
                            }
                        };
                        out.push(Instr::Go(t));
                    }
                    "mark" if args.is_empty() => out.push(Instr::Mark),
                    "back" if args.is_empty() => out.push(Instr::Back),
                    "from" | "to" | "mark" | "back" | "cascade" if args.len() == 1 => {
                        // `(from a1)`: the instruction at a given place, by jumping there first.
                        match self.loc(&args[0]) {
                            Some(Loc::Pos(p)) => out.push(Instr::JumpTo(p)),
                            Some(Loc::Dir(d)) => out.push(Instr::Step(d)),
                            _ => return,
                        }
                        let mut one = vec![];
                        self.instr(head, &mut one);
                        out.extend(one);
                    }
                    "extra-turn" if args.is_empty() => out.push(Instr::ExtraTurn),
                    "choose" => self.choose(node, args, out),
                    "sow" => out.extend(self.sow(node, args)),
                    "goto-turn" => out.extend(self.goto_turn(node, args)),
                    w @ ("add"
                    | "add-copy"
                    | "add-partial"
                    | "add-copy-partial"
                    | "add-partial-required") => {
                        if w == "add-partial-required" {
                            out.push(Instr::RequireContinuation);
                        }
                        let copy = w.contains("copy");
                        let is_partial = w.contains("partial");
                        let mut promote = vec![];
                        let mut mt = None;
                        for a in args {
                            let name = a.atom().unwrap_or("");
                            if let Some(p) = self.names.piece(name) {
                                promote.push(p);
                            } else if is_partial && mt.is_none() && !name.is_empty() {
                                mt = Some(self.names.move_type(name));
                            } else {
                                let d = self.names.unknown(a, "piece type");
                                self.err(d);
                            }
                        }
                        let partial = is_partial.then_some(mt);
                        out.push(Instr::Add {
                            promote,
                            copy,
                            partial,
                        });
                    }
                    "capture" => {
                        let l = self.opt_loc(args);
                        out.push(Instr::Capture(l));
                    }
                    "capture-groups" => out.extend(self.capture_groups(node, args)),
                    "take-prisoner" => {
                        if args.len() > 1 {
                            self.err(Diagnostic::error(
                                node.span,
                                "`take-prisoner` takes at most a position or direction",
                            ));
                            return;
                        }
                        let l = self.opt_loc(args);
                        out.push(Instr::TakePrisoner(l));
                    }
                    "add-rotate" => {
                        if let Some(i) = self.add_rotate(node, args) {
                            out.push(i);
                        }
                    }
                    "carry" => {
                        match args {
                            [n] => {
                                let e = self.expr(n);
                                out.push(Instr::Carry(e));
                            }
                            _ => {
                                self.err(
                                Diagnostic::error(node.span, "`carry` needs one number: the pieces the column moves with")
                                    .with_hint("(carry 1) moves the top piece alone"),
                            );
                            }
                        }
                    }
                    "flip" => {
                        let l = self.opt_loc(args);
                        out.push(Instr::Flip(l));
                    }
                    "change-owner" => {
                        let mut player = PlayerRef::Mover;
                        let mut at = Loc::Cursor;
                        for a in args {
                            if let Some(p) = a.atom().and_then(|n| self.names.player(n)) {
                                player = PlayerRef::Named(p);
                            } else if let Some(l) = self.loc(a) {
                                at = l;
                            }
                        }
                        out.push(Instr::ChangeOwner(player, at));
                    }
                    "change-type" => {
                        let Some(t) = args.first().and_then(|a| self.piece_arg(a)) else {
                            if args.is_empty() {
                                self.err(Diagnostic::error(
                                    node.span,
                                    "`change-type` needs a piece type",
                                ));
                            }
                            return;
                        };
                        let l = self.opt_loc(&args[1..]);
                        out.push(Instr::ChangeType(t, l));
                    }
                    "create" => {
                        let mut player = PlayerRef::Mover;
                        let mut piece = None;
                        let mut at = Loc::Cursor;
                        for a in args {
                            let name = a.atom().unwrap_or("");
                            if let Some(p) = self.names.player(name) {
                                player = PlayerRef::Named(p);
                            } else if let Some(t) = self.names.piece(name) {
                                piece = Some(t);
                            } else if let Some(l) = self.loc(a) {
                                at = l;
                            }
                        }
                        out.push(Instr::Create { player, piece, at });
                    }
                    "set-flag" => {
                        let (Some(f), Some(v)) = (args.first().and_then(|n| n.atom()), args.get(1))
                        else {
                            self.err(
                                Diagnostic::error(node.span, "`set-flag` needs a flag and a value")
                                    .with_hint("(set-flag name true)"),
                            );
                            return;
                        };
                        let f = self.names.flag(f);
                        let v = self.cond(v);
                        out.push(Instr::SetFlag(f, v));
                    }
                    "set-position-flag" => {
                        let (Some(f), Some(v)) = (args.first().and_then(|n| n.atom()), args.get(1))
                        else {
                            self.err(Diagnostic::error(
                                node.span,
                                "`set-position-flag` needs a flag and a value",
                            ));
                            return;
                        };
                        let f = self.names.position_flag(f);
                        let v = self.cond(v);
                        let l = self.opt_loc(&args[2..]);
                        out.push(Instr::SetPositionFlag(f, v, l));
                    }
                    "set-attribute" => {
                        let (Some(a), Some(v)) = (args.first(), args.get(1)) else {
                            self.err(Diagnostic::error(
                                node.span,
                                "`set-attribute` needs an attribute and a value",
                            ));
                            return;
                        };
                        let Some(attr) = a.atom().and_then(|n| self.names.attribute(n)) else {
                            let d = self.names.unknown(a, "attribute");
                            self.err(d);
                            return;
                        };
                        if let Some(k) = self.names.int_attributes.iter().position(|x| *x == attr) {
                            let v = self.expr(v);
                            let l = self.opt_loc(&args[2..]);
                            out.push(Instr::SetIntAttribute(k as u8, v, l));
                            return;
                        }
                        let v = self.cond(v);
                        let l = self.opt_loc(&args[2..]);
                        out.push(Instr::SetAttribute(attr, v, l));
                    }
                    "set-var" => {
                        if let Some(i) = self.set_var(node, args) {
                            out.push(i);
                        }
                    }
                    "opposite" => match args
                        .first()
                        .and_then(|n| n.atom())
                        .and_then(|a| self.names.board.direction(a))
                    {
                        Some(d) => out.push(Instr::StepOpposite(d)),
                        None => {
                            let d = self
                                .names
                                .unknown(args.first().unwrap_or(node), "direction");
                            self.err(d);
                        }
                    },
                    _ => {
                        // Not an instruction word: a block whose first element is itself an instruction
                        // (a direction, say), as macros produce.
                        if self.names.board.direction(h).is_some()
                            || self.names.board.position(h).is_some()
                        {
                            for i in items.iter() {
                                self.instr(i, out);
                            }
                        } else {
                            let d = self.names.unknown(head, "instruction");
                            self.err(d);
                        }
                    }
                }
            }
        }
    }

    /// `(choose (positions C...) [(otherwise (positions C...))] instr...)` (docs/language.md, "Choices").
    fn choose(&mut self, node: &Node, args: &[Node], out: &mut Vec<Instr>) {
        let set = |pc: &mut Self, n: Option<&Node>, what: &str| -> Option<Cond> {
            match n {
                Some(n)
                    if n.head()
                        .is_some_and(|h| h.eq_ignore_ascii_case("positions")) =>
                {
                    Some(match n.args() {
                        [] => Cond::True,
                        [one] => pc.cond(one),
                        many => Cond::And(many.iter().map(|c| pc.cond(c)).collect()),
                    })
                }
                _ => {
                    pc.err(
                        Diagnostic::error(
                            n.map_or(node.span, |n| n.span),
                            format!("{what} is (positions CONDITION...)"),
                        )
                        .with_hint("(choose (positions enemy? (not in-mill?)) capture)"),
                    );
                    None
                }
            }
        };
        let Some(first) = set(self, args.first(), "the first argument of `choose`") else {
            return;
        };
        let mut rest = args.get(1..).unwrap_or(&[]);
        let mut otherwise = None;
        if let Some(o) = rest.first().filter(|n| {
            n.head()
                .is_some_and(|h| h.eq_ignore_ascii_case("otherwise"))
        }) {
            if o.args().len() != 1 {
                self.err(Diagnostic::error(
                    o.span,
                    "`otherwise` holds one (positions CONDITION...)",
                ));
                return;
            }
            otherwise = set(self, o.args().first(), "`otherwise`");
            if otherwise.is_none() {
                return;
            }
            rest = &rest[1..];
        }
        let body = self.block(rest);
        out.push(Instr::Choose(Box::new(Choice {
            set: first,
            otherwise,
            body,
            rest: vec![],
        })));
    }

    /// The condition of `verify`: one argument, or several taken as `and`.
    fn cond_args(&mut self, node: &Node, args: &[Node]) -> Cond {
        match args {
            [] => {
                self.err(Diagnostic::error(node.span, "`verify` needs a condition"));
                Cond::True
            }
            [one] => self.cond(one),
            many => Cond::And(many.iter().map(|n| self.cond(n)).collect()),
        }
    }

    /// Compiles a predicate.
    pub fn cond(&mut self, node: &Node) -> Cond {
        if self.diags.len() > MAX_DIAGNOSTICS {
            return Cond::False;
        }
        match &node.kind {
            NodeKind::Atom(a) => self.pred(node, a, &[]),
            NodeKind::Str(_) => {
                self.err(Diagnostic::error(node.span, "a string is not a condition"));
                Cond::False
            }
            NodeKind::List(items) => match items.first().and_then(|h| h.atom()) {
                Some(h) => self.pred(node, h, &items[1..]),
                None if items.len() == 1 => self.cond(&items[0]),
                None => {
                    self.err(Diagnostic::error(node.span, "expected a condition"));
                    Cond::False
                }
            },
        }
    }

    fn pred(&mut self, node: &Node, word: &str, args: &[Node]) -> Cond {
        let w = lower(word);
        match w.as_ref() {
            "true" => return Cond::True,
            "false" => return Cond::False,
            "and" => return Cond::And(args.iter().map(|a| self.cond(a)).collect()),
            "or" => return Cond::Or(args.iter().map(|a| self.cond(a)).collect()),
            w if super::numbers::cmp_op(w).is_some() => {
                return self.compare(node, super::numbers::cmp_op(w).unwrap(), args)
            }
            "not" => {
                return match args {
                    [one] => Cond::Not(Box::new(self.cond(one))),
                    _ => {
                        self.err(Diagnostic::error(node.span, "`not` takes one condition"));
                        Cond::False
                    }
                }
            }
            _ => {}
        }
        let (neg, base) = negated(&w);
        let c = match self.positive_pred(node, base, args) {
            Some(c) => c,
            None => {
                // `not-x` may be a name of its own (an attribute called `not-moved`).
                if neg {
                    if let Some(c) = self.positive_pred(node, &w, args) {
                        return c;
                    }
                }
                let d = self.names.unknown(
                    node.list().and_then(|l| l.first()).unwrap_or(node),
                    "condition",
                );
                self.err(d);
                return Cond::False;
            }
        };
        if neg {
            Cond::Not(Box::new(c))
        } else {
            c
        }
    }

    fn positive_pred(&mut self, node: &Node, w: &str, args: &[Node]) -> Option<Cond> {
        let c = match w {
            "empty?" => Cond::Empty(self.opt_loc(args)),
            "friend?" => Cond::Friend(self.opt_loc(args)),
            "enemy?" => Cond::Enemy(self.opt_loc(args)),
            "my?" => Cond::Mine(self.opt_loc(args)),
            "neutral?" => Cond::Neutral(self.opt_loc(args)),
            "last-from?" => Cond::LastFrom(self.opt_loc(args)),
            "last-to?" => Cond::LastTo(self.opt_loc(args)),
            "marked?" => Cond::Marked(self.opt_loc(args)),
            "visited?" => {
                self.names.memory = true;
                Cond::Visited(self.opt_loc(args))
            }
            "last-direction?" => {
                self.names.memory = true;
                let d = args
                    .first()
                    .and_then(|a| a.atom())
                    .and_then(|a| self.names.board.direction(a));
                let Some(d) = d else {
                    let d = self
                        .names
                        .unknown(args.first().unwrap_or(node), "direction");
                    self.err(d);
                    return Some(Cond::False);
                };
                Cond::LastDirection(d)
            }
            "suicide?" => Cond::Suicide(self.opt_loc(args)),
            "attacked?" | "defended?" => {
                // Arguments: a location and/or a move type, in any order.
                let mut loc = Loc::Cursor;
                let mut mt = None;
                for a in args {
                    let name = a.atom().unwrap_or("");
                    let l = self
                        .names
                        .move_types
                        .iter()
                        .position(|m| m.eq_ignore_ascii_case(name));
                    match l {
                        Some(i)
                            if self.names.board.direction(name).is_none()
                                && self.names.board.position(name).is_none() =>
                        {
                            mt = Some(MoveType(i as u16))
                        }
                        _ => loc = self.loc(a).unwrap_or(Loc::Cursor),
                    }
                }
                if w == "attacked?" {
                    Cond::Attacked(loc, mt)
                } else {
                    Cond::Defended(loc, mt)
                }
            }
            "on-board?" => Cond::OnBoard(self.opt_loc(args)),
            "piece?" => {
                let Some(t) = args.first().and_then(|a| self.piece_arg(a)) else {
                    if args.is_empty() {
                        self.err(Diagnostic::error(node.span, "`piece?` needs a piece type"));
                    }
                    return Some(Cond::False);
                };
                Cond::Piece(vec![t], self.opt_loc(&args[1..]))
            }
            "in-zone?" => {
                let Some(z) = args
                    .first()
                    .and_then(|a| a.atom())
                    .and_then(|a| self.names.board.zone(a))
                else {
                    let d = self.names.unknown(args.first().unwrap_or(node), "zone");
                    self.err(d);
                    return Some(Cond::False);
                };
                Cond::InZone(z, self.opt_loc(&args[1..]))
            }
            "position?" => {
                let Some(p) = args
                    .first()
                    .and_then(|a| a.atom())
                    .and_then(|a| self.names.board.position(a))
                else {
                    let d = self.names.unknown(args.first().unwrap_or(node), "position");
                    self.err(d);
                    return Some(Cond::False);
                };
                Cond::IsPosition(p, self.opt_loc(&args[1..]))
            }
            "flag?" => {
                let Some(f) = args.first().and_then(|a| a.atom()) else {
                    self.err(Diagnostic::error(node.span, "`flag?` needs a flag name"));
                    return Some(Cond::False);
                };
                Cond::Flag(self.names.flag(f))
            }
            "position-flag?" => {
                let Some(f) = args.first().and_then(|a| a.atom()) else {
                    self.err(Diagnostic::error(
                        node.span,
                        "`position-flag?` needs a flag name",
                    ));
                    return Some(Cond::False);
                };
                let f = self.names.position_flag(f);
                Cond::PositionFlag(f, self.opt_loc(&args[1..]))
            }
            other => {
                let a = self.names.attribute(other)?;
                Cond::Attribute(a, self.opt_loc(args))
            }
        };
        Some(c)
    }
}

/// Removes the programs of a piece that repeat an earlier one (same move type, same instructions): they can
/// only emit the moves the first one emits, which the engine lists once anyway (moves of one net effect are
/// one move), so the legal moves are the same and generation is not repeated. A macro pasted thousands of
/// times (a fuzzed file: 3,000 copies of one slide) would otherwise cost that many runs per piece and
/// position.
pub fn drop_repeated_programs(progs: &mut Vec<MoveProgram>) {
    if progs.len() < 2 {
        return;
    }
    let mut by_text: HashMap<(Option<MoveType>, &str), Vec<usize>> = HashMap::default();
    let mut keep = vec![true; progs.len()];
    for (i, p) in progs.iter().enumerate() {
        let same = by_text.entry((p.move_type, p.source.as_str())).or_default();
        if same.iter().any(|&j| progs[j].body == p.body) {
            keep[i] = false;
        } else {
            same.push(i);
        }
    }
    if keep.iter().all(|&k| k) {
        return;
    }
    let mut i = 0;
    progs.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}
