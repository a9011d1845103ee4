//! The charts of `report.html`, drawn with plotters' SVG backend. Each returns the SVG text, or `None` if
//! plotters failed (the page then says so: a report never stops a run). Every label that repeats a number of
//! a CSV file prints it as that file does.

use super::{bot_colour, pm, PALETTE};
use crate::tournament::report::{fmt, Summary};
use crate::tournament::sprt::SprtStatus;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), Box<dyn std::error::Error>>;

const INK: RGBColor = RGBColor(31, 36, 48);
const MUTED: RGBColor = RGBColor(91, 100, 114);
const GRID: RGBColor = RGBColor(225, 228, 233);
const FONT: &str = "sans-serif";

fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// `c` mixed with white: `k` = 1 is `c`, 0 is white.
fn tint((r, g, b): (u8, u8, u8), k: f64) -> RGBColor {
    let m = |x: u8| (255.0 - (255.0 - x as f64) * k).round() as u8;
    RGBColor(m(r), m(g), m(b))
}

fn text(size: u32, colour: RGBColor, h: HPos) -> TextStyle<'static> {
    TextStyle {
        font: (FONT, size).into_font(),
        color: colour.to_backend_color(),
        pos: Pos::new(h, VPos::Center),
    }
}

/// Runs `draw` on an SVG canvas of `size` pixels.
fn svg(size: (u32, u32), draw: impl FnOnce(&Area) -> Drawn) -> Option<String> {
    let mut buf = String::new();
    let ok = {
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(|e| e.into())
            .and_then(|_| draw(&root))
            .and_then(|_| root.present().map_err(|e| e.into()));
        drawn.is_ok()
    };
    ok.then_some(buf)
}

/// A chart with one row per bot or variant, rows along y: its x axis, described by `desc` (whole-number
/// ticks when `whole_ticks`), no y axis, a light grid, muted labels.
fn row_axis(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    desc: &str,
    whole_ticks: bool,
) -> Drawn {
    let mut mesh = chart.configure_mesh();
    mesh.disable_y_mesh()
        .disable_y_axis()
        .y_labels(0)
        .light_line_style(TRANSPARENT)
        .bold_line_style(GRID)
        .axis_style(MUTED)
        .x_desc(desc)
        .label_style((FONT, 16).into_font().color(&MUTED))
        .axis_desc_style((FONT, 16).into_font().color(&MUTED));
    if whole_ticks {
        mesh.x_label_formatter(&whole);
    }
    mesh.draw()?;
    Ok(())
}

/// A range around `values` (finite ones), widened to include `also`, padded by 8% and at least `min_span`.
fn span(values: impl Iterator<Item = f64>, also: &[f64], min_span: f64) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for v in values.chain(also.iter().copied()).filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (-min_span / 2.0, min_span / 2.0);
    }
    if hi - lo < min_span {
        let mid = (hi + lo) / 2.0;
        lo = mid - min_span / 2.0;
        hi = mid + min_span / 2.0;
    }
    let pad = (hi - lo) * 0.08;
    (lo - pad, hi + pad)
}

/// A tick label for a count: whole numbers only (a tick between two is left blank).
fn whole(x: &f64) -> String {
    if (x - x.round()).abs() < 1e-6 {
        format!("{:.0}", x.round() + 0.0)
    } else {
        String::new()
    }
}

/// Width of a text in pixels, roughly (for the room labels need).
fn text_width(s: &str, size: u32) -> u32 {
    (s.chars().count() as u32 * size).div_ceil(2)
}

/// Elo ± 95% per bot, in rank order, as a point with its interval; the numbers of `standings.csv` (`elo`,
/// `elo_error95`) printed at the right of each row.
pub fn standings(s: &Summary) -> Option<String> {
    let n = s.standings.len().max(1);
    // Per bot in rank order: name, index, Elo, its 95% half-width, and the label.
    type Row = (String, usize, Option<f64>, Option<f64>, String);
    let rows: Vec<Row> = s
        .standings
        .iter()
        .map(|st| {
            let (e, err) = (st.elo.map(|e| e.elo), st.elo.map(|e| e.error95));
            let label = format!("{} ± {}", fmt(e, 2), fmt(err, 2));
            (st.name.clone(), st.bot, e, err, label)
        })
        .collect();
    let ends = rows.iter().flat_map(|(_, _, e, err, _)| match (e, err) {
        (Some(e), Some(r)) if r.is_finite() => vec![e - r, e + r],
        (Some(e), _) => vec![*e],
        _ => vec![],
    });
    let (lo, hi) = span(ends, &[0.0], 100.0);
    let name_w = rows
        .iter()
        .map(|r| text_width(&r.0, 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 260)
        + 16;
    let num_w = rows
        .iter()
        .map(|r| text_width(&r.4, 17))
        .max()
        .unwrap_or(60)
        + 24;
    let height = 70 + 36 * n as u32;
    svg((960, height), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(12)
            .margin_left(name_w)
            .margin_right(num_w)
            .x_label_area_size(44)
            .build_cartesian_2d(lo..hi, 0.0..n as f64)?;
        row_axis(&mut chart, "Elo against the field (95% interval)", true)?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (0.0, n as f64)],
            MUTED.stroke_width(1),
        )))?;
        let clamp = |x: f64| x.clamp(lo, hi);
        for (rank, (name, bot, e, err, label)) in rows.iter().enumerate() {
            let y = n as f64 - rank as f64 - 0.5;
            let colour = bot_colour(*bot);
            if let Some(e) = e.filter(|e| !e.is_finite()) {
                // Every game won (or lost): no finite Elo, an arrow at that end of the axis.
                let (tip, dx) = if e > 0.0 {
                    (hi, -(hi - lo) * 0.025)
                } else {
                    (lo, (hi - lo) * 0.025)
                };
                chart.draw_series(std::iter::once(Polygon::new(
                    vec![(tip, y), (tip + dx, y - 0.25), (tip + dx, y + 0.25)],
                    rgb(colour).filled(),
                )))?;
            } else if let Some(e) = e.filter(|_| err.is_some_and(|r| !r.is_finite())) {
                // An unbounded interval (`± inf`): a thin line open at both ends, not a bar with finite ends.
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(lo, y), (hi, y)],
                    tint(colour, 0.45).stroke_width(1),
                )))?;
                let d = (hi - lo) * 0.02;
                for (tip, dx) in [(lo, d), (hi, -d)] {
                    chart.draw_series(std::iter::once(Polygon::new(
                        vec![(tip, y), (tip + dx, y - 0.12), (tip + dx, y + 0.12)],
                        tint(colour, 0.45).filled(),
                    )))?;
                }
                chart.draw_series(std::iter::once(Circle::new(
                    (clamp(e), y),
                    6,
                    rgb(colour).filled(),
                )))?;
            } else if let Some(e) = e {
                let (a, b) = match err {
                    Some(r) if r.is_finite() => (clamp(e - r), clamp(e + r)),
                    Some(_) => (lo, hi),
                    None => (clamp(*e), clamp(*e)),
                };
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(a, y - 0.16), (b, y + 0.16)],
                    tint(colour, 0.45).filled(),
                )))?;
                for x in [a, b] {
                    chart.draw_series(std::iter::once(PathElement::new(
                        vec![(x, y - 0.22), (x, y + 0.22)],
                        rgb(colour).stroke_width(2),
                    )))?;
                }
                chart.draw_series(std::iter::once(Circle::new(
                    (clamp(*e), y),
                    6,
                    rgb(colour).filled(),
                )))?;
            }
            let (px, py) = chart.backend_coord(&(lo, y));
            root.draw(&Text::new(
                name.clone(),
                (px - 12, py),
                text(17, INK, HPos::Right),
            ))?;
            let (qx, _) = chart.backend_coord(&(hi, y));
            root.draw(&Text::new(
                label.clone(),
                (qx + 14, py),
                text(17, INK, HPos::Left),
            ))?;
        }
        Ok(())
    })
}

/// Blue (1) through white (½) to red (0).
fn score_colour(x: f64) -> RGBColor {
    let (low, mid, high) = (
        (202.0, 70.0, 64.0),
        (247.0, 247.0, 247.0),
        (48.0, 110.0, 180.0),
    );
    let (a, b, k) = if x < 0.5 {
        (low, mid, x / 0.5)
    } else {
        (mid, high, (x - 0.5) / 0.5)
    };
    let m = |p: f64, q: f64| (p + (q - p) * k.clamp(0.0, 1.0)).round() as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// The pairwise score matrix: rows and columns in rank order, each cell the row bot's score against the
/// column bot (`pairwise.csv`'s score, from the other side where the pair is written the other way round).
pub fn pairwise(s: &Summary) -> Option<String> {
    let order: Vec<usize> = s.standings.iter().map(|st| st.bot).collect();
    let n = order.len();
    let cell_of = |a: usize, b: usize| -> Option<(String, String, f64)> {
        let h = s
            .head2head
            .iter()
            .find(|h| (h.a, h.b) == (a, b) || (h.a, h.b) == (b, a))?;
        let score = h.wdl.score()?;
        let w = if h.a == a { h.wdl } else { h.wdl.reversed() };
        let own = if h.a == a { score } else { 1.0 - score };
        Some((
            fmt(Some(own), 4),
            format!("{}-{}-{}", w.wins, w.draws, w.losses),
            own,
        ))
    };
    let name_w = order
        .iter()
        .enumerate()
        .map(|(i, &b)| text_width(&format!("{}. {}", i + 1, s.bots[b]), 17))
        .max()
        .unwrap_or(40)
        + 20;
    let cell = if n <= 6 { 96 } else { 64 };
    let width = name_w + cell * n as u32 + 20;
    let height = 40 + cell * n as u32 + 10;
    svg((width, height), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(40)
            .margin_left(name_w)
            .margin_right(20)
            .margin_bottom(10)
            .build_cartesian_2d(0.0..n as f64, 0.0..n as f64)?;
        for (r, &a) in order.iter().enumerate() {
            let y0 = (n - r - 1) as f64;
            for (c, &b) in order.iter().enumerate() {
                let x0 = c as f64;
                let (fill, lines) = match (a == b, cell_of(a, b)) {
                    (true, _) => (RGBColor(236, 238, 242), None),
                    (false, None) => (WHITE, Some(("-".to_string(), String::new(), 0.5))),
                    (false, Some((score, wdl, x))) => (score_colour(x), Some((score, wdl, x))),
                };
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                    fill.filled(),
                )))?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                    WHITE.stroke_width(2),
                )))?;
                if let Some((score, wdl, x)) = lines {
                    let ink = if (x - 0.5).abs() > 0.32 { WHITE } else { INK };
                    let (px, py) = chart.backend_coord(&(x0 + 0.5, y0 + 0.5));
                    root.draw(&Text::new(
                        score,
                        (px, py - 10),
                        text(18, ink, HPos::Center),
                    ))?;
                    root.draw(&Text::new(wdl, (px, py + 13), text(15, ink, HPos::Center)))?;
                }
            }
            let (px, py) = chart.backend_coord(&(0.0, y0 + 0.5));
            root.draw(&Text::new(
                format!("{}. {}", r + 1, s.bots[a]),
                (px - 10, py),
                text(17, INK, HPos::Right),
            ))?;
            let (qx, qy) = chart.backend_coord(&(r as f64 + 0.5, n as f64));
            root.draw(&Text::new(
                (r + 1).to_string(),
                (qx, qy - 16),
                text(17, MUTED, HPos::Center),
            ))?;
        }
        Ok(())
    })
}

/// A line per bot: its Elo against the field after each checkpoint of the games (finite values only; a
/// line breaks where a value is missing).
pub fn elo_over_games(s: &Summary, points: &[(u64, Vec<Option<f64>>)]) -> Option<String> {
    let total = points.last().map_or(1, |p| p.0).max(1) as f64;
    let (lo, hi) = span(
        points
            .iter()
            .flat_map(|(_, e)| e.iter().flatten().copied())
            .map(|x| x.clamp(-1200.0, 1200.0)),
        &[0.0],
        100.0,
    );
    svg((960, 360), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .margin_right(24)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..total, lo..hi)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(GRID)
            .axis_style(MUTED)
            .x_desc("games played")
            .y_desc("Elo")
            .x_label_formatter(&whole)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style((FONT, 16).into_font().color(&MUTED))
            .axis_desc_style((FONT, 16).into_font().color(&MUTED))
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (total, 0.0)],
            MUTED.stroke_width(1),
        )))?;
        for b in 0..s.bots.len() {
            let colour = rgb(bot_colour(b));
            let mut run: Vec<(f64, f64)> = vec![];
            let mut runs = vec![];
            for (k, e) in points {
                match e.get(b).copied().flatten() {
                    Some(x) => run.push((*k as f64, x.clamp(lo, hi))),
                    None => runs.push(std::mem::take(&mut run)),
                }
            }
            runs.push(run);
            for r in runs.into_iter().filter(|r| !r.is_empty()) {
                if r.len() == 1 {
                    chart.draw_series(std::iter::once(Circle::new(r[0], 3, colour.filled())))?;
                }
                chart.draw_series(LineSeries::new(r, colour.stroke_width(2)))?;
            }
        }
        Ok(())
    })
}

/// The SPRT's LLR after each pair, between its two bounds.
pub fn llr_over_games(s: &Summary, sp: &SprtStatus, points: &[(u64, f64)]) -> Option<String> {
    let total = points
        .last()
        .map_or(s.games as u64, |p| p.0)
        .max(s.games as u64)
        .max(1) as f64;
    let (lo, hi) = span(points.iter().map(|p| p.1), &[sp.lower, sp.upper, 0.0], 1.0);
    svg((960, 320), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .margin_right(150)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..total, lo..hi)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(GRID)
            .axis_style(MUTED)
            .x_desc("games played")
            .y_desc("LLR")
            .x_label_formatter(&whole)
            .label_style((FONT, 16).into_font().color(&MUTED))
            .axis_desc_style((FONT, 16).into_font().color(&MUTED))
            .draw()?;
        let bounds = [
            (sp.upper, RGBColor(89, 161, 79), "H1 accepted"),
            (sp.lower, RGBColor(225, 87, 89), "H0 accepted"),
        ];
        for (y, colour, name) in bounds {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(0.0, y), (total, y)],
                colour.stroke_width(2),
            )))?;
            let (px, py) = chart.backend_coord(&(total, y));
            root.draw(&Text::new(
                format!("{name} ({})", fmt(Some(y), 3)),
                (px + 8, py),
                text(16, colour, HPos::Left),
            ))?;
        }
        let mut line = vec![(0.0, 0.0)];
        line.extend(points.iter().map(|&(k, l)| (k as f64, l.clamp(lo, hi))));
        chart.draw_series(LineSeries::new(line, rgb(PALETTE[0]).stroke_width(2)))?;
        if let Some(&(k, l)) = points.last() {
            chart.draw_series(std::iter::once(Circle::new(
                (k as f64, l.clamp(lo, hi)),
                4,
                rgb(PALETTE[0]).filled(),
            )))?;
        }
        Ok(())
    })
}

/// Per variant, the first seat's mean score with its 95% interval, on [0, 1] with ½ marked; the value and
/// interval printed as `report.md` prints them.
pub fn first_player(s: &Summary) -> Option<String> {
    let rows: Vec<(String, Option<(f64, f64)>)> = s
        .variants
        .iter()
        .map(|v| {
            (
                v.title.clone(),
                v.measures.as_ref().map(|m| {
                    (
                        m.first_player_advantage.value,
                        m.first_player_advantage.error95,
                    )
                }),
            )
        })
        .collect();
    let n = rows.len().max(1);
    let name_w = rows
        .iter()
        .map(|r| text_width(&r.0, 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 260)
        + 16;
    svg((960, 70 + 36 * n as u32), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(12)
            .margin_left(name_w)
            .margin_right(150)
            .x_label_area_size(44)
            .build_cartesian_2d(0.0..1.0, 0.0..n as f64)?;
        row_axis(&mut chart, "first seat's mean score (0.5 is fair)", false)?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.5, 0.0), (0.5, n as f64)],
            MUTED.stroke_width(1),
        )))?;
        let colour = (118, 183, 178);
        for (i, (name, m)) in rows.iter().enumerate() {
            let y = n as f64 - i as f64 - 0.5;
            let label = match m {
                Some((v, e)) => {
                    let (a, b) = if e.is_finite() {
                        ((v - e).max(0.0), (v + e).min(1.0))
                    } else {
                        (0.0, 1.0)
                    };
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(a, y - 0.16), (b, y + 0.16)],
                        tint(colour, 0.5).filled(),
                    )))?;
                    chart.draw_series(std::iter::once(Circle::new(
                        (*v, y),
                        6,
                        RGBColor(47, 122, 116).filled(),
                    )))?;
                    pm(*v, *e, 3)
                }
                None => "no rated games".into(),
            };
            let (px, py) = chart.backend_coord(&(0.0, y));
            root.draw(&Text::new(
                name.clone(),
                (px - 12, py),
                text(17, INK, HPos::Right),
            ))?;
            let (qx, _) = chart.backend_coord(&(1.0, y));
            root.draw(&Text::new(label, (qx + 14, py), text(17, INK, HPos::Left)))?;
        }
        Ok(())
    })
}

/// A histogram of game lengths: games per bin of plies, at most about 40 bins of a round width.
pub fn lengths(counts: &BTreeMap<u32, u64>) -> Option<String> {
    let (Some((&first, _)), Some((&last, _))) = (counts.first_key_value(), counts.last_key_value())
    else {
        return svg((960, 80), |root| {
            root.draw(&Text::new(
                "no games",
                (20, 40),
                text(17, MUTED, HPos::Left),
            ))?;
            Ok(())
        });
    };
    let raw = (last - first).saturating_add(1).div_ceil(40).max(1);
    let width = [1u32, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|&w| w >= raw)
        .unwrap_or(raw);
    let start = first / width * width;
    let mut bins: BTreeMap<u32, u64> = BTreeMap::new();
    for (&p, &c) in counts {
        *bins.entry((p - start) / width).or_default() += c;
    }
    let top = bins.values().copied().max().unwrap_or(1) as f64 * 1.1;
    let x_hi =
        start as f64 + (bins.keys().last().copied().unwrap_or(0) as f64 + 1.0) * width as f64;
    // At least ten plies wide, so that a run whose games all had one length still has an axis to read.
    let widen = (10.0 - (x_hi - start as f64)).max(0.0) / 2.0;
    // Bins of one ply stand centred on their number.
    let shift = if width == 1 { 0.5 } else { 0.0 };
    let (x_lo, x_hi) = (
        (start as f64 - widen).max(0.0) - shift,
        x_hi + widen - shift,
    );
    svg((960, 280), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(14)
            .margin_right(24)
            .x_label_area_size(44)
            .y_label_area_size(60)
            .build_cartesian_2d(x_lo..x_hi, 0.0..top)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(GRID)
            .axis_style(MUTED)
            .x_desc(if width == 1 {
                "plies".to_string()
            } else {
                format!("plies (bins of {width})")
            })
            .y_desc("games")
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .label_style((FONT, 16).into_font().color(&MUTED))
            .axis_desc_style((FONT, 16).into_font().color(&MUTED))
            .draw()?;
        let colour = rgb(PALETTE[0]);
        for (&b, &c) in &bins {
            let x0 = start as f64 + b as f64 * width as f64 - shift;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x0 + width as f64, c as f64)],
                colour.mix(0.85).filled(),
            )))?;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0, 0.0), (x0 + width as f64, c as f64)],
                WHITE.stroke_width(1),
            )))?;
        }
        Ok(())
    })
}

/// The end conditions of variant `v`: per bot (all seats together), a bar of its games split by end
/// condition, each part dark for its wins, middle for draws, light for losses, with the count written in
/// it where it fits; and the legend's entries (end condition and colour).
pub fn end_conditions(s: &Summary, v: usize) -> (Option<String>, Vec<super::LegendItem>) {
    // End conditions of the variant, each with its colour, in the order end_conditions.csv lists them.
    let mut keys: Vec<(&str, &str, i32)> = vec![];
    let mut per_bot: BTreeMap<usize, BTreeMap<usize, [u64; 3]>> = BTreeMap::new();
    for e in s.ends.iter().filter(|e| e.variant == v) {
        let k = (e.end_type.as_str(), e.end_name.as_str(), e.end_priority);
        let i = match keys.iter().position(|x| *x == k) {
            Some(i) => i,
            None => {
                keys.push(k);
                keys.len() - 1
            }
        };
        let c = per_bot.entry(e.bot).or_default().entry(i).or_default();
        c[0] += e.wins;
        c[1] += e.draws;
        c[2] += e.losses;
    }
    const END_COLOURS: [(u8, u8, u8); 8] = [
        (78, 121, 167),
        (89, 161, 79),
        (242, 142, 43),
        (176, 122, 161),
        (225, 87, 89),
        (118, 183, 178),
        (156, 117, 95),
        (237, 201, 72),
    ];
    let legend: Vec<(String, (u8, u8, u8))> = keys
        .iter()
        .enumerate()
        .map(|(i, (ty, name, pr))| {
            let what = if name == ty {
                name.to_string()
            } else {
                format!("{name} ({ty})")
            };
            (
                format!("{what}, priority {pr}"),
                END_COLOURS[i % END_COLOURS.len()],
            )
        })
        .collect();
    if per_bot.is_empty() {
        return (
            svg((960, 60), |root| {
                root.draw(&Text::new(
                    "no rated games",
                    (20, 30),
                    text(17, MUTED, HPos::Left),
                ))?;
                Ok(())
            }),
            legend,
        );
    }
    // Bots in rank order.
    let bots: Vec<usize> = s
        .standings
        .iter()
        .map(|st| st.bot)
        .filter(|b| per_bot.contains_key(b))
        .collect();
    let n = bots.len();
    let most = per_bot
        .values()
        .map(|m| m.values().map(|c| c.iter().sum::<u64>()).sum::<u64>())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let name_w = bots
        .iter()
        .map(|&b| text_width(&s.bots[b], 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 260)
        + 16;
    let svg = svg((960, 70 + 40 * n as u32), |root| {
        let mut chart = ChartBuilder::on(root)
            .margin_top(12)
            .margin_left(name_w)
            .margin_right(24)
            .x_label_area_size(44)
            .build_cartesian_2d(0.0..most, 0.0..n as f64)?;
        row_axis(&mut chart, "games", true)?;
        for (row, b) in bots.iter().enumerate() {
            let y = n as f64 - row as f64 - 0.5;
            let mut x = 0.0;
            for (&k, c) in &per_bot[b] {
                let base = END_COLOURS[k % END_COLOURS.len()];
                for (j, &count) in c.iter().enumerate() {
                    if count == 0 {
                        continue;
                    }
                    let shade = [1.0, 0.62, 0.32][j];
                    let x1 = x + count as f64;
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(x, y - 0.32), (x1, y + 0.32)],
                        tint(base, shade).filled(),
                    )))?;
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [(x, y - 0.32), (x1, y + 0.32)],
                        WHITE.stroke_width(1),
                    )))?;
                    let (ax, ay) = chart.backend_coord(&(x, y));
                    let (bx, _) = chart.backend_coord(&(x1, y));
                    let label = format!("{}{count}", ["W", "D", "L"][j]);
                    if bx - ax > text_width(&label, 15) as i32 + 6 {
                        let ink = if j == 0 { WHITE } else { INK };
                        root.draw(&Text::new(
                            label,
                            ((ax + bx) / 2, ay),
                            text(15, ink, HPos::Center),
                        ))?;
                    }
                    x = x1;
                }
            }
            let (px, py) = chart.backend_coord(&(0.0, y));
            root.draw(&Text::new(
                s.bots[*b].clone(),
                (px - 12, py),
                text(17, INK, HPos::Right),
            ))?;
        }
        Ok(())
    });
    (svg, legend)
}
