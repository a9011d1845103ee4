//! The sample games of `report.html`: each game replayed with the engine from the moves its record keeps,
//! on an SVG board drawn from the game's own geometry (the screen rectangles of its positions, or for a grid
//! without `start-rectangle` the places its offsets give). The page's script draws the pieces of the
//! position the reader steps to from the frames written here as JSON.

use crate::compile::Game;
use crate::engine::{Engine, Move, State};
use crate::tournament::config::Tournament;
use crate::tournament::record::GameRecord;
use maud::{html, Markup, PreEscaped};
use serde::Serialize;

/// Boards with more positions are not drawn.
const MAX_CELLS: usize = 2500;

/// A position as drawn: centre, radius (half the shorter side of its rectangle), and its name; in units of
/// the board's smallest cell.
#[derive(Serialize)]
struct Cell(f64, f64, f64, String);

#[derive(Serialize)]
struct PlayerStyle {
    name: String,
    fill: String,
    ink: String,
    edge: String,
}

#[derive(Serialize)]
struct PieceStyle {
    name: String,
    label: String,
}

/// What the page's script needs to step through one game.
#[derive(Serialize)]
struct Frames {
    cells: Vec<Cell>,
    players: Vec<PlayerStyle>,
    pieces: Vec<PieceStyle>,
    /// Per position reached (the start, then after each ply): (cell, owner, piece type, column height).
    frames: Vec<Vec<(usize, usize, usize, usize)>>,
    /// Per position reached: the cells of the last move (its origin and destination).
    marks: Vec<Vec<usize>>,
    moves: Vec<String>,
    /// The player of each move.
    movers: Vec<usize>,
    /// The player to move at the start.
    first: usize,
    /// Plies of the random opening.
    opening: u32,
    /// Pieces are stones on the points of a Go board: drawn as plain discs filling the point, no label.
    stones: bool,
}

/// Where each drawn position is, or why the board cannot be drawn.
struct Layout {
    /// Per position of the game: its index among the drawn cells.
    index: Vec<Option<usize>>,
    cells: Vec<Cell>,
    /// Per drawn cell: its rectangle in board units.
    rects: Vec<[f64; 4]>,
    /// The rectangles tile the board (squares drawn light and dark) rather than overlap (spots drawn).
    tiles: bool,
    /// The board's coordinates as its positions are named: (centre, label) per column of cells (files,
    /// drawn below the board) and per row (ranks, drawn on its left); empty where the names do not share a
    /// part along that line.
    files: Vec<(f64, String)>,
    ranks: Vec<(f64, String)>,
    /// A full rectangular grid of equal cells, drawn as a Go board (lines through the centres, stones on
    /// the intersections) because the game is Go-like ([`go_like`]): the centres of its columns and rows.
    go: Option<(Vec<f64>, Vec<f64>)>,
    view: [f64; 4],
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn layout(game: &Game) -> Result<Layout, String> {
    let board = &game.board;
    let on: Vec<(usize, [i32; 4])> = board
        .positions
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.dummy)
        .map(|(i, p)| p.rect.or(p.layout).map(|r| (i, r)))
        .collect::<Option<_>>()
        .ok_or(
            "its file gives its positions no coordinates (no grid and no position rectangles)",
        )?;
    if on.is_empty() {
        return Err("it has no positions on the board".into());
    }
    if on.len() > MAX_CELLS {
        return Err(format!("it has {} positions, too many to draw", on.len()));
    }
    let norm = |r: [i32; 4]| {
        let [x1, y1, x2, y2] = r.map(|v| v as f64);
        [x1.min(x2), y1.min(y2), x1.max(x2), y1.max(y2)]
    };
    let unit = on
        .iter()
        .map(|(_, r)| {
            let [x1, y1, x2, y2] = norm(*r);
            (x2 - x1).min(y2 - y1)
        })
        .filter(|&u| u > 0.0)
        .fold(f64::INFINITY, f64::min);
    if !unit.is_finite() {
        return Err("its position rectangles have no size".into());
    }
    let mut index = vec![None; board.positions.len()];
    let mut cells = vec![];
    let mut rects = vec![];
    for (i, r) in &on {
        let [x1, y1, x2, y2] = norm(*r).map(|v| v / unit);
        index[*i] = Some(cells.len());
        let radius = ((x2 - x1).min(y2 - y1) / 2.0).max(0.5);
        cells.push(Cell(
            round3((x1 + x2) / 2.0),
            round3((y1 + y2) / 2.0),
            round3(radius),
            board.positions[*i].name.clone(),
        ));
        rects.push([x1, y1, x2, y2]);
    }
    let overlap = |a: &[f64; 4], b: &[f64; 4]| {
        a[0] < b[2] - 1e-9 && b[0] < a[2] - 1e-9 && a[1] < b[3] - 1e-9 && b[1] < a[3] - 1e-9
    };
    let tiles =
        !(0..rects.len()).any(|i| (i + 1..rects.len()).any(|j| overlap(&rects[i], &rects[j])));
    let lo_x = rects.iter().map(|r| r[0]).fold(f64::INFINITY, f64::min);
    let lo_y = rects.iter().map(|r| r[1]).fold(f64::INFINITY, f64::min);
    let hi_x = rects.iter().map(|r| r[2]).fold(f64::NEG_INFINITY, f64::max);
    let hi_y = rects.iter().map(|r| r[3]).fold(f64::NEG_INFINITY, f64::max);
    let files = coordinates(&cells, |c| c.0);
    let ranks = coordinates(&cells, |c| c.1);
    let go = if tiles && go_like(game) {
        full_grid(&cells, &rects)
    } else {
        None
    };
    let pad = 0.2;
    // Room for the labels: ranks on the left, files below.
    let left = if ranks.is_empty() { pad } else { 0.6 };
    let below = if files.is_empty() { pad } else { 0.6 };
    Ok(Layout {
        index,
        cells,
        rects,
        tiles,
        files,
        ranks,
        go,
        view: [
            round3(lo_x - left),
            round3(lo_y - pad),
            round3(hi_x - lo_x + left + pad),
            round3(hi_y - lo_y + pad + below),
        ],
    })
}

/// The coordinate labels along one axis (`at`: a cell's centre on it): the cells grouped by that centre,
/// each group labelled by what all its names share, their common beginning (`a` of `a1`..`a8`) or else
/// their common end (`8` of `a8`..`h8`). None at all unless every group has two cells or more and a label
/// that is a proper part of each name, and the labels differ.
fn coordinates(cells: &[Cell], at: impl Fn(&Cell) -> f64) -> Vec<(f64, String)> {
    let mut groups: Vec<(f64, Vec<&str>)> = vec![];
    for c in cells {
        let x = at(c);
        match groups.iter_mut().find(|(g, _)| (g - x).abs() < 1e-6) {
            Some((_, names)) => names.push(&c.3),
            None => groups.push((x, vec![&c.3])),
        }
    }
    groups.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = vec![];
    for (x, names) in &groups {
        if names.len() < 2 {
            return vec![];
        }
        let shortest = names.iter().map(|n| n.chars().count()).min().unwrap_or(0);
        let common = |rev: bool| -> String {
            let seq = |n: &str| -> Vec<char> {
                if rev {
                    n.chars().rev().collect()
                } else {
                    n.chars().collect()
                }
            };
            let first = seq(names[0]);
            let mut k = first.len();
            for n in &names[1..] {
                let other = seq(n);
                k = k.min(first.iter().zip(&other).take_while(|(a, b)| a == b).count());
            }
            let mut part: Vec<char> = first[..k].to_vec();
            if rev {
                part.reverse();
            }
            part.into_iter().collect()
        };
        let label = [common(false), common(true)]
            .into_iter()
            .find(|l| !l.is_empty() && l.chars().count() < shortest);
        match label {
            Some(l) => out.push((*x, l)),
            None => return vec![],
        }
    }
    let mut seen: Vec<&str> = out.iter().map(|(_, l)| l.as_str()).collect();
    seen.sort();
    seen.dedup();
    if seen.len() != out.len() {
        return vec![];
    }
    out
}

/// Whether the game is played with stones on the points of a Go board: every piece type enters by drops
/// only (none moves) and the game takes enemy groups by their liberties, in a drop program
/// (`capture-groups`) or through the `go` extension module. Othello, Hex and Connect Four drop pieces too,
/// but take no groups, and keep their squares or cells.
fn go_like(game: &Game) -> bool {
    use crate::compile::{Instr, MoveProgram};
    fn takes_groups(body: &[Instr]) -> bool {
        body.iter().any(|i| match i {
            Instr::CaptureGroups(..) => true,
            Instr::If(_, a, b) => takes_groups(a) || takes_groups(b),
            Instr::While(_, a) => takes_groups(a),
            Instr::Choose(c) => takes_groups(&c.body) || takes_groups(&c.rest),
            _ => false,
        })
    }
    let drops_only = !game.pieces.is_empty()
        && game
            .pieces
            .iter()
            .all(|p| p.moves.is_empty() && !p.drops.is_empty());
    let module = game.extensions.iter().any(|e| e.name == "go");
    let groups = game
        .pieces
        .iter()
        .flat_map(|p| &p.drops)
        .any(|d: &MoveProgram| takes_groups(&d.body));
    drops_only && (module || groups)
}

/// The centres of the columns and rows of cells that fill a rectangle, all of one size; `None` otherwise.
fn full_grid(cells: &[Cell], rects: &[[f64; 4]]) -> Option<(Vec<f64>, Vec<f64>)> {
    let size = |r: &[f64; 4]| (r[2] - r[0], r[3] - r[1]);
    let first = size(rects.first()?);
    if rects.iter().any(|r| {
        let (w, h) = size(r);
        (w - first.0).abs() > 1e-6 || (h - first.1).abs() > 1e-6
    }) {
        return None;
    }
    let distinct = |v: Vec<f64>| {
        let mut v = v;
        v.sort_by(|a, b| a.total_cmp(b));
        v.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
        v
    };
    let xs = distinct(cells.iter().map(|c| c.0).collect());
    let ys = distinct(cells.iter().map(|c| c.1).collect());
    (xs.len() >= 2 && ys.len() >= 2 && xs.len() * ys.len() == cells.len()).then_some((xs, ys))
}

/// The star points of a Go board of `n` lines along an axis: the lines 3 in from the edges (4 from 13
/// lines), and the middle line of an odd board; the middle of a side only from 15 lines.
fn star_lines(n: usize) -> (Vec<usize>, Option<usize>) {
    if n < 7 {
        return (vec![], None);
    }
    let d = if n >= 13 { 3 } else { 2 };
    let mid = (n % 2 == 1).then_some(n / 2);
    (vec![d, n - 1 - d], mid)
}

/// The star points (hoshi) of a Go board of `nx` by `ny` lines, as (column, row) indices.
fn star_points(nx: usize, ny: usize) -> Vec<(usize, usize)> {
    let (ex, mx) = star_lines(nx);
    let (ey, my) = star_lines(ny);
    let mut out = vec![];
    for &x in &ex {
        for &y in &ey {
            out.push((x, y));
        }
    }
    if let (Some(x), Some(y)) = (mx, my) {
        out.push((x, y));
        if nx >= 15 && ny >= 15 {
            for &e in &ex {
                out.push((x, e));
                out.push((e, y));
            }
        }
    }
    out.sort();
    out
}

/// Fill, text and edge colours for a player: by its name where it names a colour, else by its place.
fn player_colours(name: &str, i: usize) -> (&'static str, &'static str, &'static str) {
    let by_name = match name.to_ascii_lowercase().as_str() {
        "white" | "light" | "ivory" => Some(("#f7f3ea", "#1f2430", "#4a4a4a")),
        "black" | "dark" => Some(("#23262d", "#ffffff", "#000000")),
        "red" => Some(("#c8363a", "#ffffff", "#7a1d1f")),
        "blue" => Some(("#2f6db5", "#ffffff", "#173a63")),
        "green" => Some(("#3a8f4a", "#ffffff", "#1f4f28")),
        "yellow" | "gold" => Some(("#f0c93b", "#1f2430", "#8a6d0b")),
        "orange" => Some(("#f08a24", "#1f2430", "#8a4a0b")),
        "purple" | "violet" => Some(("#7c4ea8", "#ffffff", "#3f2357")),
        "brown" => Some(("#8a5a35", "#ffffff", "#4a2e18")),
        "gray" | "grey" | "silver" => Some(("#9aa3ad", "#1f2430", "#4a5058")),
        _ => None,
    };
    by_name.unwrap_or(
        [
            ("#f7f3ea", "#1f2430", "#4a4a4a"),
            ("#23262d", "#ffffff", "#000000"),
            ("#c8363a", "#ffffff", "#7a1d1f"),
            ("#2f6db5", "#ffffff", "#173a63"),
            ("#3a8f4a", "#ffffff", "#1f4f28"),
            ("#f0c93b", "#1f2430", "#8a6d0b"),
        ][i % 6],
    )
}

/// A piece type's label: its notation where short, else its initial (two letters where another type
/// shares the initial).
fn labels(game: &Game) -> Vec<String> {
    let initial = |n: &str, k: usize| -> String {
        let mut l: String = n.chars().filter(|c| c.is_alphanumeric()).take(k).collect();
        if let Some(c) = l.get(..1) {
            l = c.to_uppercase() + &l[1..];
        }
        l
    };
    let firsts: Vec<String> = game.pieces.iter().map(|p| initial(&p.name, 1)).collect();
    game.pieces
        .iter()
        .enumerate()
        .map(|(i, p)| match p.notation.as_deref() {
            Some(n) if !n.trim().is_empty() && n.chars().count() <= 3 => n.trim().to_string(),
            _ if firsts.iter().filter(|f| **f == firsts[i]).count() > 1 => initial(&p.name, 2),
            _ => firsts[i].clone(),
        })
        .collect()
}

fn frame(l: &Layout, s: &State) -> Vec<(usize, usize, usize, usize)> {
    let mut out = vec![];
    for (pos, p) in s.cells().iter().enumerate() {
        let (Some(p), Some(Some(cell))) = (p, l.index.get(pos)) else {
            continue;
        };
        let below = s
            .columns()
            .as_ref()
            .and_then(|c| c.get(pos))
            .map_or(0, |c| c.len());
        out.push((*cell, p.owner.idx(), p.kind.0 as usize, 1 + below));
    }
    out
}

/// The game replayed: the frames, and where the replay stopped early (a move of the record not legal, an
/// engine error), if it did.
fn replay(engine: &Engine, l: &Layout, r: &GameRecord) -> (Frames, Option<String>) {
    let game = engine.game;
    // From an opening book's position where the game started there.
    let mut s = match r.start.as_str() {
        "" => engine.initial(),
        text => crate::tournament::openings::decode_start(game, text)
            .unwrap_or_else(|_| engine.initial()),
    };
    let labels = labels(game);
    let mut f = Frames {
        cells: vec![],
        players: game
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let (fill, ink, edge) = player_colours(&p.name, i);
                PlayerStyle {
                    name: p.name.clone(),
                    fill: fill.into(),
                    ink: ink.into(),
                    edge: edge.into(),
                }
            })
            .collect(),
        pieces: game
            .pieces
            .iter()
            .zip(labels)
            .map(|(p, label)| PieceStyle {
                name: p.name.clone(),
                label,
            })
            .collect(),
        frames: vec![frame(l, &s)],
        marks: vec![vec![]],
        moves: vec![],
        movers: vec![],
        first: engine.to_move(&s).idx(),
        opening: r.opening_plies,
        stones: l.go.is_some(),
    };
    for (k, m) in r.moves.iter().enumerate() {
        let legal = match engine.legal_moves(&s) {
            Ok(l) => l,
            Err(e) => return (f, Some(format!("the engine stopped at ply {}: {e}", k + 1))),
        };
        let notes = Move::notations(game, &legal);
        let Some(i) = notes.iter().position(|n| n == m) else {
            return (
                f,
                Some(format!("move {} ({m}) is not legal in the replay", k + 1)),
            );
        };
        f.movers.push(engine.to_move(&s).idx());
        s = engine.apply(&s, &legal[i]);
        f.moves.push(m.clone());
        f.frames.push(frame(l, &s));
        // A pass moves nothing, so it marks nothing (the state still names the last move's squares).
        let mut marks: Vec<usize> = if legal[i].is_pass() {
            vec![]
        } else {
            [s.last_from(), s.last_to()]
                .into_iter()
                .flatten()
                .filter_map(|p| l.index.get(p.idx()).copied().flatten())
                .collect()
        };
        marks.dedup();
        f.marks.push(marks);
    }
    (f, None)
}

/// JSON for a `<script>` element: `<` escaped so that no text of the game can close the element.
fn script_json(f: &Frames) -> String {
    serde_json::to_string(f)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

fn result_text(r: &GameRecord, game: Option<&Game>) -> String {
    if !r.is_rated() {
        return format!("not rated ({})", r.end_type);
    }
    let best = r.results.iter().copied().max().unwrap_or(0);
    let winners: Vec<&str> = r
        .results
        .iter()
        .enumerate()
        .filter(|(_, &x)| x == best && best > 0)
        .map(|(i, _)| r.bots[i].as_str())
        .collect();
    let _ = game;
    if winners.is_empty() || winners.len() == r.bots.len() {
        format!("draw by {}", r.end_name)
    } else {
        format!("{} won by {}", winners.join(" and "), r.end_name)
    }
}

/// One sample game: title, result, the board with its step controls, and the move list.
pub fn sample(t: &Tournament, n: usize, r: &GameRecord) -> Markup {
    let id = format!("sample-{n}");
    let variant = t.variants.iter().find(|v| v.title == r.variant);
    let game = variant.map(|v| &*v.game);
    let seats: Vec<String> = match game {
        Some(g) => crate::tournament::config::seats_of(g)
            .iter()
            .map(|&p| g.players[p].name.clone())
            .collect(),
        None => vec![],
    };
    let who: Vec<String> = r
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| match seats.get(i) {
            Some(p) => format!("{b} ({p})"),
            None => b.clone(),
        })
        .collect();
    let head = html! {
        // Numbered as its anchor (`#sample-N`), from 1; the game id (from 0, as in games.csv) after it.
        h3 { "Sample " (n) " (game " (r.game_id) "): " (who.join(" vs ")) }
        p.note {
            @if t.variants.len() > 1 { (r.variant) ", " }
            (result_text(r, game)) " after " (r.plies) " plies; seed " (r.seed) "."
        }
    };
    let board = match game {
        None => Err("its variant is not part of this run".to_string()),
        Some(g) => layout(g),
    };
    let (Some(v), Ok(l)) = (variant, board.as_ref()) else {
        let why = board.err().unwrap_or_default();
        return html! {
            div.sample id=(id) {
                (head)
                p.note.noboard { "No board is drawn for this game: " (why) "." }
                (move_list(r))
            }
        };
    };
    let (mut frames, stopped) = replay(v.rules.engine(), l, r);
    frames.cells = l
        .cells
        .iter()
        .map(|c| Cell(c.0, c.1, c.2, c.3.clone()))
        .collect();
    let v = l.view;
    html! {
        div.sample id=(id) data-frames=(frames.frames.len()) tabindex="0" {
            (head)
            svg.board xmlns="http://www.w3.org/2000/svg" viewBox=(format!("{} {} {} {}", v[0], v[1], v[2], v[3]))
                role="img" aria-label={ "Board of game " (r.game_id) } {
                rect x=(v[0]) y=(v[1]) width=(v[2]) height=(v[3]) fill=(if l.go.is_some() { "#dcb469" } else { "#f4ecdc" }) {}
                @if let Some((xs, ys)) = &l.go {
                    (go_board(l, xs, ys))
                } @else {
                g.cells {
                    @for (i, c) in l.cells.iter().enumerate() {
                        @let rc = l.rects[i];
                        @if l.tiles {
                            @let dark = ((rc[0] / (rc[2] - rc[0]).max(1e-9)).round() as i64
                                + (rc[1] / (rc[3] - rc[1]).max(1e-9)).round() as i64) % 2 != 0;
                            rect class={ "cell " (if dark { "dark" } else { "light" }) }
                                x=(round3(rc[0])) y=(round3(rc[1])) width=(round3(rc[2] - rc[0])) height=(round3(rc[3] - rc[1])) {
                                title { (c.3) }
                            }
                        } @else {
                            circle.spot cx=(c.0) cy=(c.1) r=(round3(c.2 * 0.9)) { title { (c.3) } }
                        }
                    }
                }
                }
                (coordinate_labels(l))
                g.lastmove {}
                g.pieces {}
            }
            div.controls {
                button type="button" data-step="start" title="start" { "|◀" }
                button type="button" data-step="-1" title="back one ply" { "◀" }
                input type="range" min="0" max=(frames.frames.len() - 1) value="0" aria-label="ply";
                button type="button" data-step="1" title="forward one ply" { "▶" }
                button type="button" data-step="end" title="end" { "▶|" }
            }
            div.now {}
            @if let Some(why) = &stopped { p.note { "The replay stopped early: " (why) "." } }
            (move_list(r))
            script.frames type="application/json" { (PreEscaped(script_json(&frames))) }
        }
    }
}

/// A Go board: a line through each column and row of points, the star points, and a square per point
/// (transparent, carrying its name) to point at.
fn go_board(l: &Layout, xs: &[f64], ys: &[f64]) -> Markup {
    let (x0, x1) = (xs[0], xs[xs.len() - 1]);
    let (y0, y1) = (ys[0], ys[ys.len() - 1]);
    html! {
        g.goboard {
            @for x in xs {
                line.gridline x1=(round3(*x)) y1=(round3(y0)) x2=(round3(*x)) y2=(round3(y1)) {}
            }
            @for y in ys {
                line.gridline x1=(round3(x0)) y1=(round3(*y)) x2=(round3(x1)) y2=(round3(*y)) {}
            }
            @for (i, j) in star_points(xs.len(), ys.len()) {
                circle.star cx=(round3(xs[i])) cy=(round3(ys[j])) r="0.09" {}
            }
            @for (i, c) in l.cells.iter().enumerate() {
                @let rc = l.rects[i];
                rect.point x=(round3(rc[0])) y=(round3(rc[1])) width=(round3(rc[2] - rc[0])) height=(round3(rc[3] - rc[1])) {
                    title { (c.3) }
                }
            }
        }
    }
}

/// The files below the board and the ranks on its left, as the positions are named.
fn coordinate_labels(l: &Layout) -> Markup {
    let bottom = l.view[1] + l.view[3] - 0.3;
    let left = l.view[0] + 0.3;
    html! {
        @if !l.files.is_empty() || !l.ranks.is_empty() {
            g.coords {
                @for (x, name) in &l.files {
                    text.file x=(round3(*x)) y=(round3(bottom)) { (name) }
                }
                @for (y, name) in &l.ranks {
                    text.rank x=(round3(left)) y=(round3(*y)) { (name) }
                }
            }
        }
    }
}

fn move_list(r: &GameRecord) -> Markup {
    html! {
        @if r.moves.is_empty() {
            p.note { "No moves." }
        } @else {
            ol.moves {
                @for (k, m) in r.moves.iter().enumerate() {
                    li class=[(k < r.opening_plies as usize).then_some("opening")] { (m) }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::config::{BotConfig, TournamentConfig};

    fn tournament(game: &str) -> Tournament {
        TournamentConfig {
            game: format!("{}/games/{game}", env!("CARGO_MANIFEST_DIR")),
            bots: vec![
                BotConfig::Name("random:name=a".into()),
                BotConfig::Name("random:name=b".into()),
            ],
            ..TournamentConfig::default()
        }
        .load()
        .unwrap()
    }

    fn record(variant: &str, moves: &[&str]) -> GameRecord {
        GameRecord {
            game_id: 0,
            pair_id: 0,
            seed: 1,
            variant: variant.into(),
            bots: vec!["a".into(), "b".into()],
            results: vec![0, 0],
            end_type: "move-limit".into(),
            end_name: "move-limit".into(),
            end_priority: 0,
            plies: moves.len() as u32,
            opening_plies: 0,
            legal_moves: 0,
            evals: Default::default(),
            error: String::new(),
            start: String::new(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    /// A record edited by hand (or from another dagaz) whose third move is not legal: the board steps
    /// through the two moves that replay and the page says where it stopped, instead of failing the run.
    #[test]
    fn a_record_that_does_not_replay_is_shown_up_to_where_it_stops() {
        let t = tournament("chess.zrf");
        let title = t.variants[0].title.clone();
        let page = sample(&t, 1, &record(&title, &["e2-e4", "e7-e5", "e4-e6"])).into_string();
        assert!(page.contains("data-frames=\"3\""), "{page}");
        assert!(
            page.contains("The replay stopped early: move 3 (e4-e6) is not legal in the replay."),
            "{page}"
        );
        // All 64 squares, 32 pieces at the start.
        let json = &page[page.find("application/json\">").unwrap() + 18..];
        let f: serde_json::Value =
            serde_json::from_str(&json[..json.find("</script>").unwrap()]).unwrap();
        assert_eq!(f["cells"].as_array().unwrap().len(), 64);
        assert_eq!(f["frames"][0].as_array().unwrap().len(), 32);
        // Labels are the pieces' notation; e2 is empty after the first move, e4 holds the pawn.
        let labels: Vec<&str> = f["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["label"].as_str().unwrap())
            .collect();
        assert!(labels.contains(&"N") && labels.contains(&"K"), "{labels:?}");
        let cell = |name: &str| {
            f["cells"]
                .as_array()
                .unwrap()
                .iter()
                .position(|c| c[3] == name)
                .unwrap() as u64
        };
        let on = |ply: usize, c: u64| {
            f["frames"][ply]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p[0] == c)
        };
        assert!(on(0, cell("e2")) && !on(1, cell("e2")) && on(1, cell("e4")));
        // a8, in the top left corner, is light as on a chessboard; b8 dark.
        assert!(
            page.contains(
                r#"<rect class="cell light" x="0" y="0" width="1" height="1"><title>a8</title>"#
            ),
            "{page}"
        );
        assert!(
            page.contains(
                r#"<rect class="cell dark" x="1" y="0" width="1" height="1"><title>b8</title>"#
            ),
            "{page}"
        );
        // A game whose variant is not in the run has no board, and says so.
        let page = sample(&t, 2, &record("Another game", &["e2-e4"])).into_string();
        assert!(
            page.contains("No board is drawn for this game: its variant is not part of this run."),
            "{page}"
        );
    }

    /// The coordinates of a chessboard as its squares are named (FIDE Laws, art. 2.4: files a to h from
    /// White's left, ranks 1 to 8 from White's side, White at the bottom): the files below the board, a at
    /// the left; the ranks on the left, 8 at the top. Each label stands at its column's or row's centre.
    #[test]
    fn a_chessboard_has_its_files_and_ranks() {
        let t = tournament("chess.zrf");
        let l = layout(&t.variants[0].game).unwrap();
        let files: Vec<(f64, &str)> = l.files.iter().map(|(x, n)| (*x, n.as_str())).collect();
        let ranks: Vec<(f64, &str)> = l.ranks.iter().map(|(y, n)| (*y, n.as_str())).collect();
        let want_files: Vec<(f64, &str)> = "abcdefgh"
            .split("")
            .filter(|x| !x.is_empty())
            .enumerate()
            .map(|(i, f)| (i as f64 + 0.5, f))
            .collect();
        assert_eq!(files, want_files);
        let want_ranks: Vec<(f64, &str)> = ["8", "7", "6", "5", "4", "3", "2", "1"]
            .into_iter()
            .enumerate()
            .map(|(i, r)| (i as f64 + 0.5, r))
            .collect();
        assert_eq!(ranks, want_ranks);
        assert!(l.go.is_none(), "chess drawn as a Go board");
        let page = sample(&t, 1, &record(&t.variants[0].title, &["e2-e4"])).into_string();
        assert!(
            page.contains(r#"<text class="file" x="0.5" y="8.3">a</text>"#),
            "{page}"
        );
        assert!(
            page.contains(r#"<text class="rank" x="-0.3" y="7.5">1</text>"#),
            "{page}"
        );
        // Names that share nothing along a line give no labels rather than wrong ones.
        let cells = vec![
            Cell(0.5, 0.5, 0.5, "p".into()),
            Cell(0.5, 1.5, 0.5, "q".into()),
        ];
        assert!(coordinates(&cells, |c| c.0).is_empty());
    }

    /// Go is drawn as a Go board: 9 lines each way through the points' centres, the 5 star points of a 9x9
    /// board (the 3-3 points and the centre: c3, g3, e5, c7, g7), stones without labels, and the coordinates
    /// as the file names the points (a to j without i, 9 at the top). Games that drop pieces but take no
    /// groups (Othello, Hex, Connect Four) keep their own boards.
    #[test]
    fn go_is_drawn_as_a_go_board() {
        let t = tournament("go-9x9.zrf");
        let g = &t.variants[0].game;
        assert!(go_like(g));
        let l = layout(g).unwrap();
        let (xs, ys) = l.go.clone().expect("a Go board");
        assert_eq!((xs.len(), ys.len()), (9, 9));
        let files: Vec<&str> = l.files.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(files, ["a", "b", "c", "d", "e", "f", "g", "h", "j"]);
        assert_eq!(l.ranks[0].1, "9");
        let stars: Vec<String> = star_points(9, 9)
            .into_iter()
            .map(|(x, y)| format!("{}{}", files[x], 9 - y))
            .collect();
        let mut want = vec!["c3", "g3", "e5", "c7", "g7"];
        want.sort();
        let mut got: Vec<&str> = stars.iter().map(|s| s.as_str()).collect();
        got.sort();
        assert_eq!(got, want);
        // 19x19: the nine star points; 13x13: five.
        assert_eq!(star_points(19, 19).len(), 9);
        assert_eq!(star_points(13, 13).len(), 5);
        assert!(star_points(19, 19).contains(&(3, 9)));
        let page = sample(&t, 1, &record(&t.variants[0].title, &[])).into_string();
        assert_eq!(
            page.matches("<line class=\"gridline\"").count(),
            18,
            "{page}"
        );
        assert_eq!(page.matches("<circle class=\"star\"").count(), 5, "{page}");
        assert!(
            !page.contains("class=\"cell "),
            "squares drawn under the Go board"
        );
        assert!(page.contains("\"stones\":true"), "{page}");
        for other in ["othello.zrf", "hex.zrf", "connect-four.zrf", "chess.zrf"] {
            let t = tournament(other);
            assert!(!go_like(&t.variants[0].game), "{other} taken for Go");
            let page = sample(&t, 1, &record(&t.variants[0].title, &[])).into_string();
            assert!(!page.contains("gridline"), "{other} drawn as a Go board");
        }
    }

    /// After a pass nothing is marked: the last-move mark was left on the stone played before it. The
    /// caption shows the recorded move, `pass`.
    #[test]
    fn a_pass_marks_nothing() {
        let t = tournament("go-9x9.zrf");
        let v = &t.variants[0];
        let engine = v.rules.engine();
        let s = engine.initial();
        let legal = engine.legal_moves(&s).unwrap();
        let notes = Move::notations(engine.game, &legal);
        let drop = legal.iter().position(|m| !m.is_pass()).unwrap();
        assert!(notes.contains(&"pass".to_string()), "{notes:?}");
        let page = sample(&t, 1, &record(&v.title, &[&notes[drop], "pass"])).into_string();
        let json = &page[page.find("application/json\">").unwrap() + 18..];
        let f: serde_json::Value =
            serde_json::from_str(&json[..json.find("</script>").unwrap()]).unwrap();
        assert_eq!(f["frames"].as_array().unwrap().len(), 3, "{page}");
        assert_eq!(f["marks"][1].as_array().unwrap().len(), 1, "{f}");
        assert_eq!(f["marks"][2].as_array().unwrap().len(), 0, "{f}");
        assert_eq!(f["moves"][1], "pass");
    }

    /// Square boards are drawn as tiles; Hex's cells overlap, and are drawn as spots.
    #[test]
    fn squares_tile_and_hex_cells_are_spots() {
        let t = tournament("chess.zrf");
        let l = layout(&t.variants[0].game).unwrap();
        assert!(l.tiles);
        let t = tournament("hex.zrf");
        let l = layout(&t.variants[0].game).unwrap();
        assert!(!l.tiles);
        assert_eq!(l.cells.len(), 121);
    }
}
