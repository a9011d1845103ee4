//! The `board` section: grids, explicit positions, links, unlink, kill-positions, dummy positions, symmetry,
//! zones; and the navigation tables the engine steps through.
//!
//! The forms of a board are applied in phases, not in file order, because real files rely on it:
//!
//! 1. positions: `grid` (with the links its directions make), `positions`, `dummy`; the directions that
//!    `links` forms name are registered here too, so that every name can be referred to from anywhere;
//! 2. `unlink`: it removes links the grids made. It runs before `links` because files such as Kamisado write
//!    `(links next (a9 a1))` and then `(unlink a9 ...)`, and the game needs the explicit link to survive;
//! 3. `links`;
//! 4. `kill-positions` (inside grids or in the board): the positions and every link to or from them vanish,
//!    and the survivors are renumbered;
//! 5. `symmetry` and `zone`.
//!
//! Names. Creating a position or a direction matches names exactly, because real boards have names that
//! differ only in case (Sokoban levels with files `a..z/A/B`, so both `a19` and `A19`; Gwangsanghui with a
//! palace direction `N` beside the grid's `n`). Referring to a name matches exactly first and then
//! case-insensitively, as ZRF names are usually matched.

use super::game::{Board, Dir, PlayerInfo, Pos, PositionInfo, Zone, ZoneId, NO_POS};
use crate::lang::diag::suggest;
use crate::lang::{Diagnostic, Node, Span};
use rustc_hash::FxHashMap as HashMap;

mod rotation;

/// At most this many positions: `NO_POS` (`u16::MAX`) must stay out of reach, with room to spare.
const MAX_POSITIONS: usize = 65_000;
/// At most this many directions (real boards have a few dozen).
const MAX_DIRECTIONS: usize = 4096;
/// At most this many entries in the link tables while building, and in `links` plus all `nav` tables at the
/// end: a bound on memory for absurd inputs (2^25 entries of two bytes is 64 MiB).
const MAX_TABLE_ENTRIES: usize = 1 << 25;
/// At most this many zone memberships (zones × players × positions).
const MAX_ZONE_CELLS: usize = 1 << 26;

/// Board-level forms that only concern the screen: accepted and ignored.
const UI_FORMS: &[&str] = &["image", "start-rectangle", "board-size", "translate"];
/// Zone sub-forms that only concern the screen.
const ZONE_UI_FORMS: &[&str] = &["glyph", "help", "image", "description"];

/// Compiles a `(board ...)` section. Errors go to `diags`; the board returned is as complete as the input allows.
pub fn compile_board(board: &Node, players: &[PlayerInfo], diags: &mut Vec<Diagnostic>) -> Board {
    let mut b = Builder::new(diags);
    let mut unlinks = Vec::new();
    let mut links = Vec::new();
    let mut kills = Vec::new();
    let mut symmetries = Vec::new();
    let mut zones = Vec::new();
    let mut rotations = Vec::new();

    // Phase 1: positions, and the names of every direction.
    for form in board.args() {
        let Some(head) = form.head() else {
            b.diags.push(
                Diagnostic::warning(form.span, format!("unexpected `{}` in the board", short(form)))
                    .with_hint("a board holds forms such as `(grid ...)`, `(positions ...)`, `(links ...)`, `(zone ...)`"),
            );
            continue;
        };
        match head.to_ascii_lowercase().as_str() {
            "grid" => b.grid(form, &mut kills),
            "positions" => b.positions(form),
            "dummy" => b.dummy(form),
            "links" => {
                if let Some(dir) = b.links_direction(form) {
                    links.push((dir, form));
                }
            }
            "unlink" => unlinks.push(form),
            "kill-positions" => kills.push(form),
            "symmetry" => symmetries.push(form),
            "zone" => zones.push(form),
            "rotation" => rotations.push(form),
            h if UI_FORMS.contains(&h) => {}
            _ => b.diags.push(
                Diagnostic::warning(form.span, format!("unknown board form `{head}`: ignored"))
                    .with_hint("the board forms are grid, positions, links, unlink, kill-positions, dummy, symmetry, zone and rotation"),
            ),
        }
    }
    // Phases 2 to 4.
    b.unlink(&unlinks);
    for (dir, form) in links {
        b.links(dir, form);
    }
    for form in kills {
        b.kill(form);
    }
    let mut board = b.finish(players.len());
    // Phase 5.
    for form in symmetries {
        b.symmetry(&mut board, form, players);
    }
    let mut zone_names = Names::default();
    for form in zones {
        b.zone(&mut board, form, players, &mut zone_names);
    }
    board.zone_index = name_index(
        board
            .zones
            .iter()
            .enumerate()
            .map(|(i, z)| (z.name.as_str(), ZoneId(i as u16))),
    );
    for form in rotations {
        b.rotation(&mut board, form);
    }
    board.nav = navigation(&board);
    board.opposite = opposites(&board);
    board
}

/// Names to ids: exact spellings, and lower-case spellings for matching regardless of case.
#[derive(Default)]
struct Names {
    exact: HashMap<String, u16>,
    /// Lower-case name to the id whose name is exactly that, else to the first id with that name in any case.
    folded: HashMap<String, u16>,
}

impl Names {
    fn insert(&mut self, name: &str, id: u16) {
        self.exact.insert(name.to_string(), id);
        let lower = name.to_ascii_lowercase();
        if lower == name {
            self.folded.insert(lower, id);
        } else {
            self.folded.entry(lower).or_insert(id);
        }
    }

    fn exact(&self, name: &str) -> Option<u16> {
        self.exact.get(name).copied()
    }

    /// Exact spelling first, then any case.
    fn find(&self, name: &str) -> Option<u16> {
        self.exact(name).or_else(|| {
            if name.bytes().any(|c| c.is_ascii_uppercase()) {
                self.folded.get(&name.to_ascii_lowercase()).copied()
            } else {
                self.folded.get(name).copied()
            }
        })
    }
}

/// The final name index of [`Board`]: lower-case names, plus the exact spelling of a name that differs only
/// in case from another one (so `A19` and `a19` both resolve). See [`Board::position`].
fn name_index<'a, T: Copy + PartialEq>(
    names: impl Iterator<Item = (&'a str, T)>,
) -> HashMap<String, T> {
    let mut index = HashMap::default();
    let mut mixed = Vec::new();
    for (name, id) in names {
        let lower = name.to_ascii_lowercase();
        if lower == name {
            index.insert(lower, id);
        } else {
            index.entry(lower).or_insert(id);
            mixed.push((name, id));
        }
    }
    for (name, id) in mixed {
        if index.get(&name.to_ascii_lowercase()) != Some(&id) {
            index.insert(name.to_string(), id);
        }
    }
    index
}

/// A grid direction: its id and its vector, one number per dimension.
struct GridDir {
    dir: u16,
    vector: Vec<i64>,
    span: Span,
}

/// The board under construction, before `kill-positions` renumbers it.
struct Builder<'d> {
    diags: &'d mut Vec<Diagnostic>,
    positions: Vec<PositionInfo>,
    pos_names: Names,
    killed: Vec<bool>,
    directions: Vec<String>,
    dir_names: Names,
    /// `links[dir][pos]`, each grown on demand (a missing entry is `NO_POS`).
    links: Vec<Vec<u16>>,
    /// Entries allocated in `links`, checked against `MAX_TABLE_ENTRIES`.
    link_entries: usize,
    /// Old position number to final number (`NO_POS` for killed), set by `finish`.
    renumber: Vec<u16>,
    /// Limits already reported, so that one absurd input makes one error.
    reported_positions: bool,
    reported_directions: bool,
    reported_links: bool,
}

impl<'d> Builder<'d> {
    fn new(diags: &'d mut Vec<Diagnostic>) -> Self {
        Builder {
            diags,
            positions: Vec::new(),
            pos_names: Names::default(),
            killed: Vec::new(),
            directions: Vec::new(),
            dir_names: Names::default(),
            links: Vec::new(),
            link_entries: 0,
            renumber: Vec::new(),
            reported_positions: false,
            reported_directions: false,
            reported_links: false,
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    /// Creates a position, or returns the one of that exact name. `rect` replaces the existing rectangle
    /// when `replace_rect` (an explicit `positions` entry), else only fills a missing one.
    fn define_position(
        &mut self,
        name: &str,
        rect: Option<[i32; 4]>,
        replace_rect: bool,
        span: Span,
    ) -> Option<u16> {
        if let Some(p) = self.pos_names.exact(name) {
            let info = &mut self.positions[p as usize];
            if rect.is_some() && (replace_rect || info.rect.is_none()) {
                info.rect = rect;
            }
            return Some(p);
        }
        if self.positions.len() >= MAX_POSITIONS {
            self.too_many_positions(span);
            return None;
        }
        let id = self.positions.len() as u16;
        self.positions.push(PositionInfo {
            name: name.to_string(),
            dummy: false,
            rect,
            layout: None,
        });
        self.killed.push(false);
        self.pos_names.insert(name, id);
        Some(id)
    }

    fn too_many_positions(&mut self, span: Span) {
        if !self.reported_positions {
            self.reported_positions = true;
            self.error(
                span,
                format!("the board has too many positions (at most {MAX_POSITIONS})"),
            );
        }
    }

    /// Creates a direction, or returns the one of that exact name.
    fn define_direction(&mut self, name: &str, span: Span) -> Option<u16> {
        if let Some(d) = self.dir_names.exact(name) {
            return Some(d);
        }
        if self.directions.len() >= MAX_DIRECTIONS {
            if !self.reported_directions {
                self.reported_directions = true;
                self.error(
                    span,
                    format!("the board has too many directions (at most {MAX_DIRECTIONS})"),
                );
            }
            return None;
        }
        let id = self.directions.len() as u16;
        self.directions.push(name.to_string());
        self.dir_names.insert(name, id);
        self.links.push(Vec::new());
        Some(id)
    }

    fn set_link(&mut self, dir: u16, from: u16, to: u16, span: Span) {
        let table = &mut self.links[dir as usize];
        let from = from as usize;
        if table.len() <= from {
            // Grow to the whole board at once: tables are dense in the end anyway.
            let len = (from + 1).max(self.positions.len());
            let growth = len - table.len();
            if self.link_entries + growth > MAX_TABLE_ENTRIES {
                if !self.reported_links {
                    self.reported_links = true;
                    self.diags.push(Diagnostic::error(
                        span,
                        "the board is too large: too many positions × directions",
                    ));
                }
                return;
            }
            self.link_entries += growth;
            table.resize(len, NO_POS);
        }
        table[from] = to;
    }

    fn clear_link(&mut self, dir: usize, from: u16) {
        if let Some(t) = self.links[dir].get_mut(from as usize) {
            *t = NO_POS;
        }
    }

    /// Resolves a reference to a position, reporting an unknown one.
    fn position_ref(&mut self, node: &Node) -> Option<u16> {
        let Some(name) = node.text() else {
            self.error(
                node.span,
                format!("expected a position name, found `{}`", short(node)),
            );
            return None;
        };
        let found = self.pos_names.find(name);
        if found.is_none() {
            let d = unknown(
                "position",
                name,
                node.span,
                self.positions.iter().map(|p| p.name.as_str()),
            );
            self.diags.push(d);
        }
        found
    }

    // ---------------------------------------------------------------------------------------------------
    // grid

    fn grid<'n>(&mut self, grid: &'n Node, kills: &mut Vec<&'n Node>) {
        let mut start = None;
        let mut blocks = Vec::new();
        let mut dir_forms = Vec::new();
        for part in grid.args() {
            match part.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                Some("start-rectangle") => start = self.start_rectangle(part),
                Some("dimensions") => blocks.push(part),
                Some("directions") => dir_forms.push(part),
                Some("kill-positions") => kills.push(part),
                Some(h) => self.diags.push(
                    Diagnostic::warning(part.span, format!("unknown grid form `{h}`: ignored"))
                        .with_hint(
                        "a grid holds start-rectangle, dimensions, directions and kill-positions",
                    ),
                ),
                None => self.diags.push(Diagnostic::warning(
                    part.span,
                    format!("unexpected `{}` in a grid", short(part)),
                )),
            }
        }
        let mut dirs = Vec::new();
        for form in dir_forms {
            for d in form.args() {
                if let Some(gd) = self.grid_direction(d) {
                    dirs.push(gd);
                }
            }
        }
        if blocks.is_empty() {
            self.diags.push(
                Diagnostic::error(grid.span, "this grid has no `dimensions`")
                    .with_hint("write e.g. (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))"),
            );
        }
        // Several `dimensions` in one grid (3d-maze.zrf) make separate blocks sharing the grid's directions.
        for block in blocks {
            self.grid_block(block, start, &dirs);
        }
    }

    fn start_rectangle(&mut self, form: &Node) -> Option<[i64; 4]> {
        let args = form.args();
        if args.len() != 4 {
            self.error(form.span, "expected (start-rectangle x1 y1 x2 y2)");
            return None;
        }
        let mut r = [0i64; 4];
        for (slot, n) in r.iter_mut().zip(args) {
            *slot = self.number(n)?;
        }
        Some(r)
    }

    /// `(n 0 -1)`: a name and one number per dimension.
    fn grid_direction(&mut self, d: &Node) -> Option<GridDir> {
        let Some(name) = d.list().and_then(|l| l.first()).and_then(|n| n.atom()) else {
            self.error(
                d.span,
                format!(
                    "expected a direction such as (n 0 -1), found `{}`",
                    short(d)
                ),
            );
            return None;
        };
        if d.args().is_empty() {
            self.error(d.span, format!("direction `{name}` has no offsets"));
            return None;
        }
        let mut vector = Vec::with_capacity(d.args().len());
        for n in d.args() {
            vector.push(self.number(n)?);
        }
        let dir = self.define_direction(name, d.span)?;
        Some(GridDir {
            dir,
            vector,
            span: d.span,
        })
    }

    fn number(&mut self, n: &Node) -> Option<i64> {
        let v = n.atom().and_then(|a| a.parse::<i64>().ok());
        if v.is_none() {
            self.error(
                n.span,
                format!("expected a whole number, found `{}`", short(n)),
            );
        }
        v
    }

    /// One `(dimensions ("a/b/c" (dx dy)) ...)`: creates its cells and links them in the grid's directions.
    fn grid_block(&mut self, block: &Node, start: Option<[i64; 4]>, dirs: &[GridDir]) {
        // Each dimension: its labels and its screen offset per step.
        let mut dims: Vec<(Vec<String>, [i64; 2])> = Vec::with_capacity(block.args().len());
        for dim in block.args() {
            let items = dim.list().unwrap_or(&[]);
            let Some(labels) = items.first().and_then(|n| n.text()) else {
                self.error(
                    dim.span,
                    format!(
                        "expected a dimension such as (\"a/b/c\" (50 0)), found `{}`",
                        short(dim)
                    ),
                );
                return;
            };
            let labels = match expand_labels(labels) {
                Ok(l) => l,
                Err(msg) => {
                    self.error(items[0].span, msg);
                    return;
                }
            };
            let mut offset = [0i64; 2];
            match (items.get(1).and_then(|n| n.list()), items.len()) {
                (Some(nums), 2) if nums.len() == 2 => {
                    for (slot, n) in offset.iter_mut().zip(nums) {
                        *slot = self.number(n).unwrap_or(0);
                    }
                }
                _ => self.error(
                    dim.span,
                    "expected a dimension such as (\"a/b/c\" (50 0)): labels, then (dx dy)",
                ),
            }
            dims.push((labels, offset));
        }
        if dims.is_empty() {
            self.error(block.span, "`dimensions` lists no dimension");
            return;
        }
        let total = dims
            .iter()
            .try_fold(1usize, |acc, (l, _)| acc.checked_mul(l.len()));
        match total {
            Some(t) if self.positions.len() + t <= MAX_POSITIONS => {}
            _ => {
                self.too_many_positions(block.span);
                return;
            }
        }

        // Cells in order with the first dimension varying fastest (a8 b8 ... h8 a7 ...: screen reading
        // order for the usual files-then-ranks grids, and the order Zillions numbers them).
        let sizes: Vec<usize> = dims.iter().map(|(l, _)| l.len()).collect();
        let total = total.unwrap_or(0);
        // Without a start rectangle, a drawing still places the cells by the offsets.
        let step = |axis: usize| dims.iter().map(|(_, o)| o[axis].saturating_abs()).max();
        let layout_start = match (start, step(0), step(1)) {
            (None, Some(w), Some(h)) if w > 0 && h > 0 => Some([0, 0, w, h]),
            _ => None,
        };
        let first_new = self.positions.len();
        let mut cells = Vec::with_capacity(total);
        let mut idx = vec![0usize; dims.len()];
        let mut name = String::new();
        for _ in 0..total {
            name.clear();
            let mut shift = [0i64; 2];
            for (k, (labels, off)) in dims.iter().enumerate() {
                name.push_str(&labels[idx[k]]);
                let i = idx[k] as i64;
                shift[0] = shift[0].saturating_add(i.saturating_mul(off[0]));
                shift[1] = shift[1].saturating_add(i.saturating_mul(off[1]));
            }
            let rect = start.map(|[x1, y1, x2, y2]| {
                [
                    clamp_i32(x1.saturating_add(shift[0])),
                    clamp_i32(y1.saturating_add(shift[1])),
                    clamp_i32(x2.saturating_add(shift[0])),
                    clamp_i32(y2.saturating_add(shift[1])),
                ]
            });
            let Some(p) = self.define_position(&name, rect, false, block.span) else {
                return;
            };
            if let Some([x1, y1, x2, y2]) = layout_start {
                let at = |v: i64, d: i64| clamp_i32(v.saturating_add(d));
                self.positions[p as usize].layout = Some([
                    at(x1, shift[0]),
                    at(y1, shift[1]),
                    at(x2, shift[0]),
                    at(y2, shift[1]),
                ]);
            }
            if (p as usize) >= first_new && (p as usize) < first_new + cells.len() {
                self.diags.push(
                    Diagnostic::warning(
                        block.span,
                        format!("the labels name position `{name}` twice in this grid"),
                    )
                    .with_hint("make the labels of each dimension distinct"),
                );
            }
            cells.push(p);
            // Next index vector, first dimension fastest.
            for (k, i) in idx.iter_mut().enumerate() {
                *i += 1;
                if *i < sizes[k] {
                    break;
                }
                *i = 0;
            }
        }

        let mut strides = Vec::with_capacity(sizes.len());
        let mut stride = 1usize;
        for &s in &sizes {
            strides.push(stride);
            stride = stride.saturating_mul(s);
        }
        for gd in dirs {
            // Components beyond the grid's dimensions stand for dimensions of size 1: a non-zero one leaves
            // the grid, so the direction links nothing here.
            if gd.vector.iter().skip(sizes.len()).any(|&v| v != 0) {
                continue;
            }
            for (c, &from) in cells.iter().enumerate() {
                if let Some(n) = neighbour(c, &gd.vector, &sizes, &strides) {
                    self.set_link(gd.dir, from, cells[n], gd.span);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------
    // positions, dummy

    fn positions(&mut self, form: &Node) {
        for entry in form.args() {
            let (name_node, coords) = match entry.list() {
                Some(items) if !items.is_empty() => (&items[0], &items[1..]),
                Some(_) => {
                    self.error(entry.span, "expected a position such as (a1 0 0 50 50)");
                    continue;
                }
                None => (entry, &[][..]),
            };
            let Some(name) = name_node.text() else {
                self.error(
                    name_node.span,
                    format!("expected a position name, found `{}`", short(name_node)),
                );
                continue;
            };
            let mut nums = [0i64; 4];
            let mut ok = true;
            for (i, n) in coords.iter().enumerate() {
                match self.number(n) {
                    Some(v) if i < 4 => nums[i] = v,
                    Some(_) => {}
                    None => ok = false,
                }
            }
            let rect = (ok && coords.len() >= 4).then(|| nums.map(clamp_i32));
            self.define_position(name, rect, true, entry.span);
        }
    }

    fn dummy(&mut self, form: &Node) {
        for n in form.args() {
            let Some(name) = n.text() else {
                self.error(
                    n.span,
                    format!("expected a position name, found `{}`", short(n)),
                );
                continue;
            };
            if let Some(p) = self.define_position(name, None, false, n.span) {
                self.positions[p as usize].dummy = true;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------
    // links, unlink, kill-positions

    /// The direction of a `(links DIR ...)` form, created if new.
    fn links_direction(&mut self, form: &Node) -> Option<u16> {
        match form.args().first().and_then(|d| Some((d.atom()?, d.span))) {
            Some((name, span)) => self.define_direction(name, span),
            None => {
                self.error(form.span, "expected (links DIRECTION (from to) ...)");
                None
            }
        }
    }

    fn links(&mut self, dir: u16, form: &Node) {
        for pair in &form.args()[1..] {
            let Some([a, b]) = pair.list().and_then(|l| <&[Node; 2]>::try_from(l).ok()) else {
                self.error(
                    pair.span,
                    format!("expected a link (from to), found `{}`", short(pair)),
                );
                continue;
            };
            let from = self.position_ref(a);
            let to = self.position_ref(b);
            if let (Some(from), Some(to)) = (from, to) {
                self.set_link(dir, from, to, pair.span);
            }
        }
    }

    /// All `unlink` forms. A pair `(a b)` removes the links from a to b in every direction; `(a dir)`, where
    /// the second name is a direction and not a position, removes the link out of a in that direction
    /// (Sahkku); a bare position loses every link out of it and into it.
    fn unlink(&mut self, forms: &[&Node]) {
        let mut cut = vec![false; self.positions.len()];
        let mut any_cut = false;
        for form in forms {
            for arg in form.args() {
                if arg.text().is_some() {
                    if let Some(p) = self.position_ref(arg) {
                        cut[p as usize] = true;
                        any_cut = true;
                    }
                    continue;
                }
                let Some([a, b]) = arg.list().and_then(|l| <&[Node; 2]>::try_from(l).ok()) else {
                    self.error(
                        arg.span,
                        format!(
                            "expected a position or a pair (from to), found `{}`",
                            short(arg)
                        ),
                    );
                    continue;
                };
                let Some(from) = self.position_ref(a) else {
                    continue;
                };
                let Some(name) = b.text() else {
                    self.error(
                        b.span,
                        format!("expected a position name, found `{}`", short(b)),
                    );
                    continue;
                };
                if let Some(to) = self.pos_names.find(name) {
                    for d in 0..self.links.len() {
                        if self.links[d].get(from as usize) == Some(&to) {
                            self.clear_link(d, from);
                        }
                    }
                } else if let Some(d) = self.dir_names.find(name) {
                    self.clear_link(d as usize, from);
                } else {
                    let d = unknown(
                        "position",
                        name,
                        b.span,
                        self.positions.iter().map(|p| p.name.as_str()),
                    );
                    self.diags.push(d);
                }
            }
        }
        // Links into cut positions are found in one sweep, however many positions are cut.
        if any_cut {
            for table in &mut self.links {
                for (from, to) in table.iter_mut().enumerate() {
                    if cut[from] || (*to != NO_POS && cut[*to as usize]) {
                        *to = NO_POS;
                    }
                }
            }
        }
    }

    fn kill(&mut self, form: &Node) {
        for n in form.args() {
            if let Some(p) = self.position_ref(n) {
                self.killed[p as usize] = true;
            }
        }
    }

    /// Drops killed positions, renumbers the rest and lays the links out as `links[pos * ndirs + dir]`.
    /// Symmetry is the identity; zones, navigation and opposites are left to compute. The builder keeps its
    /// names and the renumbering, to resolve the names of phase 5.
    fn finish(&mut self, nplayers: usize) -> Board {
        let mut renumber = vec![NO_POS; self.positions.len()];
        let mut positions = Vec::with_capacity(self.positions.len());
        for (old, info) in std::mem::take(&mut self.positions).into_iter().enumerate() {
            if !self.killed[old] {
                renumber[old] = positions.len() as u16;
                positions.push(info);
            }
        }
        let npos = positions.len();
        // `links` and one `nav` table per player must fit the memory bound: keep the first directions.
        let max_dirs = MAX_TABLE_ENTRIES / (npos.max(1) * (nplayers + 1));
        if self.directions.len() > max_dirs {
            self.diags.push(Diagnostic::global(format!(
                "the board is too large: {npos} positions × {} directions; only the first {max_dirs} directions are kept",
                self.directions.len()
            )));
            self.directions.truncate(max_dirs);
        }
        let ndirs = self.directions.len();
        let mut links = vec![NO_POS; npos * ndirs];
        for (d, table) in self.links.iter().take(ndirs).enumerate() {
            for (old, &to) in table.iter().enumerate() {
                let from = renumber.get(old).copied().unwrap_or(NO_POS);
                if from != NO_POS && to != NO_POS {
                    links[from as usize * ndirs + d] = renumber[to as usize];
                }
            }
        }
        self.renumber = renumber;
        let position_index = name_index(
            positions
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.as_str(), Pos(i as u16))),
        );
        let direction_index = name_index(
            self.directions
                .iter()
                .enumerate()
                .map(|(i, d)| (d.as_str(), Dir(i as u16))),
        );
        let identity: Vec<Dir> = (0..ndirs as u16).map(Dir).collect();
        Board {
            positions,
            directions: std::mem::take(&mut self.directions),
            links,
            symmetry: vec![identity; nplayers],
            nav: Vec::new(),
            zones: Vec::new(),
            opposite: Vec::new(),
            position_index,
            direction_index,
            zone_index: HashMap::default(),
            rotations: Vec::new(),
        }
    }

    // ---------------------------------------------------------------------------------------------------
    // phase 5: symmetry and zones, against the final numbering

    /// A direction by name, in the final board (`None` for a direction dropped for size, already reported).
    fn direction_ref(&mut self, board: &Board, node: &Node) -> Option<usize> {
        let Some(name) = node.text() else {
            self.error(
                node.span,
                format!("expected a direction name, found `{}`", short(node)),
            );
            return None;
        };
        match self.dir_names.find(name) {
            Some(d) => ((d as usize) < board.directions.len()).then_some(d as usize),
            None => {
                let d = unknown(
                    "direction",
                    name,
                    node.span,
                    board.directions.iter().map(|d| d.as_str()),
                );
                self.diags.push(d);
                None
            }
        }
    }

    fn player_ref(&mut self, players: &[PlayerInfo], node: &Node) -> Option<usize> {
        let Some(name) = node.text() else {
            self.error(
                node.span,
                format!("expected a player name, found `{}`", short(node)),
            );
            return None;
        };
        // The name as written first (exact spelling, then any case), so that a random player named like a
        // real one (`(players ?Up Up Down ?Dice)`) keeps apart from it: `Up` is Up, `?Up` is ?Up. Only a name
        // no player has is matched with the `?` left out: `?Dice` and `Dice` both name a player `?Dice` (or
        // `Dice`) when it is the only one so called.
        fn bare(n: &str) -> &str {
            n.strip_prefix('?').unwrap_or(n)
        }
        let found = players
            .iter()
            .position(|p| p.name == name)
            .or_else(|| {
                players
                    .iter()
                    .position(|p| p.name.eq_ignore_ascii_case(name))
            })
            .or_else(|| players.iter().position(|p| bare(&p.name) == bare(name)))
            .or_else(|| {
                players
                    .iter()
                    .position(|p| bare(&p.name).eq_ignore_ascii_case(bare(name)))
            });
        let name = bare(name);
        if found.is_none() {
            self.diags.push(unknown(
                "player",
                name,
                node.span,
                players.iter().map(|p| p.name.as_str()),
            ));
        }
        found
    }

    /// `(symmetry PLAYER (d e) ...)`: for PLAYER, direction d means e.
    fn symmetry(&mut self, board: &mut Board, form: &Node, players: &[PlayerInfo]) {
        let Some((who, pairs)) = form.args().split_first() else {
            self.error(form.span, "expected (symmetry PLAYER (from to) ...)");
            return;
        };
        let player = self.player_ref(players, who);
        for pair in pairs {
            let Some([d, e]) = pair.list().and_then(|l| <&[Node; 2]>::try_from(l).ok()) else {
                self.error(
                    pair.span,
                    format!(
                        "expected a pair of directions (d e), found `{}`",
                        short(pair)
                    ),
                );
                continue;
            };
            let d = self.direction_ref(board, d);
            let e = self.direction_ref(board, e);
            if let (Some(p), Some(d), Some(e)) = (player, d, e) {
                board.symmetry[p][d] = Dir(e as u16);
            }
        }
    }

    /// `(zone (name Z) (players P ...) (positions ...))`. Declaring a name again adds to it (usually for
    /// other players). Killed positions are left out silently: files list zones before killing positions.
    fn zone(&mut self, board: &mut Board, form: &Node, players: &[PlayerInfo], names: &mut Names) {
        let mut name = None;
        let mut who = Vec::new();
        let mut members = Vec::new();
        let mut saw_players = false;
        for part in form.args() {
            match part.head().map(|h| h.to_ascii_lowercase()).as_deref() {
                Some("name") => match part.args() {
                    [n] if n.text().is_some() => name = n.text(),
                    _ => self.error(part.span, "expected (name ZONE)"),
                },
                Some("players") => {
                    saw_players = true;
                    for p in part.args() {
                        who.extend(self.player_ref(players, p));
                    }
                }
                Some("positions") => {
                    for p in part.args() {
                        if let Some(old) = self.position_ref(p) {
                            match self.renumber[old as usize] {
                                NO_POS => {}
                                pos => members.push(pos as usize),
                            }
                        }
                    }
                }
                Some(h) if ZONE_UI_FORMS.contains(&h) => {}
                Some(h) => self.diags.push(Diagnostic::warning(
                    part.span,
                    format!("unknown zone form `{h}`: ignored"),
                )),
                None => self.error(part.span, format!("unexpected `{}` in a zone", short(part))),
            }
        }
        let Some(name) = name else {
            self.diags.push(
                Diagnostic::error(form.span, "this zone has no name").with_hint("add (name ZONE)"),
            );
            return;
        };
        if !saw_players {
            self.diags.push(
                Diagnostic::error(form.span, format!("zone `{name}` names no players"))
                    .with_hint("add (players ...)"),
            );
        }
        let npos = board.positions.len();
        let id = match names.find(name) {
            Some(z) => z as usize,
            None => {
                if (board.zones.len() + 1) * players.len().max(1) * npos.max(1) > MAX_ZONE_CELLS {
                    self.error(form.span, "the board has too many zones");
                    return;
                }
                let id = board.zones.len();
                names.insert(name, id as u16);
                board.zones.push(Zone {
                    name: name.to_string(),
                    members: vec![vec![false; npos]; players.len()],
                });
                id
            }
        };
        let zone = &mut board.zones[id];
        for &p in &who {
            for &pos in &members {
                zone.members[p][pos] = true;
            }
        }
    }
}

/// `nav[player][pos * ndirs + dir] = links[pos * ndirs + symmetry[player][dir]]`.
fn navigation(board: &Board) -> Vec<Vec<u16>> {
    let ndirs = board.directions.len();
    board
        .symmetry
        .iter()
        .map(|sym| {
            let mut nav = Vec::with_capacity(board.links.len());
            for row in board.links.chunks_exact(ndirs.max(1)) {
                nav.extend(sym.iter().map(|d| row[d.idx()]));
            }
            nav
        })
        .collect()
}

/// For each direction d with at least one link, the direction e such that every d-link a→b has an e-link
/// b→a. An exact reverse (e has no other links) is preferred over one with extra links, then the first.
fn opposites(board: &Board) -> Vec<Option<Dir>> {
    let ndirs = board.directions.len();
    let link = |p: usize, d: usize| board.links[p * ndirs + d];
    let mut counts = vec![0usize; ndirs];
    for row in board.links.chunks_exact(ndirs.max(1)) {
        for (d, &t) in row.iter().enumerate() {
            counts[d] += (t != NO_POS) as usize;
        }
    }
    (0..ndirs)
        .map(|d| {
            // Candidates from the first link, narrowed by each further one: cheap, as few survive.
            let mut candidates: Option<Vec<usize>> = None;
            for a in 0..board.positions.len() {
                let b = link(a, d);
                if b == NO_POS {
                    continue;
                }
                let back = |e: &usize| link(b as usize, *e) as usize == a;
                match &mut candidates {
                    None => candidates = Some((0..ndirs).filter(back).collect()),
                    Some(c) => c.retain(back),
                }
                if candidates.as_ref().is_some_and(|c| c.is_empty()) {
                    break;
                }
            }
            let c = candidates?;
            c.iter()
                .find(|&&e| counts[e] == counts[d])
                .or(c.first())
                .map(|&e| Dir(e as u16))
        })
        .collect()
}

/// The cell `c` of a block moved by `vector`, if it stays inside the block.
fn neighbour(c: usize, vector: &[i64], sizes: &[usize], strides: &[usize]) -> Option<usize> {
    let mut n = 0usize;
    for (k, (&size, &stride)) in sizes.iter().zip(strides).enumerate() {
        let i = (c / stride) % size;
        let v = vector.get(k).copied().unwrap_or(0);
        let j = (i as i64).checked_add(v)?;
        if j < 0 || j >= size as i64 {
            return None;
        }
        n += j as usize * stride;
    }
    Some(n)
}

/// Splits a dimension's labels on `/`. A string without `/` of the form `a-h` (two letters or two digits of
/// the same kind) or `1-12` (two whole numbers) is a range, ascending or descending.
fn expand_labels(text: &str) -> Result<Vec<String>, String> {
    if !text.contains('/') {
        if let Some((a, b)) = text.split_once('-') {
            if let (Ok(x), Ok(y)) = (a.parse::<u32>(), b.parse::<u32>()) {
                if x.abs_diff(y) as usize >= MAX_POSITIONS {
                    return Err(format!("the range `{text}` is too long"));
                }
                let labels = if x <= y {
                    (x..=y).collect::<Vec<_>>()
                } else {
                    (y..=x).rev().collect()
                };
                return Ok(labels.into_iter().map(|n| n.to_string()).collect());
            }
            let mut ca = a.chars();
            let mut cb = b.chars();
            if let (Some(x), None, Some(y), None) = (ca.next(), ca.next(), cb.next(), cb.next()) {
                let same_kind = (x.is_ascii_lowercase() && y.is_ascii_lowercase())
                    || (x.is_ascii_uppercase() && y.is_ascii_uppercase());
                if same_kind {
                    let (x, y) = (x as u8, y as u8);
                    let labels: Vec<u8> = if x <= y {
                        (x..=y).collect()
                    } else {
                        (y..=x).rev().collect()
                    };
                    return Ok(labels
                        .into_iter()
                        .map(|c| (c as char).to_string())
                        .collect());
                }
            }
        }
    }
    Ok(text.split('/').map(str::to_string).collect())
}

fn clamp_i32(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// A node as text for a message, cut short.
fn short(node: &Node) -> String {
    let s = node.to_source_limited(200);
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

/// "unknown position `x`", with a did-you-mean hint when a known name is close.
fn unknown<'a>(
    kind: &str,
    name: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    let d = Diagnostic::error(span, format!("unknown {kind} `{name}`"));
    match suggest(name, candidates) {
        Some(s) => d.with_hint(format!("did you mean `{s}`?")),
        None => d,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::game::{Player, Pos};
    use crate::lang::sexp::parse;
    use crate::lang::source::FileId;

    const CHESS: &str = r#"(board
        (image "board.bmp")
        (grid
            (start-rectangle 5 5 55 55)
            (dimensions ("a/b/c/d/e/f/g/h" (50 0)) ("8/7/6/5/4/3/2/1" (0 50)))
            (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
        (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw)))"#;

    fn build(src: &str, players: &[&str]) -> (Board, Vec<Diagnostic>) {
        let (nodes, errs) = parse(src, FileId(0));
        assert!(errs.is_empty(), "{errs:?}");
        let players: Vec<PlayerInfo> = players
            .iter()
            .map(|n| PlayerInfo {
                name: n.to_string(),
                random: false,
            })
            .collect();
        let mut diags = Vec::new();
        let board = compile_board(&nodes[0], &players, &mut diags);
        (board, diags)
    }

    fn build_ok(src: &str, players: &[&str]) -> Board {
        let (board, diags) = build(src, players);
        assert!(diags.is_empty(), "{diags:?}");
        check_invariants(&board, players.len());
        board
    }

    fn errors(diags: &[Diagnostic]) -> Vec<&Diagnostic> {
        diags.iter().filter(|d| d.is_error()).collect()
    }

    /// Tables have the sizes the engine relies on and every link lands on a position.
    fn check_invariants(b: &Board, nplayers: usize) {
        let (np, nd) = (b.positions.len(), b.directions.len());
        assert_eq!(b.links.len(), np * nd);
        assert!(b.links.iter().all(|&t| t == NO_POS || (t as usize) < np));
        assert_eq!(b.symmetry.len(), nplayers);
        assert_eq!(b.nav.len(), nplayers);
        assert!(b.nav.iter().all(|n| n.len() == np * nd));
        assert_eq!(b.opposite.len(), nd);
        for (i, p) in b.positions.iter().enumerate() {
            assert_eq!(b.position(&p.name), Some(Pos(i as u16)), "{}", p.name);
        }
        for z in &b.zones {
            assert_eq!(z.members.len(), nplayers);
            assert!(z.members.iter().all(|m| m.len() == np));
        }
    }

    fn step<'b>(b: &'b Board, player: u8, from: &str, dir: &str) -> Option<&'b str> {
        let pos = b
            .position(from)
            .unwrap_or_else(|| panic!("no position {from}"));
        let dir = b
            .direction(dir)
            .unwrap_or_else(|| panic!("no direction {dir}"));
        b.step(Player(player), pos, dir).map(|p| b.pos_name(p))
    }

    fn names(b: &Board) -> Vec<&str> {
        b.positions.iter().map(|p| p.name.as_str()).collect()
    }

    /// A grid without `start-rectangle` has no screen rectangles, but a drawing still places its cells by
    /// the offsets: b1 one step right of a1 and one row below a2.
    #[test]
    fn a_grid_without_start_rectangle_is_laid_out_by_its_offsets() {
        let b = build_ok(
            r#"(board (grid (dimensions ("a/b" (40 0)) ("2/1" (0 40))) (directions (e 1 0))))"#,
            &["P"],
        );
        let at = |n: &str| &b.positions[b.position(n).unwrap().idx()];
        assert_eq!(at("a2").rect, None);
        assert_eq!(at("a2").layout, Some([0, 0, 40, 40]));
        assert_eq!(at("b1").layout, Some([40, 40, 80, 80]));
        // A grid with a start rectangle keeps its rectangles and gets no layout.
        let b = build_ok(CHESS, &["White", "Black"]);
        assert_eq!(b.positions[0].layout, None);
    }

    #[test]
    fn chess_grid_names_and_navigation() {
        let b = build_ok(CHESS, &["White", "Black"]);
        assert_eq!(b.positions.len(), 64);
        assert_eq!(b.directions.len(), 8);
        // First dimension fastest: screen reading order.
        assert_eq!(&names(&b)[..3], ["a8", "b8", "c8"]);
        assert_eq!(b.pos_name(Pos(63)), "h1");
        assert_eq!(b.positions[0].rect, Some([5, 5, 55, 55]));
        assert_eq!(
            b.positions[b.position("c7").unwrap().idx()].rect,
            Some([105, 55, 155, 105])
        );
        assert!(!b.positions[0].dummy);

        assert_eq!(step(&b, 0, "e4", "n"), Some("e5"));
        assert_eq!(step(&b, 0, "e4", "e"), Some("f4"));
        assert_eq!(step(&b, 0, "e4", "s"), Some("e3"));
        assert_eq!(step(&b, 0, "e4", "w"), Some("d4"));
        assert_eq!(step(&b, 0, "e4", "ne"), Some("f5"));
        assert_eq!(step(&b, 0, "e8", "n"), None);
        assert_eq!(step(&b, 0, "h4", "e"), None);
        // Black's n goes south; e is not in its symmetry and stays east.
        assert_eq!(step(&b, 1, "e4", "n"), Some("e3"));
        assert_eq!(step(&b, 1, "e4", "s"), Some("e5"));
        assert_eq!(step(&b, 1, "e4", "ne"), Some("f3"));
        assert_eq!(step(&b, 1, "e4", "e"), Some("f4"));
        assert_eq!(step(&b, 1, "e1", "n"), None);
        let n = b.direction("n").unwrap();
        assert_eq!(b.symmetry[1][n.idx()], b.direction("s").unwrap());
        assert_eq!(b.symmetry[0][n.idx()], n);
        // Names match regardless of case.
        assert_eq!(b.position("E4"), b.position("e4"));
        assert_eq!(b.direction("NE"), b.direction("ne"));
    }

    #[test]
    fn label_ranges() {
        let b = build_ok(
            r#"(board (grid (dimensions ("a-h" (50 0)) ("8-1" (0 50))) (directions (n 0 -1))))"#,
            &["White"],
        );
        let c = build_ok(CHESS, &["White", "Black"]);
        assert_eq!(names(&b), names(&c));
        assert_eq!(step(&b, 0, "a1", "n"), Some("a2"));
        let b = build_ok(
            r#"(board (grid (dimensions ("1-12" (1 0)) ("C-A" (0 1)))))"#,
            &[],
        );
        assert_eq!(b.positions.len(), 36);
        assert_eq!(&names(&b)[..2], ["1C", "2C"]);
        assert_eq!(b.pos_name(Pos(35)), "12A");
        // Not ranges: a `/` list, and a label like `-1`.
        let b = build_ok(
            r#"(board (grid (dimensions ("a-b/c" (1 0)) ("-1" (0 1)))))"#,
            &[],
        );
        assert_eq!(names(&b), ["a-b-1", "c-1"]);
    }

    #[test]
    fn three_dimensional_grid() {
        let b = build_ok(
            r#"(board (grid (start-rectangle 0 0 10 10)
                 (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)) ("x/y" (100 0)))
                 (directions (n 0 -1) (e 1 0) (up 0 0 1) (down 0 0 -1))))"#,
            &["White"],
        );
        assert_eq!(b.positions.len(), 18);
        assert_eq!(&names(&b)[..4], ["a3x", "b3x", "c3x", "a2x"]);
        assert_eq!(step(&b, 0, "a1x", "up"), Some("a1y"));
        assert_eq!(step(&b, 0, "a1y", "up"), None);
        assert_eq!(step(&b, 0, "b2y", "down"), Some("b2x"));
        // Two numbers in a three-dimensional grid: the third is 0.
        assert_eq!(step(&b, 0, "a1y", "n"), Some("a2y"));
        assert_eq!(step(&b, 0, "c1y", "e"), None);
        assert_eq!(
            b.positions[b.position("b3y").unwrap().idx()].rect,
            Some([110, 0, 120, 10])
        );
        assert_eq!(
            b.direction("up").and_then(|d| b.opposite[d.idx()]),
            b.direction("down")
        );
    }

    #[test]
    fn several_grids_share_directions_but_not_links() {
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b" (1 0)) ("2/1" (0 1))) (directions (n 0 -1) (e 1 0)))
                (grid (dimensions ("c/d" (1 0)) ("2/1" (0 1))) (directions (e 1 0) (s 0 1))))"#,
            &["White"],
        );
        assert_eq!(b.positions.len(), 8);
        assert_eq!(b.directions, ["n", "e", "s"]);
        assert_eq!(
            step(&b, 0, "b1", "e"),
            None,
            "no link from one grid to the other"
        );
        assert_eq!(step(&b, 0, "c1", "e"), Some("d1"));
        assert_eq!(step(&b, 0, "c1", "n"), None);
        assert_eq!(step(&b, 0, "a2", "s"), None);
        assert_eq!(step(&b, 0, "c2", "s"), Some("c1"));
    }

    #[test]
    fn explicit_positions_and_links() {
        let b = build_ok(
            r#"(board
                (positions (a 0 0 10 10) (b 10 0 20 10) (c) d)
                (links e (a b) (b c) (c d))
                (links w (b a) (c b) (d c))
                (links hop (a c)))"#,
            &["P"],
        );
        assert_eq!(names(&b), ["a", "b", "c", "d"]);
        assert_eq!(b.positions[0].rect, Some([0, 0, 10, 10]));
        assert_eq!(b.positions[2].rect, None);
        assert_eq!(b.directions, ["e", "w", "hop"]);
        assert_eq!(step(&b, 0, "a", "e"), Some("b"));
        assert_eq!(step(&b, 0, "d", "e"), None);
        assert_eq!(step(&b, 0, "c", "w"), Some("b"));
        assert_eq!(step(&b, 0, "a", "hop"), Some("c"));
        assert_eq!(step(&b, 0, "b", "hop"), None);
    }

    #[test]
    fn unlink_pairs_positions_and_directions() {
        let src = r#"(board
            (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1))) (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
            (unlink (a1 a2) b2 (c1 n)))"#;
        let b = build_ok(src, &["White"]);
        // The pair goes one way only.
        assert_eq!(step(&b, 0, "a1", "n"), None);
        assert_eq!(step(&b, 0, "a2", "s"), Some("a1"));
        assert_eq!(step(&b, 0, "a1", "e"), Some("b1"));
        // A bare position loses every link out of it and into it.
        for d in ["n", "e", "s", "w"] {
            assert_eq!(step(&b, 0, "b2", d), None);
        }
        assert_eq!(step(&b, 0, "b1", "n"), None);
        assert_eq!(step(&b, 0, "a2", "e"), None);
        assert_eq!(step(&b, 0, "b3", "s"), None);
        assert_eq!(step(&b, 0, "b1", "e"), Some("c1"));
        // (pos dir): the link out of pos in that direction.
        assert_eq!(step(&b, 0, "c1", "n"), None);
        assert_eq!(step(&b, 0, "c1", "w"), Some("b1"));
        assert_eq!(b.positions.len(), 9);
    }

    #[test]
    fn explicit_links_survive_an_earlier_written_unlink() {
        // Kamisado writes its links before unlinking the same position: the links must survive.
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b" (1 0)) ("2/1" (0 1))) (directions (n 0 -1) (next 0 -1)))
                (links next (a2 b1))
                (unlink a2))"#,
            &["White"],
        );
        assert_eq!(step(&b, 0, "a2", "next"), Some("b1"));
        assert_eq!(step(&b, 0, "a1", "n"), None);
        assert_eq!(step(&b, 0, "a1", "next"), None);
    }

    #[test]
    fn kill_positions_renumbers() {
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
                      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))
                      (kill-positions b2))
                (zone (name z) (players White) (positions a1 b2 c3))
                (links jump (a1 c3) (c1 b2))
                (kill-positions a3))"#,
            &["White"],
        );
        assert_eq!(names(&b), ["b3", "c3", "a2", "c2", "a1", "b1", "c1"]);
        assert_eq!(b.position("b2"), None);
        assert_eq!(step(&b, 0, "b1", "n"), None);
        assert_eq!(step(&b, 0, "a2", "e"), None);
        assert_eq!(step(&b, 0, "a2", "s"), Some("a1"));
        assert_eq!(step(&b, 0, "b3", "w"), None);
        assert_eq!(step(&b, 0, "b3", "e"), Some("c3"));
        assert_eq!(step(&b, 0, "a1", "jump"), Some("c3"));
        assert_eq!(
            step(&b, 0, "c1", "jump"),
            None,
            "links into killed positions vanish"
        );
        let z = b.zone("z").unwrap();
        let members: Vec<_> = (0..7)
            .filter(|&p| b.in_zone(z, Player(0), Pos(p)))
            .collect();
        assert_eq!(members, [1, 4], "c3 and a1; killed b2 is dropped silently");
    }

    #[test]
    fn dummy_positions() {
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b" (1 0)) ("1" (0 1))) (directions (e 1 0)))
                (dummy off a1)
                (links e (off a1)))"#,
            &["White"],
        );
        assert_eq!(names(&b), ["a1", "b1", "off"]);
        assert!(b.positions[2].dummy);
        assert!(b.positions[0].dummy);
        assert!(!b.positions[1].dummy);
        assert_eq!(step(&b, 0, "off", "e"), Some("a1"));
        assert_eq!(step(&b, 0, "a1", "e"), Some("b1"));
    }

    #[test]
    fn zones_per_player() {
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b" (1 0)) ("2/1" (0 1))))
                (zone (name promotion) (players White) (positions a2 b2))
                (zone (name Promotion) (players Black) (positions a1))
                (zone (name both) (glyph "x.bmp") (players White Black) (positions b1)))"#,
            &["White", "Black"],
        );
        assert_eq!(b.zones.len(), 2);
        let promo = b.zone("PROMOTION").unwrap();
        assert_eq!(b.zone_index.get("promotion"), Some(&promo));
        let pos = |n| b.position(n).unwrap();
        assert!(b.in_zone(promo, Player(0), pos("a2")));
        assert!(b.in_zone(promo, Player(0), pos("b2")));
        assert!(!b.in_zone(promo, Player(0), pos("a1")));
        assert!(b.in_zone(promo, Player(1), pos("a1")));
        assert!(!b.in_zone(promo, Player(1), pos("a2")));
        let both = b.zone("both").unwrap();
        assert!(b.in_zone(both, Player(0), pos("b1")) && b.in_zone(both, Player(1), pos("b1")));
    }

    #[test]
    fn opposites_are_derived_from_links() {
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b/c" (1 0)) ("3/2/1" (0 1)))
                      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (nn 0 -1)))
                (links nn (a1 c3))
                (links loop (b2 b2))
                (links oneway (a1 c1))
                (links nothing))"#,
            &["White"],
        );
        let opp = |d: &str| {
            b.opposite[b.direction(d).unwrap().idx()].map(|o| b.directions[o.idx()].as_str())
        };
        assert_eq!(opp("n"), Some("s"));
        assert_eq!(opp("s"), Some("n"), "n is an exact reverse of s, nn is not");
        assert_eq!(opp("e"), Some("w"));
        assert_eq!(opp("w"), Some("e"));
        assert_eq!(opp("nn"), None, "a1 nn c3 has no reverse");
        assert_eq!(opp("loop"), Some("loop"));
        assert_eq!(opp("oneway"), None);
        assert_eq!(opp("nothing"), None);
    }

    #[test]
    fn names_differing_only_in_case_are_distinct() {
        // Sokoban levels have files a..z/A/B; Gwangsanghui has a palace direction N beside the grid's n.
        let b = build_ok(
            r#"(board
                (grid (dimensions ("a/b/A" (1 0)) ("2/1" (0 1))) (directions (n 0 -1) (e 1 0)))
                (links N (a1 a2))
                (symmetry Black (n N)))"#,
            &["White", "Black"],
        );
        assert_eq!(b.positions.len(), 6);
        assert_ne!(b.position("a1"), b.position("A1"));
        assert_eq!(b.pos_name(b.position("A1").unwrap()), "A1");
        assert_eq!(b.pos_name(b.position("a1").unwrap()), "a1");
        assert_eq!(
            b.position("B1"),
            b.position("b1"),
            "no B1: falls back to b1"
        );
        assert_eq!(step(&b, 0, "b1", "e"), Some("A1"));
        assert_eq!(b.directions, ["n", "e", "N"]);
        assert_eq!(step(&b, 0, "b1", "N"), None);
        assert_eq!(step(&b, 0, "b1", "n"), Some("b2"));
        assert_eq!(step(&b, 1, "b1", "n"), None, "Black's n means N");
        assert_eq!(step(&b, 1, "a1", "n"), Some("a2"));
        assert_eq!(step(&b, 0, "a1", "E"), Some("b1"), "E falls back to e");
    }

    #[test]
    fn random_players_are_named_with_or_without_question_mark() {
        let (nodes, _) = parse(
            r#"(board (positions a) (zone (name z) (players ?Dice N) (positions a)))"#,
            FileId(0),
        );
        let players = [
            PlayerInfo {
                name: "Dice".into(),
                random: true,
            },
            PlayerInfo {
                name: "N".into(),
                random: false,
            },
        ];
        let mut diags = Vec::new();
        let b = compile_board(&nodes[0], &players, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        assert!(b.in_zone(ZoneId(0), Player(0), Pos(0)));
    }

    #[test]
    fn unknown_names_are_errors_with_hints() {
        let src = r#"(board
            (grid (dimensions ("a/b" (1 0)) ("2/1" (0 1))) (directions (n 0 -1) (ne 1 -1)))
            (symmetry Black (nne ne))
            (symmetry Blak (n n))
            (links n (a1 a3))
            (unlink (b1 zz))
            (kill-positions b3)
            (zone (name z) (players White) (positions a1 a9)))"#;
        let (b, diags) = build(src, &["White", "Black"]);
        check_invariants(&b, 2);
        let errs = errors(&diags);
        let find = |msg: &str| {
            errs.iter()
                .find(|d| d.message == msg)
                .unwrap_or_else(|| panic!("no `{msg}` in {errs:?}"))
        };
        let d = find("unknown direction `nne`");
        assert_eq!(d.hint.as_deref(), Some("did you mean `ne`?"));
        let span = d.span.unwrap();
        assert_eq!(&src[span.start as usize..span.end as usize], "nne");
        assert_eq!(
            find("unknown player `Blak`").hint.as_deref(),
            Some("did you mean `Black`?")
        );
        assert_eq!(
            find("unknown position `a3`").hint.as_deref(),
            Some("did you mean `a2`?")
        );
        find("unknown position `zz`");
        find("unknown position `b3`");
        find("unknown position `a9`");
        assert_eq!(errs.len(), 6, "{errs:?}");
        // What could be understood still is.
        assert_eq!(step(&b, 0, "a1", "n"), Some("a2"));
        assert!(b.in_zone(ZoneId(0), Player(0), b.position("a1").unwrap()));
    }

    #[test]
    fn unknown_forms_warn_and_ui_forms_are_ignored() {
        let (b, diags) = build(
            r#"(board (image "x.bmp") (start-rectangle 0 0 1 1) (board-size 3) (positions a) (wormholes a) stray)"#,
            &[],
        );
        assert_eq!(b.positions.len(), 1);
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert!(diags.iter().all(|d| !d.is_error()));
        assert!(diags[0].message.contains("`wormholes`"));
        assert!(diags[1].message.contains("`stray`"));
    }

    #[test]
    fn malformed_forms_are_errors_not_panics() {
        let cases = [
            r#"(board (grid (dimensions ("a/b" (x 0)))))"#,
            r#"(board (grid (dimensions ("a/b"))))"#,
            r#"(board (grid (dimensions ("a/b" (1 0))) (directions (n x))))"#,
            r#"(board (grid (dimensions ("a/b" (1 0))) (directions n)))"#,
            r#"(board (grid (dimensions ("a/b" (1 0))) (directions (n))))"#,
            r#"(board (grid (dimensions)))"#,
            r#"(board (grid (dimensions (a))))"#,
            r#"(board (grid (directions (n 0 1))))"#,
            r#"(board (grid))"#,
            r#"(board (grid (start-rectangle 1 2 3)))"#,
            r#"(board (grid (start-rectangle 1 2 3 99999999999999999999) (dimensions ("a" (0 0)))))"#,
            r#"(board (positions () (a x 1 2 3) ((b) 1 2 3 4)))"#,
            r#"(board (links))"#,
            r#"(board (links (n) (a b)))"#,
            r#"(board (positions a b) (links n (a) (a b c) a))"#,
            r#"(board (positions a) (unlink (a) (a b c) ((a) b)))"#,
            r#"(board (positions a) (kill-positions (a)))"#,
            r#"(board (positions a) (dummy (a)))"#,
            r#"(board (symmetry))"#,
            r#"(board (symmetry White n))"#,
            r#"(board (zone))"#,
            r#"(board (zone (name)))"#,
            r#"(board (zone (name z) (positions a)))"#,
            r#"(board (grid (dimensions ("a-zz" (1 0)) ("0-99999999" (0 1)))))"#,
            r#"(board (grid (dimensions ("a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z" (1 0))
                                       ("1-1000" (0 1)) ("1-1000" (0 1)))))"#,
        ];
        for src in cases {
            let (b, diags) = build(src, &["White"]);
            check_invariants(&b, 1);
            let errs = errors(&diags);
            assert!(!errs.is_empty(), "no error for {src}");
            assert!(errs.iter().all(|d| d.span.is_some()), "{errs:?}");
        }
    }

    #[test]
    fn extreme_inputs_do_not_panic() {
        let huge = format!(
            r#"(board (grid (start-rectangle {min} {min} {max} {max})
                 (dimensions ("a/b/c" ({max} {min})) ("1/2/3" ({min} {max})))
                 (directions (far {max} 0) (back {min} {min}) (extra 0 0 {max}) (zero 0 0))))"#,
            min = i64::MIN,
            max = i64::MAX
        );
        let b = build_ok(&huge, &["White"]);
        assert_eq!(b.positions.len(), 9);
        assert_eq!(step(&b, 0, "a1", "far"), None);
        assert_eq!(step(&b, 0, "c3", "back"), None);
        assert_eq!(step(&b, 0, "a1", "extra"), None);
        assert_eq!(step(&b, 0, "a1", "zero"), Some("a1"));

        // 10^6 cells: refused with one error, and the rest of the board still compiles.
        let (b, diags) = build(
            r#"(board (grid (dimensions ("1-1000" (1 0)) ("1-1000" (0 1)))) (positions x) (positions y))"#,
            &["White"],
        );
        check_invariants(&b, 1);
        assert_eq!(errors(&diags).len(), 1, "{diags:?}");
        assert_eq!(names(&b), ["x", "y"]);

        // Positions beyond the cap, added one by one.
        let many: String = (0..MAX_POSITIONS + 5).map(|i| format!("p{i} ")).collect();
        let (b, diags) = build(&format!("(board (dummy {many}))"), &[]);
        assert_eq!(b.positions.len(), MAX_POSITIONS);
        assert_eq!(errors(&diags).len(), 1);

        // Empty and odd inputs.
        for src in [
            "(board)",
            "board",
            "(board ())",
            "(board (grid (dimensions (\"\" (0 0)))))",
        ] {
            let (nodes, _) = parse(src, FileId(0));
            let mut diags = Vec::new();
            let b = compile_board(&nodes[0], &[], &mut diags);
            check_invariants(&b, 0);
        }
    }

    #[test]
    fn big_boards_with_many_directions_stay_bounded() {
        // 60 000 cells × 600 directions would need 36 million entries per table: directions are cut.
        let dirs: String = (0..600).map(|i| format!("(d{i} 1 0) ")).collect();
        let src = format!(
            r#"(board (grid (dimensions ("1-300" (1 0)) ("1-200" (0 1))) (directions {dirs})))"#
        );
        let (b, diags) = build(&src, &["White", "Black"]);
        check_invariants(&b, 2);
        assert!(!errors(&diags).is_empty());
        assert!(b.links.len() + b.nav.iter().map(Vec::len).sum::<usize>() <= MAX_TABLE_ENTRIES);
    }
}
