//! The compiler: the expanded sections of one game or variant to an immutable [`Game`]. Sections are compiled
//! in dependency order (players, board, piece names, programs, setup, end conditions), so that every name is
//! resolved against what the file declared.

pub mod attack;
pub mod board;
pub mod code;
pub mod dagaz_site;
pub mod dagaz_site_table;
pub mod extension;
pub mod game;
pub mod groups;
pub mod hand;
pub mod invariant;
pub mod missing;
pub mod numbers;
pub mod ordering;
pub mod outside;
mod pieces;
pub mod program;
pub mod sow;
pub mod stacks;
pub mod turns;

pub use extension::Module;
pub use game::*;
pub use groups::RepetitionRule;
pub use missing::{MissingKind, MissingRule};
pub use numbers::{ArithOp, CmpOp, Counted, Expr};
pub use ordering::{Criterion, Measure};

use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, GameSource, Node, NodeKind};
use pieces::Declared;
use program::{Names, ProgramCompiler};
use rustc_hash::FxHashMap as HashMap;

/// The hint of the warning that lists a missing rule.
const MISSING_RULE_HINT: &str =
    "the game is played without this rule; `playout` and `tournament` refuse it \
                                 unless given --allow-missing-rules";

/// Sections that concern only a screen or a reader: kept as metadata, never rules.
const METADATA_SECTIONS: &[&str] = &[
    "title",
    "description",
    "history",
    "strategy",
    "help",
    "image",
    "music",
    "solution",
    "default",
    "notation",
    "start-rectangle",
    "look-at",
    "opening",
    "credits",
    "author",
    "date",
    "version",
    "board-image",
];

/// The attribute that `(huffing ...)` declares for its marks.
pub const HUFF_MARK: &str = "huffable";

/// The sections that carry rules, for suggestions when a section is not known.
const RULE_SECTIONS: &[&str] = &[
    "players",
    "turn-order",
    "board",
    "piece",
    "board-setup",
    "move-priorities",
    "optional-priority",
    "huffing",
    "option",
    "win-condition",
    "loss-condition",
    "draw-condition",
    "count-condition",
    "variables",
    "player-variables",
    "ply-variables",
    "turn-variables",
    "phases",
    "capture-order",
    "captures-to-hand",
    "pre",
    "post",
    "move-post",
    "forbid-repetition",
    "irreversible",
    "stacks",
    "extension",
];

/// Option names are matched with dashes and spaces equivalent, in lower case.
fn option_key(name: &str) -> String {
    name.trim().to_ascii_lowercase().replace(['-', '_'], " ")
}

fn bool_value(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Some(true),
        "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// The reason a file cannot be played: its rules live in an external Axiom engine.
pub fn engine_of(src: &GameSource) -> Option<(String, crate::lang::Span)> {
    src.sections
        .iter()
        .find(|s| s.head().is_some_and(|h| h.eq_ignore_ascii_case("engine")))
        .map(|s| {
            (
                s.args()
                    .first()
                    .and_then(|n| n.text())
                    .unwrap_or("?")
                    .to_string(),
                s.span,
            )
        })
}

struct Compiler<'d> {
    diags: &'d mut Vec<Diagnostic>,
    /// Rules of the file the engine does not apply (see [`missing`]).
    missing: Vec<MissingRule>,
    /// Game and player variables, and the players, for end conditions.
    variables: Vec<Variable>,
    players_for_vars: Vec<PlayerInfo>,
    /// The integer attributes by name, with their fields, for `(sum ATTR ...)` in end conditions.
    int_attr_names: Vec<(String, u8)>,
    /// The modules the file names and those of the command line: asked about setup positions the board
    /// lacks (`Module::setup_position`).
    modules: Vec<&'static dyn Module>,
    /// The modules a file may name (the caller's; see [`compile_with`]).
    known: &'d [&'static dyn Module],
}

impl Compiler<'_> {
    fn err(&mut self, span: crate::lang::Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// `move-priorities`: the move types in order; the last section wins. A type no piece uses is declared
    /// with a warning.
    fn move_priorities(
        &mut self,
        sections: &[&Node],
        move_types: &mut Vec<String>,
    ) -> Vec<MoveType> {
        let mut move_priorities = vec![];
        for s in sections {
            move_priorities.clear();
            for a in s.args() {
                match a.atom() {
                    Some(n) => {
                        let l = n.to_ascii_lowercase();
                        let id = match move_types.iter().position(|m| *m == l) {
                            Some(i) => i,
                            None => {
                                self.diags.push(Diagnostic::warning(
                                    a.span,
                                    format!(
                                        "move type `{n}` in move-priorities is used by no piece"
                                    ),
                                ));
                                move_types.push(l);
                                move_types.len() - 1
                            }
                        };
                        move_priorities.push(MoveType(id as u16));
                    }
                    None => self.err(a.span, "a move priority is a move type name"),
                }
            }
        }
        move_priorities
    }

    /// A `(huffing T...)` section: the move types that are captures, each a type some piece moves with,
    /// none ranked in `move-priorities` (huffing makes captures optional). `None` after an error.
    fn huffing(
        &mut self,
        s: &Node,
        mark: AttrId,
        move_types: &[String],
        move_priorities: &[MoveType],
    ) -> Option<Huffing> {
        let mut types = vec![];
        let errors = self.diags.iter().filter(|d| d.is_error()).count();
        if s.args().is_empty() {
            self.err(
                s.span,
                "`huffing` names the move types that are captures: one or more",
            );
        }
        for a in s.args() {
            let Some(n) = a.atom() else {
                self.err(a.span, "`huffing` lists move type names");
                continue;
            };
            let l = n.to_ascii_lowercase();
            match move_types.iter().position(|m| *m == l) {
                Some(i) => {
                    let t = MoveType(i as u16);
                    if move_priorities.contains(&t) {
                        self.err(
                            a.span,
                            format!("huffing makes captures optional; `{n}` is ranked in move-priorities"),
                        );
                    }
                    if !types.contains(&t) {
                        types.push(t);
                    }
                }
                None => self.err(
                    a.span,
                    format!("move type `{n}` in `huffing` is used by no piece"),
                ),
            }
        }
        let ok = self.diags.iter().filter(|d| d.is_error()).count() == errors;
        ok.then_some(Huffing { types, mark })
    }

    /// A `win-condition`, `loss-condition`, `draw-condition` or `count-condition` section (`head`), the
    /// `index`-th end condition of the game: its players, name, priority and condition.
    fn end_section(
        &mut self,
        s: &Node,
        head: &str,
        players: &[PlayerInfo],
        piece_index: &HashMap<String, PieceType>,
        board: &Board,
        index: usize,
    ) -> Option<EndCondition> {
        let kind = match head {
            "win-condition" => EndKind::Win,
            "loss-condition" => EndKind::Loss,
            "draw-condition" => EndKind::Draw,
            _ => EndKind::Count,
        };
        let args = s.args();
        let Some(first) = args.first() else {
            self.err(s.span, format!("`{head}` needs players and a condition"));
            return None;
        };
        let ps: Vec<Player> = match first.list() {
            Some(l) => l.iter().filter_map(|p| self.player(p, players)).collect(),
            None => {
                self.err(
                    first.span,
                    "expected the list of players, as in `(White Black)`",
                );
                return None;
            }
        };
        let mut name = None;
        let mut priority = None;
        let mut conds = vec![];
        for a in &args[1..] {
            match a.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                Some("name") => name = a.args().first().and_then(|n| n.text()).map(str::to_string),
                Some("priority") => {
                    match a
                        .args()
                        .first()
                        .and_then(|n| n.atom())
                        .and_then(|t| t.parse::<i32>().ok())
                    {
                        Some(p) => priority = Some(p),
                        None => self.err(a.span, "`priority` needs a whole number"),
                    }
                }
                _ => conds.push(a),
            }
        }
        let cond = match conds.as_slice() {
            [one] => self.end_cond(one, piece_index, board),
            [] => {
                self.err(s.span, format!("`{head}` needs a condition"));
                None
            }
            many => {
                let subs: Vec<_> = many
                    .iter()
                    .filter_map(|n| self.end_cond(n, piece_index, board))
                    .collect();
                Some(EndCond::And(subs))
            }
        };
        let cond = cond?;
        Some(EndCondition {
            kind,
            players: ps,
            name: name.unwrap_or_else(|| cond.kind().to_string()),
            cond,
            priority: priority.unwrap_or(-(index as i32)),
            span: s.span,
        })
    }

    fn players(&mut self, sections: &[&Node]) -> Vec<PlayerInfo> {
        let mut players: Vec<PlayerInfo> = Vec::new();
        for s in sections {
            players.clear();
            for a in s.args() {
                match a.atom() {
                    Some(name) if players.iter().any(|p| p.name.eq_ignore_ascii_case(name)) => {
                        self.err(a.span, format!("player `{name}` is listed twice"))
                    }
                    Some(name) => players.push(PlayerInfo {
                        name: name.to_string(),
                        random: name.starts_with('?'),
                    }),
                    None => self.err(a.span, "a player is a name"),
                }
            }
        }
        if players.len() > 64 {
            self.err(sections[0].span, "more than 64 players");
            players.truncate(64);
        }
        players
    }

    fn player(&mut self, node: &Node, players: &[PlayerInfo]) -> Option<Player> {
        let name = node.atom().unwrap_or("");
        match players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name))
        {
            Some(i) => Some(Player(i as u8)),
            None => {
                let d = Diagnostic::error(
                    node.span,
                    format!("unknown player `{}`", node.text().unwrap_or("(list)")),
                );
                let d = match suggest(name, players.iter().map(|p| p.name.as_str())) {
                    Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                    None => d.with_hint(format!(
                        "the players are {}",
                        players
                            .iter()
                            .map(|p| p.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                self.diags.push(d);
                None
            }
        }
    }

    fn turn_order(
        &mut self,
        section: Option<&Node>,
        players: &[PlayerInfo],
        names: &mut Vec<String>,
    ) -> TurnOrder {
        let default = || TurnOrder {
            entries: (0..players.len())
                .map(|i| TurnEntry {
                    player: Player(i as u8),
                    moves_as: Player(i as u8),
                    move_type: None,
                })
                .collect(),
            repeat_from: 0,
            ..Default::default()
        };
        let Some(section) = section else {
            return default();
        };
        let mut entries = Vec::new();
        let mut repeat_from = 0;
        let mut marks = turns::Marks::default();
        for a in section.args() {
            if a.is_atom("repeat") {
                repeat_from = entries.len();
                continue;
            }
            if self.turn_mark(a, players, entries.len(), &mut marks) {
                continue;
            }
            match &a.kind {
                NodeKind::Atom(_) => {
                    if let Some(p) = self.player(a, players) {
                        entries.push(TurnEntry {
                            player: p,
                            moves_as: p,
                            move_type: None,
                        });
                    }
                }
                NodeKind::List(items) if !items.is_empty() && items.len() <= 3 => {
                    let Some(p) = self.player(&items[0], players) else {
                        continue;
                    };
                    let mut e = TurnEntry {
                        player: p,
                        moves_as: p,
                        move_type: None,
                    };
                    for (k, it) in items[1..].iter().enumerate() {
                        let name = it.atom().unwrap_or("");
                        let is_player = players.iter().any(|q| q.name.eq_ignore_ascii_case(name));
                        if k == 0 && is_player && items.len() >= 2 {
                            e.moves_as = self.player(it, players).unwrap_or(p);
                        } else if !name.is_empty() {
                            let l = name.to_ascii_lowercase();
                            let id = match names.iter().position(|n| *n == l) {
                                Some(i) => i,
                                None => {
                                    names.push(l);
                                    names.len() - 1
                                }
                            };
                            e.move_type = Some(MoveType(id as u16));
                        } else {
                            self.err(it.span, "expected a player or a move type");
                        }
                    }
                    entries.push(e);
                }
                _ => self.err(
                    a.span,
                    "a turn is `P`, `(P move-type)`, `(P Q)` or `(P Q move-type)`",
                ),
            }
        }
        if entries.is_empty() {
            self.err(section.span, "empty turn order");
            return default();
        }
        if repeat_from >= entries.len() {
            repeat_from = 0;
        }
        let (labels, jumps) = self.resolve_marks(marks, entries.len());
        TurnOrder {
            entries,
            repeat_from,
            labels,
            jumps,
        }
    }

    fn piece_list(
        &mut self,
        nodes: &[Node],
        pieces: &HashMap<String, PieceType>,
    ) -> Vec<PieceType> {
        let mut out = vec![];
        for n in nodes {
            match &n.kind {
                NodeKind::List(items) => out.extend(self.piece_list(items, pieces)),
                _ => match n.atom().and_then(|a| pieces.get(&a.to_ascii_lowercase())) {
                    Some(&t) => out.push(t),
                    None => self.unknown_piece(n, pieces),
                },
            }
        }
        out
    }

    fn unknown_piece(&mut self, n: &Node, pieces: &HashMap<String, PieceType>) {
        let word = n.text().unwrap_or("(list)");
        let d = Diagnostic::error(n.span, format!("unknown piece type `{word}`"));
        let d = match suggest(word, pieces.keys().map(String::as_str)) {
            Some(s) => d.with_hint(format!("did you mean `{s}`?")),
            None => d,
        };
        self.diags.push(d);
    }

    fn setup(
        &mut self,
        sections: &[&Node],
        players: &[PlayerInfo],
        pieces: &HashMap<String, PieceType>,
        board: &Board,
    ) -> Setup {
        let mut setup = Setup::default();
        for s in sections {
            for per_player in s.args() {
                let Some(items) = per_player.list().filter(|l| !l.is_empty()) else {
                    self.err(per_player.span, "expected `(Player (Piece pos ...) ...)`");
                    continue;
                };
                let Some(player) = self.player(&items[0], players) else {
                    continue;
                };
                for group in &items[1..] {
                    let Some(g) = group.list().filter(|l| !l.is_empty()) else {
                        self.err(group.span, "expected `(Piece pos ...)`");
                        continue;
                    };
                    let Some(&t) = g[0]
                        .atom()
                        .and_then(|a| pieces.get(&a.to_ascii_lowercase()))
                    else {
                        self.unknown_piece(&g[0], pieces);
                        continue;
                    };
                    // `off N` may stand anywhere in the list: N pieces go to the reserve; the other words are
                    // positions.
                    let mut positions: Vec<&Node> = Vec::with_capacity(g.len());
                    let mut k = 1;
                    while k < g.len() {
                        if g[k].is_atom("off") {
                            match g
                                .get(k + 1)
                                .and_then(|n| n.atom())
                                .and_then(|a| a.parse::<u32>().ok())
                            {
                                Some(n) => setup.reserves.push((player, t, n)),
                                None => self.err(g[k].span, "`off` needs a count: `(Piece off N)`"),
                            }
                            k += 2;
                        } else {
                            positions.push(&g[k]);
                            k += 1;
                        }
                    }
                    let rest = positions;
                    for p in rest {
                        match p.atom().and_then(|a| board.position(a)) {
                            Some(pos) => setup.pieces.push((player, t, pos)),
                            None => {
                                let name = p.text().unwrap_or("(list)");
                                if let Some((m, why)) = self.modules.iter().find_map(|m| {
                                    p.atom().and_then(|a| m.setup_position(a)).map(|w| (m, w))
                                }) {
                                    self.diags.push(Diagnostic::warning(
                                        p.span,
                                        format!(
                                            "setup position `{name}` is not placed: extension module `{}`: {why}",
                                            m.name()
                                        ),
                                    ));
                                    continue;
                                }
                                let d =
                                    Diagnostic::error(p.span, format!("unknown position `{name}`"));
                                let d = match suggest(
                                    name,
                                    board.positions.iter().map(|q| q.name.as_str()),
                                ) {
                                    Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                                    None => d,
                                };
                                self.diags.push(d);
                            }
                        }
                    }
                }
            }
        }
        setup
    }

    fn option(&mut self, opts: &mut Options, name: &str, value: &Node) {
        let key = option_key(name);
        let v = value.text().unwrap_or("").to_ascii_lowercase();
        opts.all.push((key.clone(), v.clone()));
        let flag = |c: &mut Self, target: &mut bool| match bool_value(&v) {
            Some(b) => *target = b,
            None => c.err(value.span, format!("option `{key}` takes true or false")),
        };
        match key.as_str() {
            "pass turn" => {
                opts.pass_turn = match v.as_str() {
                    "true" | "1" => PassTurn::Yes,
                    "false" | "0" => PassTurn::No,
                    "forced" | "2" => PassTurn::Forced,
                    _ => {
                        self.err(value.span, "`pass turn` is true, false or forced");
                        PassTurn::No
                    }
                }
            }
            "maximal captures" => {
                opts.maximal_captures = match v.as_str() {
                    "true" | "1" => MaximalCaptures::Pieces,
                    "false" | "0" => MaximalCaptures::No,
                    "2" => MaximalCaptures::KingsThenPieces,
                    _ => {
                        self.err(value.span, "`maximal captures` is true, false or 2");
                        MaximalCaptures::No
                    }
                }
            }
            "pass partial" => flag(self, &mut opts.pass_partial),
            "recycle captures" => flag(self, &mut opts.recycle_captures),
            "discard cascades" => flag(self, &mut opts.discard_cascades),
            "include off pieces" => flag(self, &mut opts.include_off_pieces),
            "deferred captures" => flag(self, &mut opts.deferred_captures),
            "shared pieces" => flag(self, &mut opts.shared_pieces),
            "detect loops" => flag(self, &mut opts.detect_loops),
            k if missing::UI_OPTIONS.contains(&k) => {}
            // An unknown rule switched off asks for nothing the engine lacks.
            _ if bool_value(&v) == Some(false) => self.diags.push(Diagnostic::warning(
                value.span,
                format!("unknown option `{name}` is set to {v}: ignored"),
            )),
            k => {
                let value_text = value.text().unwrap_or("");
                self.missing_rule(MissingKind::Option, name, value_text, value.span);
                // Dagaz's board models (`heap`: several pieces per position) are not applied; say what is.
                if k == "board model" {
                    if let Some(d) = self.diags.last_mut() {
                        d.hint = Some(format!(
                            "this engine keeps columns of pieces when the game declares `(stacks)`; {}",
                            d.hint.take().unwrap_or_default()
                        ));
                    }
                }
            }
        }
    }

    /// Records a rule the engine does not apply, with a warning at its place.
    fn missing_rule(
        &mut self,
        kind: MissingKind,
        name: &str,
        value: &str,
        span: crate::lang::Span,
    ) {
        let rule = MissingRule::new(kind, name, value, span);
        self.diags
            .push(Diagnostic::warning(span, rule.clause()).with_hint(MISSING_RULE_HINT));
        self.missing.push(rule);
    }

    fn end_cond(
        &mut self,
        node: &Node,
        pieces: &HashMap<String, PieceType>,
        board: &Board,
    ) -> Option<EndCond> {
        let (head, args) = match &node.kind {
            NodeKind::Atom(a) => (a.to_ascii_lowercase(), &[][..]),
            NodeKind::List(items) if !items.is_empty() && items[0].atom().is_some() => {
                (items[0].atom().unwrap().to_ascii_lowercase(), &items[1..])
            }
            _ => {
                self.err(node.span, "expected an end condition");
                return None;
            }
        };
        let count = |c: &mut Self, n: Option<&Node>| -> Option<u32> {
            match n.and_then(|n| n.atom()).and_then(|a| a.parse::<u32>().ok()) {
                Some(v) => Some(v),
                None => {
                    c.err(node.span, format!("`{head}` needs a count"));
                    None
                }
            }
        };
        // Per player: a zone stands for the squares it has for that player.
        let positions = |c: &mut Self, n: &Node| -> Vec<Vec<Pos>> {
            let np = board.nav.len().max(1);
            let mut out = vec![vec![]; np];
            let items: &[Node] = match n.list() {
                Some(l) => l,
                None => std::slice::from_ref(n),
            };
            for p in items {
                let name = p.atom().unwrap_or("");
                if let Some(pos) = board.position(name) {
                    out.iter_mut().for_each(|o| o.push(pos));
                } else if let Some(z) = board.zone(name) {
                    let zone = &board.zones[z.idx()];
                    for (player, o) in out.iter_mut().enumerate() {
                        if let Some(m) = zone.members.get(player) {
                            o.extend((0..m.len()).filter(|&i| m[i]).map(|i| Pos(i as u16)));
                        }
                    }
                } else {
                    c.err(
                        p.span,
                        format!("unknown position `{}`", p.text().unwrap_or("(list)")),
                    );
                }
            }
            out
        };
        // `(opponent T...)` in a config means the pieces are the opponent's; `(not T...)` any square without one.
        let types = |c: &mut Self, nodes: &[Node]| -> (Vec<PieceType>, bool, bool) {
            let mut opp = false;
            let mut neg = false;
            let mut out = vec![];
            for n in nodes {
                match n.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                    Some("opponent") => {
                        opp = true;
                        out.extend(c.piece_list(n.args(), pieces));
                    }
                    Some("not") => {
                        neg = true;
                        out.extend(c.piece_list(n.args(), pieces));
                    }
                    _ => out.extend(c.piece_list(std::slice::from_ref(n), pieces)),
                }
            }
            (out, opp, neg)
        };
        Some(match head.as_str() {
            "stalemated" => EndCond::Stalemated,
            "blocked" => EndCond::Blocked,
            "repetition" => EndCond::Repetition,
            "pieces-remaining" => {
                let n = count(self, args.first())?;
                EndCond::PiecesRemaining {
                    n,
                    types: self.piece_list(args.get(1..).unwrap_or(&[]), pieces),
                }
            }
            "total-piece-count" => {
                let n = count(self, args.first())?;
                EndCond::TotalPieceCount {
                    n,
                    types: self.piece_list(args.get(1..).unwrap_or(&[]), pieces),
                }
            }
            "connected" => {
                // This project's extension (docs/language.md, "Numbers"): one group of pieces.
                let (types, opponent, negated) = types(self, args);
                if negated {
                    self.err(
                        node.span,
                        "`connected` takes piece types or (opponent T...), not (not T)",
                    );
                }
                EndCond::Connected { types, opponent }
            }
            "in-reserve" => EndCond::InReserve(self.piece_list(args, pieces)),
            "connects" => self.connects(node, args, pieces, board)?,
            "caused-repetition" => self.caused_repetition(node, args)?,
            "checkmated" => EndCond::Checkmated(self.piece_list(args, pieces)),
            "captured" => EndCond::Captured(self.piece_list(args, pieces)),
            "absolute-config" => {
                let Some((last, ts)) = args.split_last() else {
                    self.err(
                        node.span,
                        "`absolute-config` needs piece types and positions",
                    );
                    return None;
                };
                let (types, opponent, negated) = types(self, ts);
                EndCond::AbsoluteConfig {
                    types,
                    positions: positions(self, last),
                    opponent,
                    negated,
                }
            }
            "relative-config" => {
                let mut ts = vec![];
                let mut dirs = vec![];
                let mut opponent = false;
                let mut negated = vec![];
                for (i, a) in args.iter().enumerate() {
                    if i % 2 == 0 {
                        let (t, o, n) = types(self, std::slice::from_ref(a));
                        opponent |= o;
                        negated.push(n);
                        ts.push(t.first().copied().unwrap_or_default());
                    } else {
                        match a.atom().and_then(|d| board.direction(d)) {
                            Some(d) => dirs.push(d),
                            None => self.err(
                                a.span,
                                format!("unknown direction `{}`", a.text().unwrap_or("(list)")),
                            ),
                        }
                    }
                }
                EndCond::RelativeConfig {
                    types: ts,
                    dirs,
                    opponent,
                    negated,
                }
            }
            "and" | "or" => {
                let subs: Vec<EndCond> = args
                    .iter()
                    .filter_map(|a| self.end_cond(a, pieces, board))
                    .collect();
                if head == "and" {
                    EndCond::And(subs)
                } else {
                    EndCond::Or(subs)
                }
            }
            w if numbers::cmp_op(w).is_some() => {
                let [a, b] = args else {
                    self.err(node.span, format!("`{w}` compares two numbers"));
                    return None;
                };
                let sums = numbers::StaticSums {
                    int_attrs: &self.int_attr_names,
                    board,
                };
                let (v, p) = (&self.variables, &self.players_for_vars);
                let a = numbers::static_expr(self.diags, v, p, &sums, a);
                let b = numbers::static_expr(self.diags, v, p, &sums, b);
                EndCond::Compare(numbers::cmp_op(w).unwrap(), Box::new((a, b)))
            }
            "not" => EndCond::Not(Box::new(self.end_cond(args.first()?, pieces, board)?)),
            "attacked" | "all-attacked" => self.attacked_end_cond(node, &head, args, pieces)?,
            _ => {
                let words = [
                    "stalemated",
                    "blocked",
                    "repetition",
                    "connected",
                    "connects",
                    "caused-repetition",
                    "pieces-remaining",
                    "total-piece-count",
                    "in-reserve",
                    "checkmated",
                    "captured",
                    "absolute-config",
                    "relative-config",
                    "and",
                    "or",
                    "not",
                    "attacked",
                    "all-attacked",
                ];
                let d = Diagnostic::error(node.span, format!("unknown end condition `{head}`"));
                let d = match suggest(&head, words) {
                    Some(s) => d.with_hint(format!("did you mean `{s}`?")),
                    None => d.with_hint(format!("end conditions are {}", words.join(", "))),
                };
                self.diags.push(d);
                return None;
            }
        })
    }
}

/// Compiles one game or variant, knowing the extension modules `known` (which the file may name). Errors and
/// warnings go to `diags`; `None` when there were errors. `crate::load::compile_source` gives every
/// registered module.
pub fn compile(
    src: &GameSource,
    diags: &mut Vec<Diagnostic>,
    known: &[&'static dyn Module],
) -> Option<Game> {
    compile_with(src, diags, known, &[])
}

/// [`compile`] knowing the extension modules `known`, which the file may name (`(extension NAME)`), for a
/// game that the caller gives the modules `extra` too (the command line's, attached afterwards by
/// [`extension::attach`]): they are asked, with the file's own modules, about setup positions the board
/// lacks.
pub fn compile_with(
    src: &GameSource,
    diags: &mut Vec<Diagnostic>,
    known: &[&'static dyn Module],
    extra: &[&'static dyn Module],
) -> Option<Game> {
    let errors_before = diags.iter().filter(|d| d.is_error()).count();
    if let Some((engine, span)) = engine_of(src) {
        diags.push(
            Diagnostic::error(span, format!("the rules of this game live in the external Axiom engine `{engine}`"))
                .with_hint("dagaz plays rules written in ZRF; a game whose rules are a compiled program cannot be loaded"),
        );
        return None;
    }
    let mut c = Compiler {
        diags,
        missing: vec![],
        variables: vec![],
        players_for_vars: vec![],
        int_attr_names: vec![],
        modules: src
            .sections
            .iter()
            .filter(|s| {
                s.head()
                    .is_some_and(|h| h.eq_ignore_ascii_case("extension"))
            })
            .flat_map(|s| s.args().iter().filter_map(|a| a.text()))
            .filter_map(|name| extension::lookup(known, name))
            .chain(extra.iter().copied())
            .collect(),
        known,
    };
    let by_head = |h: &str| -> Vec<&Node> {
        src.sections
            .iter()
            .filter(|s| s.head().is_some_and(|x| x.eq_ignore_ascii_case(h)))
            .collect()
    };

    let player_sections = by_head("players");
    if player_sections.is_empty() {
        c.err(src.span, "the game declares no `players`");
        return None;
    }
    let players = c.players(&player_sections);

    let boards = by_head("board");
    let board = match boards.as_slice() {
        [] => {
            c.err(src.span, "the game has no `board`");
            return None;
        }
        [one] => board::compile_board(one, &players, c.diags),
        [.., last] => {
            c.diags.push(Diagnostic::warning(
                last.span,
                "several `board` sections: the last one is used",
            ));
            board::compile_board(last, &players, c.diags)
        }
    };

    // Piece names and attributes first: programs may name any piece.
    let piece_nodes = by_head("piece");
    let Declared {
        index: piece_index,
        mut attributes,
        mut attr_index,
        mut pieces,
    } = c.piece_declarations(&piece_nodes);
    if pieces.is_empty() {
        c.err(src.span, "the game declares no pieces");
    }
    // `(huffing ...)` declares the mark its rule keeps: a boolean attribute `huffable` of every piece.
    let huff_sections = by_head("huffing");
    let huff_mark = match huff_sections.first() {
        Some(s) if attr_index.contains_key(HUFF_MARK) => {
            c.err(
                s.span,
                format!("`huffing` keeps its marks in an attribute `{HUFF_MARK}`, which a piece of this game declares too"),
            );
            None
        }
        Some(s) if attributes.len() >= MAX_ATTRIBUTES => {
            c.err(
                s.span,
                "`huffing` needs one attribute more than the 64 a piece has",
            );
            None
        }
        Some(_) => {
            let id = AttrId(attributes.len() as u16);
            attributes.push(HUFF_MARK.to_string());
            attr_index.insert(HUFF_MARK.to_string(), id);
            Some(id)
        }
        None => None,
    };

    let int_attributes = numbers::int_attributes(c.diags, &pieces, attributes.len(), src.span);
    let variables = {
        let mut s = by_head("variables");
        s.extend(by_head("player-variables"));
        s.extend(by_head("ply-variables"));
        s.extend(by_head("turn-variables"));
        numbers::variables(c.diags, &s, players.len())
    };
    c.variables = variables.clone();
    c.players_for_vars = players.clone();
    c.int_attr_names = int_attributes
        .iter()
        .enumerate()
        .map(|(k, a)| (attributes[a.idx()].clone(), k as u8))
        .collect();
    let mut move_types: Vec<String> = vec![];
    let turn_order = {
        let t = by_head("turn-order");
        c.turn_order(t.last().copied(), &players, &mut move_types)
    };
    let mut flags = vec![];
    let mut position_flags = vec![];
    let memory;
    let move_post;
    {
        let names = Names {
            board: &board,
            players: &players,
            pieces: &piece_index,
            attributes: &attr_index,
            move_types: &mut move_types,
            flags: &mut flags,
            position_flags: &mut position_flags,
            move_vars: vec![],
            variables: &variables,
            int_attributes: &int_attributes,
            turn_labels: &turn_order.labels,
            memory: false,
        };
        let mut pc = ProgramCompiler {
            names,
            diags: c.diags,
            pre: vec![],
            post: vec![],
        };
        // The move life cycle (`docs/language.md`, "The move life cycle"): one section of each per game.
        let life = |pc: &mut ProgramCompiler, what: &str| -> Vec<Instr> {
            let sections = by_head(what);
            if let Some(extra) = sections.get(1) {
                pc.diags.push(
                    Diagnostic::error(extra.span, format!("a game has one `{what}`"))
                        .with_hint("write every instruction in one section"),
                );
            }
            match sections.last() {
                Some(s) => pc.life_block(s, what),
                None => vec![],
            }
        };
        let game_pre = life(&mut pc, "pre");
        let game_post = life(&mut pc, "post");
        let mut k = 0;
        for p in &piece_nodes {
            let Some(info) = pieces.get_mut(k) else { break };
            let is_this = p
                .args()
                .iter()
                .find(|a| a.head().is_some_and(|h| h.eq_ignore_ascii_case("name")))
                .and_then(|a| a.args().first())
                .and_then(|n| n.text())
                .is_some_and(|n| n.eq_ignore_ascii_case(&info.name));
            if !is_this {
                continue;
            }
            k += 1;
            let forms = |what: &str| {
                p.args()
                    .iter()
                    .filter(|a| a.head().is_some_and(|h| h.eq_ignore_ascii_case(what)))
                    .collect::<Vec<_>>()
            };
            let piece_life = |pc: &mut ProgramCompiler, what: &str| -> Vec<Instr> {
                let found = forms(what);
                if let Some(extra) = found.get(1) {
                    pc.diags.push(
                        Diagnostic::error(
                            extra.span,
                            format!("piece `{}` has one `{what}`", info.name),
                        )
                        .with_hint("write every instruction in one section"),
                    );
                }
                match found.last() {
                    Some(s) => pc.life_block(s, what),
                    None => vec![],
                }
            };
            let piece_pre = piece_life(&mut pc, "pre");
            let piece_post = piece_life(&mut pc, "post");
            pc.pre = game_pre.iter().cloned().chain(piece_pre).collect();
            pc.post = piece_post
                .into_iter()
                .chain(game_post.iter().cloned())
                .collect();
            for a in p.args() {
                match a.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                    Some("moves") => info.moves.extend(pc.section(a.args())),
                    Some("drops") => info.drops.extend(pc.section(a.args())),
                    _ => {}
                }
            }
        }
        // After the pieces: its conditions may name their move types (`(defended? shak-move)`).
        let move_post_body = life(&mut pc, "move-post");
        move_post = by_head("move-post").last().map(|s| {
            let body = move_post_body;
            // Run as a program that ends with the emission of what it recorded, back on its start square (so
            // that the part moves nothing): `engine/gen.rs` turns that emission into the move's last part.
            let mut run = body.clone();
            run.push(Instr::Go(GoTarget::From));
            run.push(Instr::Add {
                promote: vec![],
                copy: false,
                partial: None,
            });
            MoveProgram {
                move_type: None,
                code: code::Code::lower(&run, &board.opposite),
                body,
                span: s.span,
                source: s.to_source_limited(600),
            }
        });
        memory = pc.names.memory;
    }
    for info in &mut pieces {
        program::drop_repeated_programs(&mut info.moves);
        program::drop_repeated_programs(&mut info.drops);
    }

    let move_priorities = c.move_priorities(&by_head("move-priorities"), &mut move_types);

    let setup = c.setup(&by_head("board-setup"), &players, &piece_index, &board);
    let stacks = c.stacks(src);
    c.stacked_setup(&by_head("board-setup"), &board, stacks);
    c.stack_forms_need_stacks(&pieces, stacks);
    let phases = match by_head("phases").last() {
        Some(s) => c.phases(s, &piece_index, &board, &move_types),
        None => vec![],
    };

    let mut options = Options {
        move_memory: memory || variables.iter().any(|v| v.per_turn),
        ..Options::default()
    };
    let mut metadata = vec![];
    let mut end_conditions = vec![];
    let mut capture_order = vec![];
    let mut captures_to_hand: Option<Vec<PieceType>> = None;
    let mut invariants = vec![];
    let mut forbid_repetition = None;
    let mut irreversible: Option<Vec<PieceType>> = None;
    let mut optional_priority: Vec<PieceType> = vec![];
    let mut huffing: Option<Huffing> = None;
    let mut teams: Vec<u8> = (0..players.len() as u8).collect();
    let mut extensions: Vec<(&'static dyn Module, crate::lang::Span)> = vec![];
    for s in &src.sections {
        let Some(head) = s.head().map(|h| h.to_ascii_lowercase()) else {
            c.diags.push(Diagnostic::warning(
                s.span,
                "ignored: a section is a list that starts with a name",
            ));
            continue;
        };
        match head.as_str() {
            "players" | "turn-order" | "board" | "piece" | "board-setup" | "move-priorities"
            | "variables" | "player-variables" | "ply-variables" | "turn-variables" | "phases"
            | "stacks" | "pre" | "post" | "move-post" => {}
            "capture-order" => {
                if !capture_order.is_empty() {
                    c.err(
                        s.span,
                        "a game has one `capture-order`; list every criterion in it",
                    );
                }
                capture_order = c.capture_order(s, &piece_index);
            }
            "captures-to-hand" => {
                if captures_to_hand.is_some() {
                    c.err(
                        s.span,
                        "a game has one `captures-to-hand`; list every demotion in it",
                    );
                }
                let mut map: Vec<PieceType> = (0..pieces.len() as u16).map(PieceType).collect();
                c.captures_to_hand(s, &piece_index, &mut map);
                captures_to_hand = Some(map);
            }
            "invariant" => {
                if let Some(inv) = c.invariant(s, &piece_index, &board) {
                    invariants.push(inv);
                }
            }
            "allies" => c.allies(s, &players, &mut teams),
            "forbid-repetition" => {
                if forbid_repetition.is_some() {
                    c.err(s.span, "a game has one `forbid-repetition`");
                }
                forbid_repetition = c.forbid_repetition(s).or(forbid_repetition);
            }
            "optional-priority" => {
                if !optional_priority.is_empty() {
                    c.err(
                        s.span,
                        "a game has one `optional-priority`; list every type in it",
                    );
                }
                if move_priorities.is_empty() {
                    c.err(
                        s.span,
                        "`optional-priority` frees pieces from `move-priorities`, which this game does not declare",
                    );
                }
                optional_priority = c.piece_list(s.args(), &piece_index);
                if s.args().is_empty() {
                    c.err(s.span, "`optional-priority` names one piece type or more");
                }
            }
            "huffing" => {
                if huffing.is_some() {
                    c.err(
                        s.span,
                        "a game has one `huffing`; list every capture type in it",
                    );
                }
                if let Some(mark) = huff_mark {
                    huffing = c.huffing(s, mark, &move_types, &move_priorities);
                }
            }
            "irreversible" => {
                if irreversible.is_some() {
                    c.err(
                        s.span,
                        "a game has one `irreversible`; list every type in it",
                    );
                }
                let mut types = vec![];
                for a in s.args() {
                    match a
                        .atom()
                        .and_then(|w| piece_index.get(&w.to_ascii_lowercase()))
                    {
                        Some(&t) => types.push(t),
                        None => c.err(
                            a.span,
                            format!("unknown piece type `{}` in `irreversible`", a.to_source()),
                        ),
                    }
                }
                irreversible = Some(types);
            }
            "extension" => c.extensions(s, &mut extensions),
            "option" => match (s.args().first().and_then(|n| n.text()), s.args().get(1)) {
                (Some(name), Some(v)) => c.option(&mut options, name, v),
                _ => c.err(s.span, "`option` needs a name and a value"),
            },
            // The older form of options: `(pass-turn true)`.
            "pass-turn" | "pass-partial" | "recycle-captures" | "discard-cascades"
            | "maximal-captures" | "include-off-pieces" => match s.args().first() {
                Some(v) => c.option(&mut options, &head, v),
                None => c.err(s.span, format!("`{head}` needs a value")),
            },
            "win-condition" | "loss-condition" | "draw-condition" | "count-condition" => {
                let index = end_conditions.len();
                if let Some(e) = c.end_section(s, &head, &players, &piece_index, &board, index) {
                    end_conditions.push(e);
                }
            }
            h if METADATA_SECTIONS.contains(&h)
                || h.ends_with("-sound")
                || h.starts_with("animate") =>
            {
                let text = s.args().iter().map(|a| {
                    a.text()
                        .map(str::to_string)
                        .unwrap_or_else(|| a.to_source())
                });
                metadata.push((head.clone(), text.collect::<Vec<_>>().join(" ")));
            }
            h if missing::UI_SECTIONS.contains(&h) => {}
            _ => {
                c.missing_rule(MissingKind::Section, &head, "", s.span);
                let known = METADATA_SECTIONS.iter().chain(RULE_SECTIONS);
                if let (Some(word), Some(d)) = (suggest(&head, known.copied()), c.diags.last_mut())
                {
                    d.hint = Some(format!(
                        "did you mean `{word}`? {}",
                        d.hint.take().unwrap_or_default()
                    ));
                }
            }
        }
    }
    if end_conditions.is_empty() {
        c.missing_rule(MissingKind::NoEndCondition, "", "", src.span);
    }

    // A macro that pastes its argument twice repeats that argument's error: report each place once.
    let mut seen = rustc_hash::FxHashSet::default();
    let mut index = 0;
    c.diags.retain(|d| {
        index += 1;
        index <= errors_before || seen.insert((d.span, d.message.clone()))
    });
    if c.diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return None;
    }
    // Without allies every player is a team of its own: leave the list empty (`Game::same_team` is then `==`).
    if teams.iter().enumerate().all(|(i, t)| *t as usize == i) {
        teams.clear();
    }
    // `(quiet-plies)` without `(irreversible ...)`: the count since the last capture.
    if irreversible.is_none()
        && end_conditions
            .iter()
            .any(|e: &EndCondition| e.cond.reads_quiet_plies())
    {
        irreversible = Some(vec![]);
    }
    let life_cycle = move_post.is_some()
        || pieces.iter().any(|p| {
            p.moves
                .iter()
                .chain(&p.drops)
                .any(|m| !m.code.posts.is_empty())
        });
    let mut game = Game {
        title: src.title.clone(),
        variant: src.number,
        players,
        turn_order,
        phases,
        board,
        pieces,
        attributes,
        flags,
        position_flags,
        move_types,
        move_priorities,
        optional_priority,
        huffing,
        setup,
        options,
        end_conditions,
        variables,
        int_attributes,
        capture_order,
        captures_to_hand,
        invariants,
        irreversible,
        forbid_repetition,
        teams,
        metadata,
        missing_rules: std::mem::take(&mut c.missing),
        extensions: vec![],
        stacks,
        attack: Default::default(),
        life_cycle,
        move_post,
    };
    sow::check_capacity(&game, c.diags);
    // Rules left to code outside the file, seen from what it writes (`compile/outside.rs`).
    for r in [outside::mover_dice(&game), outside::seed_steps(&game)]
        .into_iter()
        .flatten()
    {
        c.diags
            .push(Diagnostic::warning(r.span, r.clause()).with_hint(MISSING_RULE_HINT));
        game.missing_rules.push(r);
    }
    // Cheap checks before attack searches (`compile/attack.rs`): the same moves, less work.
    let loops = game
        .pieces
        .iter()
        .flat_map(|p| p.moves.iter().chain(&p.drops))
        .any(|p| code::has_loops(&p.body));
    let acyclic = if loops {
        code::acyclic_directions(&game.board)
    } else {
        vec![]
    };
    for piece in &mut game.pieces {
        for prog in piece.moves.iter_mut().chain(piece.drops.iter_mut()) {
            attack::cheap_checks_first_on(&game.board, &mut prog.body);
            // The interpreter runs the bytecode: lower the reordered body again, or the reorder is lost; on
            // the board now known, with the regions attack runs skip marked.
            prog.code = code::Code::lower_on(&prog.body, &game.board.opposite, &acyclic);
        }
    }
    if c.diags.iter().filter(|d| d.is_error()).count() > errors_before {
        return None;
    }
    if !extensions.is_empty() && !c.attach_extensions(&mut game, &extensions) {
        return None;
    }
    Some(game)
}
