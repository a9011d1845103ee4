//! `evaluation.html`: one self-contained page (inline CSS, SVG and a little script; nothing fetched) with a
//! sortable table of the rule sets, their flags and the evidence for each, links to each rule set's own
//! report, and for a sweep each measure plotted against each parameter with its 95% interval.

use super::{header, Row, Settings};
use std::fmt::Write;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The columns the table shows: CSV column name and its heading.
const SHOWN: [(&str, &str); 14] = [
    ("games", "games"),
    ("first_player", "first player"),
    ("balance", "balance"),
    ("completion", "completion"),
    ("drawishness", "drawishness"),
    ("timeouts", "timeouts"),
    ("length", "length"),
    ("length_median", "median length"),
    ("branching", "branching"),
    ("decisiveness", "decisiveness"),
    ("drama", "drama"),
    ("lead_change", "lead change"),
    ("uniformity", "uniformity"),
    ("skill", "skill"),
];

/// The measures plotted against each sweep parameter.
const PLOTTED: [(&str, &str); 4] = [
    ("first_player", "first-player advantage"),
    ("completion", "completion"),
    ("drawishness", "drawishness"),
    ("length", "length (plies)"),
];

/// The CSV cell of `column` in a row (empty when the row has none).
fn cell<'a>(s: &Settings, r: &'a Row, column: &str) -> &'a str {
    let h = header(&s.params);
    let first = 3 + s.params.len() + 2;
    h.iter()
        .position(|c| c == column)
        .filter(|&i| i >= first)
        .and_then(|i| r.cells.get(i - first))
        .map_or("", String::as_str)
}

fn value(s: &Settings, r: &Row, column: &str) -> Option<(f64, f64, f64)> {
    let get = |c: &str| cell(s, r, c).parse::<f64>().ok();
    Some((
        get(column)?,
        get(&format!("{column}_lo"))?,
        get(&format!("{column}_hi"))?,
    ))
}

/// The page.
pub fn page(s: &Settings, rows: &[Row]) -> String {
    let mut p = String::new();
    p.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    p.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    p.push_str("<title>dagaz evaluation</title><style>");
    p.push_str(
        "body{font-family:system-ui,sans-serif;margin:1em;color:#222}\
         .scroll{overflow-x:auto}table{border-collapse:collapse;font-size:0.85em}\
         th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap}\
         th{background:#f0f0f0;cursor:pointer;position:sticky;top:0}\
         td.name,th.name{text-align:left}td.flags{text-align:left;color:#a00}\
         td.error{text-align:left;color:#a00;white-space:normal;max-width:40em}\
         small{color:#666}figure{display:inline-block;margin:0.5em}svg text{font-size:11px}",
    );
    p.push_str("</style></head><body>");
    let _ = write!(
        p,
        "<h1>Evaluation of {} rule sets</h1><p>Bots: <code>{}</code> (self-play: balance, length, ...) and \
         <code>{}</code> (the weaker, for skill dependence). Batches of {} games per encounter, seed {}, at \
         most {} self-play games per rule set{}. Every interval is 95%.</p>",
        rows.len(),
        esc(&s.strong),
        esc(&s.weak),
        s.batch,
        s.seed,
        s.max_games,
        if s.precision.is_empty() {
            String::new()
        } else {
            format!(
                ", or until {}",
                s.precision
                    .iter()
                    .map(|(n, w)| format!("{} is narrower than {w}", esc(n)))
                    .collect::<Vec<_>>()
                    .join(" and ")
            )
        }
    );
    p.push_str(
        "<p>How sure each flag is: <b>unbalanced</b> when the test named in the row finds the seats' wins \
         unequal at p &lt; 0.05 (its p-value is shown); <b>drawish</b> when even the lower end of the draw \
         share's interval is above 0.5; <b>rarely finishes</b> when even the upper end of the completion's \
         interval is below 0.5; <b>too long</b> when even the lower end of the share of games stopped by the \
         ply cap is above 0.1. Click a heading to sort.</p>",
    );
    p.push_str("<div class=\"scroll\"><table id=\"evaluation\"><thead><tr>");
    let mut heads: Vec<String> = vec!["file".into(), "variant".into(), "title".into()];
    heads.extend(s.params.iter().cloned());
    for h in &heads {
        let _ = write!(p, "<th class=\"name\">{}</th>", esc(h));
    }
    for (_, h) in SHOWN {
        let _ = write!(p, "<th>{h}</th>");
    }
    p.push_str("<th class=\"name\">flags</th><th class=\"name\">balance test</th><th class=\"name\">report</th></tr></thead><tbody>");
    for r in rows {
        p.push_str("<tr>");
        let mut names = vec![r.file.clone(), r.variant.clone(), r.title.clone()];
        names.extend(r.values.iter().cloned());
        for n in &names {
            let _ = write!(p, "<td class=\"name\">{}</td>", esc(n));
        }
        // A rule set its time limit stopped shows the measures of its finished batches, if any (its reason is
        // among its flags).
        if let Some(e) = r.reason.as_ref().filter(|_| r.cells.is_empty()) {
            let what = if e.starts_with(super::TIME_LIMIT) {
                "not measured"
            } else {
                "cannot be played"
            };
            let _ = write!(
                p,
                "<td class=\"error\" colspan=\"{}\">{what}: {}</td>",
                SHOWN.len() + 3,
                esc(e)
            );
        } else {
            for (c, _) in SHOWN {
                match value(s, r, c) {
                    Some((v, lo, hi)) => {
                        let _ = write!(
                            p,
                            "<td data-v=\"{v}\">{v:.3}<br><small>[{lo:.3}, {hi:.3}]</small></td>"
                        );
                    }
                    None => {
                        let raw = cell(s, r, c);
                        let _ = write!(p, "<td data-v=\"{}\">{}</td>", esc(raw), esc(raw));
                    }
                }
            }
            let _ = write!(
                p,
                "<td class=\"flags\">{}</td><td class=\"name\"><small>{}, p = {}</small></td>",
                esc(&r.flags.join("; ")),
                esc(cell(s, r, "balance_test")),
                esc(cell(s, r, "balance_p"))
            );
            match &r.report {
                Some(l) => {
                    let _ = write!(
                        p,
                        "<td class=\"name\"><a href=\"{}\">report</a></td>",
                        esc(l)
                    );
                }
                None => p.push_str("<td></td>"),
            }
        }
        p.push_str("</tr>");
    }
    p.push_str("</tbody></table></div>");
    for (k, param) in s.params.iter().enumerate() {
        let _ = write!(p, "<h2>Against {}</h2>", esc(param));
        for (column, label) in PLOTTED {
            p.push_str(&plot(s, rows, k, param, column, label));
        }
    }
    p.push_str(SCRIPT);
    p.push_str("</body></html>\n");
    p
}

/// One measure against one parameter: a point and its interval per rule set, in the order of the values.
fn plot(s: &Settings, rows: &[Row], k: usize, param: &str, column: &str, label: &str) -> String {
    let points: Vec<(String, f64, f64, f64)> = rows
        .iter()
        .filter_map(|r| {
            let (v, lo, hi) = value(s, r, column)?;
            Some((r.values.get(k)?.clone(), v, lo, hi))
        })
        .filter(|(_, v, lo, hi)| v.is_finite() && lo.is_finite() && hi.is_finite())
        .collect();
    let mut values: Vec<String> = vec![];
    for (x, ..) in &points {
        if !values.contains(x) {
            values.push(x.clone());
        }
    }
    let (w, h, left, bottom) = (360.0, 200.0, 50.0, 30.0);
    let lo = points.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    let hi = points.iter().map(|p| p.3).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if points.is_empty() {
        (0.0, 1.0)
    } else if hi - lo < 1e-9 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    };
    let y = |v: f64| 10.0 + (h - bottom - 10.0) * (1.0 - (v - lo) / (hi - lo));
    let step = (w - left - 10.0) / values.len().max(1) as f64;
    let x = |v: &str| left + step * (values.iter().position(|u| u == v).unwrap_or(0) as f64 + 0.5);
    let id = format!("sweep-{}-{}", k + 1, column.replace('_', "-"));
    let mut g = format!(
        "<figure id=\"{id}\"><svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\
         <line x1=\"{left}\" y1=\"10\" x2=\"{left}\" y2=\"{}\" stroke=\"#888\"/>\
         <line x1=\"{left}\" y1=\"{0}\" x2=\"{}\" y2=\"{0}\" stroke=\"#888\"/>\
         <text x=\"4\" y=\"{}\">{hi:.3}</text><text x=\"4\" y=\"{}\">{lo:.3}</text>",
        h - bottom,
        w - 10.0,
        y(hi) + 4.0,
        y(lo) + 4.0,
    );
    if column == "first_player" && (lo..=hi).contains(&0.5) {
        let _ = write!(
            g,
            "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#4a4\" stroke-dasharray=\"4 3\"/>",
            y(0.5),
            w - 10.0
        );
    }
    for v in &values {
        let _ = write!(
            g,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x(v),
            h - bottom + 16.0,
            esc(v)
        );
    }
    for (xv, v, l, u) in &points {
        let cx = x(xv);
        let _ = write!(
            g,
            "<line x1=\"{cx}\" y1=\"{}\" x2=\"{cx}\" y2=\"{}\" stroke=\"#36c\"/><circle cx=\"{cx}\" cy=\"{}\" r=\"3\" fill=\"#36c\"><title>{}={}: {v:.3} [{l:.3}, {u:.3}]</title></circle>",
            y(*l),
            y(*u),
            y(*v),
            esc(param),
            esc(xv)
        );
    }
    let _ = write!(
        g,
        "</svg><figcaption>{} against {} (95% intervals)</figcaption></figure>",
        esc(label),
        esc(param)
    );
    g
}

/// Sorting by a click on a heading (numbers by their value, text as text); marks the page ready.
const SCRIPT: &str = r#"<script>
(function () {
  var table = document.getElementById("evaluation");
  var heads = table.querySelectorAll("th");
  Array.prototype.forEach.call(heads, function (th, i) {
    th.addEventListener("click", function () {
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var up = th.getAttribute("data-sort") !== "up";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("data-sort"); });
      th.setAttribute("data-sort", up ? "up" : "down");
      var key = function (r) {
        var c = r.cells[i];
        if (!c) { return ""; }
        var v = c.getAttribute("data-v");
        var n = parseFloat(v);
        return v !== null && !isNaN(n) ? n : c.textContent;
      };
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var d = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
        return up ? d : -d;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  document.body.setAttribute("data-ready", "yes");
})();
</script>"#;
