//! `report.html`: one self-contained page per run (no network: inline CSS, SVG and a little script) with
//! the run's charts and a few sample games stepped through on the game's own board.
//!
//! It reads only the computed [`Summary`] and what a [`ReportPass`] gathered in the run's one pass over its
//! final `games.csv` (in game-id order, keeping counts and at most [`MAX_SAMPLES`] games), so `dagaz merge`
//! writes the same bytes as a single run: nothing in it depends on the clock, the machine or the order games
//! finished in. Numbers are printed as
//! `standings.csv`, `pairwise.csv` and `report.md` print them ([`fmt`]).
//!
//! Charts are drawn with `plotters` (its SVG backend, in `charts`); the page is a `maud` template; the
//! sample boards are in `board`. Elements a reader or a test looks for carry ids: `standings-chart`,
//! `pairwise-heatmap`, `elo-over-games`, `llr-over-games` (where an SPRT ran), `first-player-advantage`,
//! `game-lengths`, `end-conditions` and `sample-games`.

mod board;
mod charts;

use super::config::Tournament;
use super::record::GameRecord;
use super::report::{fmt, plus_minus, variant_verdicts, Summary, Tally};
use super::schedule::Schedule;
use super::sprt::SprtTracker;
use super::writers::{write_atomic, RunFiles};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use std::collections::{BTreeMap, BTreeSet};

/// Sample games shown: the first game of each pairing of bots (per variant), at most this many.
pub const MAX_SAMPLES: usize = 6;
/// Points of the Elo-over-games chart (the standings recomputed after this many equal shares of the games).
const ELO_POINTS: u64 = 100;

/// Writes `report.html` into the run's folder, from the summary and what a [`ReportPass`] gathered in the
/// run's one pass over `games.csv` (the page does not read the file itself).
pub fn write_report(
    files: &RunFiles,
    t: &Tournament,
    s: &Summary,
    g: &Gathered,
) -> Result<(), String> {
    let page = render(t, s, g);
    write_atomic(&files.dir.join("report.html"), page.as_bytes())
}

/// What the page needs from the games themselves.
#[derive(Default)]
pub struct Gathered {
    /// After each checkpoint: games counted, and each bot's Elo against the field (by bot index).
    elo: Vec<(u64, Vec<Option<f64>>)>,
    /// Games counted when each SPRT pair completed, and the LLR then.
    llr: Vec<(u64, f64)>,
    /// Per variant (by index): games per number of plies.
    lengths: Vec<BTreeMap<u32, u64>>,
    samples: Vec<GameRecord>,
}

/// Gathers what the page needs while the run's final `games.csv` is read once, in game-id order, beside the
/// run's [`Tally`]: the caller counts each game into its tally first, then gives both to [`ReportPass::add`].
pub struct ReportPass {
    g: Gathered,
    /// The games the pass will see (the Elo checkpoints are equal shares of them).
    total: u64,
    n: u64,
    next_point: u64,
    sprt: Option<SprtTracker>,
    first_bot: String,
    paired: BTreeSet<(String, Vec<String>)>,
}

impl ReportPass {
    /// For a pass over `total` games; `sprt`: whether the run's summary has an SPRT.
    pub fn new(t: &Tournament, total: u64, sprt: bool) -> ReportPass {
        let sprt = match (t.config.sprt, sprt) {
            (Some(c), true) => Schedule::new(
                t.config.format,
                t.bots.len(),
                &t.variants
                    .iter()
                    .map(|v| v.seats().len())
                    .collect::<Vec<_>>(),
                t.config.games,
            )
            .ok()
            .map(|sched| SprtTracker::new(c, &sched)),
            _ => None,
        };
        ReportPass {
            g: Gathered {
                lengths: vec![BTreeMap::new(); t.variants.len()],
                ..Gathered::default()
            },
            total,
            n: 0,
            next_point: 1,
            sprt,
            first_bot: t.bots.first().map(|b| b.name.clone()).unwrap_or_default(),
            paired: BTreeSet::new(),
        }
    }

    /// Counts the next game; `tally` has counted it and every game before it.
    pub fn add(&mut self, t: &Tournament, r: &GameRecord, tally: &Tally) {
        let g = &mut self.g;
        self.n += 1;
        let n = self.n;
        let total = self.total;
        let checkpoint = |i: u64| (i * total).div_ceil(ELO_POINTS);
        while self.next_point <= ELO_POINTS && n >= checkpoint(self.next_point) {
            let sum = tally.summary(t, None, false);
            let mut elo = vec![None; t.bots.len()];
            for st in &sum.standings {
                elo[st.bot] = st.elo.map(|e| e.elo).filter(|x| x.is_finite());
            }
            if g.elo.last().map(|(k, _)| *k) != Some(n) {
                g.elo.push((n, elo));
            }
            self.next_point += 1;
        }
        if let Some(tr) = self.sprt.as_mut() {
            let before = tr.status.pairs;
            tr.add(r, &self.first_bot);
            if tr.status.pairs != before && tr.status.llr.is_finite() {
                g.llr.push((n, tr.status.llr));
            }
        }
        if let Some(v) = t.variants.iter().position(|v| v.title == r.variant) {
            *g.lengths[v].entry(r.plies).or_default() += 1;
        }
        if g.samples.len() < MAX_SAMPLES {
            let mut bots = r.bots.clone();
            bots.sort();
            if self.paired.insert((r.variant.clone(), bots)) {
                g.samples.push(r.clone());
            }
        }
    }

    /// What the pass gathered; an error if it saw another number of games than it was made for.
    pub fn finish(self, games_file: &std::path::Path) -> Result<Gathered, String> {
        if self.n != self.total {
            return Err(format!(
                "{}: {} games read where {} were expected (was the file changed during the run's last step?)",
                games_file.display(),
                self.n,
                self.total
            ));
        }
        Ok(self.g)
    }
}

/// A legend's entry: its words and its colour.
pub(crate) type LegendItem = (String, (u8, u8, u8));

/// A colour per bot (by index), the same in every chart.
pub(crate) const PALETTE: [(u8, u8, u8); 10] = [
    (78, 121, 167),
    (242, 142, 43),
    (225, 87, 89),
    (118, 183, 178),
    (89, 161, 79),
    (237, 201, 72),
    (176, 122, 161),
    (255, 157, 167),
    (156, 117, 95),
    (186, 176, 172),
];

fn css_colour((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn bot_colour(i: usize) -> (u8, u8, u8) {
    PALETTE[i % PALETTE.len()]
}

const STYLE: &str = r#"
:root { --ink: #1f2430; --muted: #5b6472; --line: #d9dde3; --card: #ffffff; --bg: #f3f4f7; --accent: #4e79a7; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header { background: #1f2a3c; color: #fff; padding: 22px 32px 18px; }
header h1 { margin: 0 0 6px; font-size: 24px; font-weight: 600; }
header p { margin: 2px 0; color: #c9d2e0; font-size: 14px; }
header code { color: #fff; }
nav { padding: 8px 32px; background: #fff; border-bottom: 1px solid var(--line); font-size: 14px;
  position: sticky; top: 0; z-index: 2; }
nav a { color: var(--accent); text-decoration: none; margin-right: 16px; }
main { max-width: 1120px; margin: 0 auto; padding: 18px 24px 48px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 16px 22px 18px;
  margin: 18px 0; }
h2 { margin: 0 0 4px; font-size: 19px; }
h3 { margin: 16px 0 4px; font-size: 16px; }
p.note { color: var(--muted); margin: 2px 0 10px; font-size: 13.5px; }
figure { margin: 8px 0; }
figure svg { max-width: 100%; height: auto; display: block; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13.5px; font-variant-numeric: tabular-nums;
  display: block; max-width: 100%; overflow-x: auto; }
[id] { scroll-margin-top: 52px; }
@media (max-width: 700px) {
  header, nav { padding-left: 12px; padding-right: 12px; }
  main { padding: 10px 8px 32px; }
  section { padding: 12px 12px 14px; }
}
@media (max-width: 700px) {
  nav { white-space: nowrap; overflow-x: auto; scrollbar-width: none; }
}
th, td { padding: 4px 10px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th { color: var(--muted); font-weight: 600; }
td.name, th.name { text-align: left; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 13px; color: var(--muted); margin: 4px 0; }
.swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; margin-right: 5px;
  vertical-align: -1px; }
.missing { border-left: 4px solid #e15759; padding-left: 12px; }
.verdicts li { margin: 4px 0; }
.samples { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(480px, 100%), 1fr)); gap: 18px; }
.sample { border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.sample h3 { margin: 0 0 2px; font-size: 15px; }
.sample .board { width: 100%; max-width: 460px; height: auto; display: block; margin: 8px auto; }
.sample .controls { display: flex; align-items: center; gap: 6px; margin: 6px 0; }
.sample .controls button { font: inherit; padding: 2px 10px; border: 1px solid var(--line); border-radius: 4px;
  background: #f7f8fa; cursor: pointer; }
.sample .controls button:hover { background: #e9edf3; }
.sample .controls input { flex: 1; }
.sample .now { font-size: 14px; min-height: 1.5em; }
.sample .now b { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.sample ol.moves { font: 12.5px/1.7 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; max-height: 150px;
  overflow-y: auto; margin: 6px 0 0; padding: 6px 8px 6px 40px; background: #f7f8fa; border-radius: 4px; }
.sample ol.moves li { display: inline-block; margin-right: 10px; cursor: pointer; }
.sample ol.moves li.opening { color: var(--muted); }
.sample ol.moves li.current { background: #ffe9a8; border-radius: 3px; }
.board .cell { stroke: #8a7a62; stroke-width: 0.02; }
.board .light { fill: #efe2c6; }
.board .dark { fill: #c9a97c; }
.board .spot { fill: #e8dcc2; stroke: #8a7a62; stroke-width: 0.02; }
.board .last { fill: none; stroke: #e0a800; stroke-width: 0.07; }
.board .piece circle { stroke-width: 0.05; }
.board .piece text { font-family: system-ui, Arial, sans-serif; font-weight: 700; text-anchor: middle;
  dominant-baseline: central; }
.board .gridline { stroke: #3b2f1e; stroke-width: 0.035; stroke-linecap: square; }
.board .star { fill: #3b2f1e; }
.board .point { fill: transparent; }
.board .piece.stone circle { stroke-width: 0.03; }
.board .coords text { font: 600 0.32px system-ui, Arial, sans-serif; fill: #5b6472; text-anchor: middle;
  dominant-baseline: central; }
"#;

/// The script that steps through the sample games: each `.sample` holds its frames as JSON; buttons, the
/// slider, the move list and the arrow keys show the position after any ply. `#sample-N-ply-K` in the
/// address opens sample N at ply K.
const SCRIPT: &str = r#"
(function () {
  var NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    parent.appendChild(e);
    return e;
  }
  function show(s, k) {
    var d = s.dagaz, last = d.frames.length - 1;
    k = Math.max(0, Math.min(last, k | 0));
    s.setAttribute("data-ply", k);
    var g = s.querySelector("g.pieces");
    while (g.firstChild) g.removeChild(g.firstChild);
    d.frames[k].forEach(function (f) {
      var c = d.cells[f[0]], pl = d.players[f[1]] || d.players[0], pc = d.pieces[f[2]] || d.pieces[0];
      var p = el("g", { "class": d.stones ? "piece stone" : "piece", "data-cell": c[3] }, g);
      el("title", {}, p).textContent = pl.name + " " + pc.name + " on " + c[3] + (f[3] > 1 ? " (" + f[3] + " high)" : "");
      el("circle", { cx: c[0], cy: c[1], r: c[2] * (d.stones ? 0.94 : 0.42), fill: pl.fill, stroke: pl.edge }, p);
      if (d.stones) return;
      var label = pc.label + (f[3] > 1 ? f[3] : "");
      var size = c[2] * (label.length > 2 ? 0.36 : label.length > 1 ? 0.46 : 0.56);
      el("text", { x: c[0], y: c[1], "font-size": size, fill: pl.ink }, p).textContent = label;
    });
    var hl = s.querySelector("g.lastmove");
    while (hl.firstChild) hl.removeChild(hl.firstChild);
    (d.marks[k] || []).forEach(function (i) {
      var c = d.cells[i];
      el("circle", { "class": "last", cx: c[0], cy: c[1], r: c[2] * 0.48 }, hl);
    });
    s.querySelector("input[type=range]").value = k;
    var now = s.querySelector(".now");
    if (k === 0) {
      now.textContent = "Start position, " + d.players[d.first].name + " to move (" + last + " plies)";
    } else {
      now.textContent = "";
      now.appendChild(document.createTextNode("Ply " + k + " of " + last + ": "));
      var b = document.createElement("b");
      b.textContent = d.moves[k - 1];
      now.appendChild(b);
      now.appendChild(document.createTextNode(" by " + d.players[d.movers[k - 1]].name +
        (k <= d.opening ? " (random opening)" : "")));
    }
    var items = s.querySelectorAll("ol.moves li");
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("current", i === k - 1);
  }
  var samples = document.querySelectorAll(".sample[data-frames]");
  for (var i = 0; i < samples.length; i++) (function (s) {
    s.dagaz = JSON.parse(s.querySelector("script.frames").textContent);
    var r = s.querySelector("input[type=range]");
    r.max = s.dagaz.frames.length - 1;
    r.addEventListener("input", function () { show(s, +r.value); });
    var bs = s.querySelectorAll("button[data-step]");
    for (var j = 0; j < bs.length; j++) (function (b) {
      b.addEventListener("click", function () {
        var k = +s.getAttribute("data-ply"), step = b.getAttribute("data-step");
        show(s, step === "start" ? 0 : step === "end" ? s.dagaz.frames.length - 1 : k + (+step));
      });
    })(bs[j]);
    var ms = s.querySelectorAll("ol.moves li");
    for (var j = 0; j < ms.length; j++) (function (li, k) {
      li.addEventListener("click", function () { show(s, k); });
    })(ms[j], j + 1);
    s.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        show(s, +s.getAttribute("data-ply") + (e.key === "ArrowRight" ? 1 : -1));
        e.preventDefault();
      }
    });
    show(s, 0);
  })(samples[i]);
  var m = /^#(sample-\d+)-ply-(\d+)$/.exec(location.hash);
  if (m && document.getElementById(m[1]) && document.getElementById(m[1]).dagaz) {
    show(document.getElementById(m[1]), +m[2]);
    document.getElementById(m[1]).scrollIntoView();
  }
  document.documentElement.setAttribute("data-ready", "yes");
})();
"#;

/// `<figure id=...>` around a chart, or a note where it could not be drawn.
fn figure(id: &str, svg: Option<String>) -> Markup {
    html! {
        @match svg {
            Some(svg) => figure id=(id) { (PreEscaped(svg)) },
            None => p.note id=(id) { "This chart could not be drawn." },
        }
    }
}

fn legend(items: &[(String, (u8, u8, u8))]) -> Markup {
    html! {
        div.legend {
            @for (name, c) in items {
                span { span.swatch style={ "background:" (css_colour(*c)) } {} (name) }
            }
        }
    }
}

fn render(t: &Tournament, s: &Summary, g: &Gathered) -> String {
    let c = &t.config;
    let titles: Vec<&str> = s.variants.iter().map(|v| v.title.as_str()).collect();
    let game_name = c.game.rsplit(['/', '\\']).next().unwrap_or(&c.game);
    let stopped = s.sprt.as_ref().is_some_and(|x| x.stop_pair.is_some());
    let bots_legend: Vec<(String, (u8, u8, u8))> = s
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.clone(), bot_colour(i)))
        .collect();
    let multi = s.variants.len() > 1;
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Tournament report: " (game_name) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    h1 { "Tournament report: " (titles.join(", ")) }
                    p {
                        "Game " code { (c.game) } ", " (s.bots.len()) " bots, " (c.format.as_str())
                        " format, seed " (c.seed) ", " (c.games) " games per encounter, "
                        (c.opening_plies) " random opening plies, ply cap " (c.max_plies) "; dagaz " (c.version) "."
                    }
                    p {
                        (s.games) " of " (s.scheduled) " scheduled games played"
                        @if stopped { " (stopped by the SPRT)" }
                        @else if !s.complete { " (the run is not finished: resume it with --resume)" }
                        "."
                    }
                }
                nav {
                    a href="#standings" { "Standings" }
                    a href="#pairwise" { "Pairwise" }
                    a href="#over-games" { "Over games" }
                    a href="#rule-set" { "First player" }
                    a href="#lengths" { "Game length" }
                    a href="#ends" { "End conditions" }
                    a href="#samples" { "Sample games" }
                }
                main {
                    (missing_rules(t))
                    section id="standings" {
                        h2 { "Standings" }
                        p.note {
                            "Elo against the field with its 95% interval ("
                            @if s.standings.iter().any(|x| x.penta.is_some()) {
                                "pentanomial, from pairs of games with seats swapped"
                            } @else { "trinomial" }
                            "), the numbers of standings.csv. An interval that crosses 0 does not tell the bot from the field's average."
                        }
                        (figure("standings-chart", charts::standings(s)))
                        (standings_table(s))
                    }
                    section id="pairwise" {
                        h2 { "Pairwise scores" }
                        p.note { "The row bot's score against the column bot (pairwise.csv), with wins-draws-losses; blue: the row bot scored more, red: less. Columns are numbered as the rows." }
                        @if s.bots.len() < 2 {
                            p.note id="pairwise-heatmap" { "One bot: no pairs." }
                        } @else {
                            (figure("pairwise-heatmap", charts::pairwise(s)))
                        }
                    }
                    section id="over-games" {
                        h2 { "Elo over games" }
                        p.note { "Each bot's Elo against the field, recomputed as the games accumulate in game order (the last point is the standings' Elo); a bot that has won or lost every game so far has no finite Elo and no point." }
                        (figure("elo-over-games", charts::elo_over_games(s, &g.elo)))
                        (legend(&bots_legend))
                        @if let Some(sp) = &s.sprt {
                            h3 { "SPRT: log-likelihood ratio over games" }
                            p.note {
                                "H0: Elo = " (sp.config.elo0) " against H1: Elo = " (sp.config.elo1) " ("
                                (s.bots[0]) " over " (s.bots.get(1).map_or("", |b| b.as_str())) "), α = "
                                (sp.config.alpha) ", β = " (sp.config.beta) ": LLR " (fmt(Some(sp.llr), 3))
                                " after " (sp.pairs) " pairs, bounds [" (fmt(Some(sp.lower), 3)) ", "
                                (fmt(Some(sp.upper), 3)) "]: "
                                b { (match sp.decision {
                                    super::stats::SprtDecision::AcceptH0 => "H0 accepted",
                                    super::stats::SprtDecision::AcceptH1 => "H1 accepted",
                                    super::stats::SprtDecision::Continue => "no decision within the games scheduled",
                                }) } "."
                            }
                            (figure("llr-over-games", charts::llr_over_games(s, sp, &g.llr)))
                        }
                    }
                    section id="rule-set" {
                        h2 { "First-player advantage" }
                        p.note { "The first seat's mean score over each variant's games (½ is fair), whichever bots played them, with its 95% interval." }
                        (figure("first-player-advantage", charts::first_player(s)))
                        @let verdicts = variant_verdicts(s);
                        @if !verdicts.is_empty() {
                            h3 { "Do the variants differ?" }
                            ul.verdicts {
                                @for v in &verdicts { li { (v.replace("**", "")) } }
                            }
                        }
                    }
                    section id="lengths" {
                        h2 { "Game length" }
                        p.note { "Games per number of plies, per variant (the random opening plies included)." }
                        div id="game-lengths" {
                            @for (i, v) in s.variants.iter().enumerate() {
                                @if multi { h3 { (v.title) } }
                                @if let Some(m) = &v.measures {
                                    p.note {
                                        (v.games) " games; plies: mean " (fmt(Some(m.duration.mean), 1))
                                        ", median " (fmt(Some(m.duration.median), 1)) ", quartiles "
                                        (fmt(Some(m.duration.q1), 1)) " and " (fmt(Some(m.duration.q3), 1))
                                        ", from " (fmt(Some(m.duration.min), 0)) " to " (fmt(Some(m.duration.max), 0)) "."
                                    }
                                }
                                (figure(&format!("game-length-{}", i + 1), charts::lengths(&g.lengths[i])))
                            }
                        }
                    }
                    section id="ends" {
                        h2 { "End conditions" }
                        p.note { "How each bot's games ended, per variant: one colour per end condition (its name, type and priority; the higher priority decides when two hold at once), dark for wins, middle for draws, light for losses; the table gives the wins-draws-losses (per seat in end_conditions.csv)." }
                        div id="end-conditions" {
                            @for (i, v) in s.variants.iter().enumerate() {
                                @if multi { h3 { (v.title) } }
                                @let (svg, keys) = charts::end_conditions(s, i);
                                (figure(&format!("end-conditions-{}", i + 1), svg))
                                (legend(&keys))
                                (end_table(s, i))
                            }
                        }
                    }
                    section id="samples" {
                        h2 { "Sample games" }
                        p.note { "The first game of each pairing of bots, replayed with the engine from the moves games.csv records. Step with the buttons, the slider, the arrow keys or a click on a move." }
                        div.samples id="sample-games" {
                            @for (i, r) in g.samples.iter().enumerate() {
                                (board::sample(t, i + 1, r))
                            }
                        }
                    }
                }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    page.into_string()
}

fn missing_rules(t: &Tournament) -> Markup {
    html! {
        @if t.variants.iter().any(|v| !v.game.missing_rules.is_empty()) {
            section.missing id="missing-rules" {
                h2 { "Missing rules" }
                p.note { "The engine does not apply these rules of the game file; the run was played without them (--allow-missing-rules), so its figures describe a different game." }
                ul {
                    @for v in &t.variants {
                        @for r in &v.game.missing_rules {
                            li { (v.title) ": " (r.what_with_value()) " (" (r.location) ")" }
                        }
                    }
                }
            }
        }
    }
}

fn standings_table(s: &Summary) -> Markup {
    html! {
        table id="standings-table" {
            tr {
                th { "rank" } th.name { "bot" } th { "games" } th { "W" } th { "D" } th { "L" } th { "score" }
                th { "Elo" } th { "± 95%" } th { "BT rating" }
            }
            @for (i, st) in s.standings.iter().enumerate() {
                tr {
                    td { (i + 1) }
                    td.name { span.swatch style={ "background:" (css_colour(bot_colour(st.bot))) } {} (st.name) }
                    td { (st.wdl.games()) } td { (st.wdl.wins) } td { (st.wdl.draws) } td { (st.wdl.losses) }
                    td { (fmt(st.wdl.score(), 4)) }
                    td { (fmt(st.elo.map(|e| e.elo), 2)) }
                    td { (fmt(st.elo.map(|e| e.error95), 2)) }
                    td { (fmt(st.rating, 2)) }
                }
            }
        }
    }
}

/// `value ± error` as report.md prints it.
pub(crate) fn pm(value: f64, error: f64, decimals: usize) -> String {
    plus_minus(value, error, decimals)
}

/// Per bot (in rank order) and end condition of variant `v`: wins-draws-losses over all seats.
fn end_table(s: &Summary, v: usize) -> Markup {
    let mut keys: Vec<(&str, &str, i32)> = vec![];
    let mut cells: BTreeMap<(usize, usize), [u64; 3]> = BTreeMap::new();
    for e in s.ends.iter().filter(|e| e.variant == v) {
        let k = (e.end_type.as_str(), e.end_name.as_str(), e.end_priority);
        let i = keys.iter().position(|x| *x == k).unwrap_or_else(|| {
            keys.push(k);
            keys.len() - 1
        });
        let c = cells.entry((e.bot, i)).or_default();
        c[0] += e.wins;
        c[1] += e.draws;
        c[2] += e.losses;
    }
    html! {
        @if !keys.is_empty() {
            table.ends {
                tr {
                    th.name { "bot" }
                    @for (ty, name, pr) in &keys {
                        th { (name) @if name != ty { " (" (ty) ")" } ", priority " (pr) }
                    }
                }
                @for st in s.standings.iter().filter(|st| (0..keys.len()).any(|i| cells.contains_key(&(st.bot, i)))) {
                    tr {
                        td.name { (st.name) }
                        @for i in 0..keys.len() {
                            td {
                                @match cells.get(&(st.bot, i)) {
                                    Some(c) => { (c[0]) "-" (c[1]) "-" (c[2]) }
                                    None => "-",
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tournament::config::{BotConfig, TournamentConfig};
    use crate::tournament::progress::Progress;
    use crate::tournament::runner::{conclude, run, RunOptions};
    use crate::tournament::writers::RunFiles;

    /// Issue 28: the run's last step reads `games.csv` once, for every output `report.html` included (it
    /// read the file a second time for the page: about 7% of a 20,000-game random run). Concluding a
    /// finished run again makes exactly one pass over the file and writes the same page.
    #[test]
    fn the_report_is_written_from_the_one_pass_over_the_games() {
        let dir = crate::test_scratch::Scratch::unmade("html-once");
        let t = TournamentConfig {
            game: format!("{}/games/breakthrough.zrf", env!("CARGO_MANIFEST_DIR")),
            bots: vec![
                BotConfig::Name("random:name=a".into()),
                BotConfig::Name("random:name=b".into()),
            ],
            games: 6,
            sprt: Some(crate::tournament::config::SprtConfig {
                elo0: 0.0,
                elo1: 300.0,
                alpha: 0.05,
                beta: 0.05,
            }),
            ..TournamentConfig::default()
        }
        .load()
        .unwrap();
        let opts = RunOptions {
            out: dir.to_path_buf(),
            jobs: 1,
            progress: Progress::None,
            resume: false,
        };
        let outcome = run(&t, &opts).unwrap();
        let first = std::fs::read(dir.join("report.html")).unwrap();
        let files = RunFiles::new(&dir, t.max_seats());
        let games = outcome.summary.games as u64;
        assert_eq!(games, 6);
        conclude(&t, &files, outcome.summary.sprt.clone(), true, games).unwrap();
        assert_eq!(files.games_reads(), 1, "games.csv read more than once");
        assert_eq!(std::fs::read(dir.join("report.html")).unwrap(), first);
        // The page's Elo-over-games and LLR charts and its sample come from that pass.
        let page = String::from_utf8(first).unwrap();
        assert!(page.contains("id=\"llr-over-games\"") && page.contains("id=\"sample-1\""));
        // A count that is not the file's is an error, not a page with wrong checkpoints.
        let e = conclude(&t, &files, outcome.summary.sprt.clone(), true, games + 1).unwrap_err();
        assert!(e.contains("7 were expected"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
