//! From records to numbers and words: [`summarize`] computes every statistic of a run from its game records
//! alone (standings, the pairwise table, results per end condition, the measures of each variant's rule set),
//! and [`render_markdown`] and [`render_standings`] show them. The CSV forms are in `writers`.

use super::config::Tournament;
use super::record::{GameRecord, BOT_ERROR, ENGINE_ERROR, MOVE_LIMIT};
use super::runner::{outcome_of, SprtStatus};
use super::stats::{
    bradley_terry, rule_set_measures, BtOptions, EloEstimate, EndKind, GameOutcome, Outcome, Penta,
    RuleSetMeasures, SprtDecision, Wdl,
};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One bot's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Index in the run's bot list.
    pub bot: usize,
    pub name: String,
    /// Over its rated games (engine errors left out).
    pub wdl: Wdl,
    /// Against the field: pentanomial when every game is two-player, else trinomial.
    pub elo: Option<EloEstimate>,
    /// Bradley-Terry rating with one virtual draw against a reference at 0 (always finite), the field's mean
    /// at 0.
    pub rating: Option<f64>,
    /// Its pairs against the field (two-player games only).
    pub penta: Option<Penta>,
    /// Likelihood of superiority over each bot (by index; `None` against itself or a bot it never met).
    pub los: Vec<Option<f64>>,
}

/// Two bots' results against each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Head2Head {
    pub a: usize,
    pub b: usize,
    /// From a's view; in games of more players, a game counts as a win for whichever of the two placed better.
    pub wdl: Wdl,
    /// Pairs of games with seats swapped (two-player games only).
    pub penta: Option<Penta>,
    pub elo: Option<EloEstimate>,
}

/// Wins, draws and losses of one bot in one seat by one end condition.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct EndRow {
    pub bot: usize,
    pub variant: usize,
    pub seat: usize,
    pub end_type: String,
    pub end_name: String,
    pub end_priority: i32,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// The measures of one variant's rule set over its games.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantSummary {
    pub title: String,
    /// Player names per seat.
    pub seats: Vec<String>,
    pub games: usize,
    pub engine_errors: usize,
    pub bot_errors: usize,
    pub measures: Option<RuleSetMeasures>,
    /// Mean legal moves per position where a move was chosen.
    pub branching: Option<f64>,
    /// Per end condition (type, name, priority): games, and wins per seat.
    pub ends: BTreeMap<(String, String, i32), (u64, Vec<u64>)>,
}

/// Every statistic of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub bots: Vec<String>,
    /// In rank order: score, then Bradley-Terry rating, then the order the bots were given.
    pub standings: Vec<Standing>,
    pub head2head: Vec<Head2Head>,
    pub ends: Vec<EndRow>,
    pub variants: Vec<VariantSummary>,
    pub sprt: Option<SprtStatus>,
    pub games: usize,
    pub scheduled: usize,
    /// Whether every scheduled game was played (or the SPRT stopped the run).
    pub complete: bool,
}

fn seat_outcome(r: i8) -> Outcome {
    match r.signum() {
        1 => Outcome::Win,
        0 => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

fn end_kind(g: &GameRecord) -> EndKind {
    match g.end_type.as_str() {
        MOVE_LIMIT => EndKind::LengthCap,
        BOT_ERROR => EndKind::Adjudicated,
        _ => EndKind::Natural,
    }
}

/// Computes every statistic from the records (in game-id order).
pub fn summarize(
    t: &Tournament,
    records: &[GameRecord],
    sprt: Option<SprtStatus>,
    complete: bool,
) -> Summary {
    let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
    let n = names.len();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let bot_of = |name: &str| index.get(name).copied();
    let rated: Vec<&GameRecord> = records.iter().filter(|g| g.is_rated()).collect();
    let two_player = t.variants.iter().all(|v| v.seats().len() == 2);

    // Per bot and per pair of bots.
    let mut wdl = vec![Wdl::default(); n];
    let mut h2h = vec![vec![Wdl::default(); n]; n];
    for g in &rated {
        for (i, b) in g.bots.iter().enumerate() {
            let Some(a) = bot_of(b) else { continue };
            wdl[a].add(seat_outcome(g.results[i]));
            for (j, c) in g.bots.iter().enumerate() {
                if let (Some(c), true) = (bot_of(c), i != j) {
                    h2h[a][c].add(seat_outcome(g.results[i] - g.results[j]));
                }
            }
        }
    }
    // Pairs: both games of a pair rated (two-player games).
    let mut penta_field = vec![Penta::default(); n];
    let mut penta_h2h = vec![vec![Penta::default(); n]; n];
    if two_player {
        let mut pairs: BTreeMap<u64, Vec<&GameRecord>> = BTreeMap::new();
        for g in records {
            pairs.entry(g.pair_id).or_default().push(g);
        }
        for games in pairs.values() {
            if games.len() != 2 || !games.iter().all(|g| g.is_rated()) {
                continue;
            }
            let (Some(a), Some(b)) = (bot_of(&games[0].bots[0]), bot_of(&games[0].bots[1])) else {
                continue;
            };
            for (x, y) in [(a, b), (b, a)] {
                let o: Vec<Outcome> = games.iter().map(|g| outcome_of(g, &names[x])).collect();
                penta_field[x].add_pair(o[0], o[1]);
                penta_h2h[x][y].add_pair(o[0], o[1]);
            }
        }
    }

    let mut encounters = vec![];
    let mut head2head = vec![];
    for a in 0..n {
        for b in a + 1..n {
            let w = h2h[a][b];
            if w.games() > 0 {
                encounters.push((a, b, w));
            }
            let penta = (two_player && penta_h2h[a][b].pairs() > 0).then_some(penta_h2h[a][b]);
            if w.games() > 0 {
                head2head.push(Head2Head {
                    a,
                    b,
                    wdl: w,
                    penta,
                    elo: penta.and_then(|p| p.elo()).or_else(|| w.elo()),
                });
            }
        }
    }
    // One virtual draw per bot against a reference at 0 (BayesElo's prior): every rating finite, even for a bot
    // that won or lost every game, at the cost of a slight pull towards 0.
    let bt = BtOptions {
        prior_draws: 1.0,
        ..BtOptions::default()
    };
    let ratings = bradley_terry(n, &encounters, &bt)
        .map(|r| r.ratings)
        .unwrap_or_else(|| vec![None; n]);
    let los_of = |a: usize, b: usize| -> Option<f64> {
        if a == b {
            return None;
        }
        let p = penta_h2h[a][b];
        if two_player && p.pairs() > 0 {
            return p.elo().map(|e| e.los);
        }
        h2h[a][b].elo().map(|e| e.los)
    };
    let mut standings: Vec<Standing> = (0..n)
        .map(|a| {
            let penta = (two_player && penta_field[a].pairs() > 0).then_some(penta_field[a]);
            Standing {
                bot: a,
                name: names[a].clone(),
                wdl: wdl[a],
                elo: penta.and_then(|p| p.elo()).or_else(|| wdl[a].elo()),
                rating: ratings[a],
                penta,
                los: (0..n).map(|b| los_of(a, b)).collect(),
            }
        })
        .collect();
    standings.sort_by(|x, y| {
        let s = |w: &Wdl| w.score().unwrap_or(0.0);
        s(&y.wdl)
            .total_cmp(&s(&x.wdl))
            .then(
                y.rating
                    .unwrap_or(f64::NEG_INFINITY)
                    .total_cmp(&x.rating.unwrap_or(f64::NEG_INFINITY)),
            )
            .then(x.bot.cmp(&y.bot))
    });

    // End conditions per bot and seat.
    // (bot, variant, seat, end type, end name, priority) → wins, draws, losses.
    type EndKey = (usize, usize, usize, String, String, i32);
    let mut ends: BTreeMap<EndKey, [u64; 3]> = BTreeMap::new();
    for g in &rated {
        let v = variant_index(t, &g.variant);
        for (i, b) in g.bots.iter().enumerate() {
            let Some(a) = bot_of(b) else { continue };
            let k = (
                a,
                v,
                i,
                g.end_type.clone(),
                g.end_name.clone(),
                g.end_priority,
            );
            let e = ends.entry(k).or_default();
            e[match seat_outcome(g.results[i]) {
                Outcome::Win => 0,
                Outcome::Draw => 1,
                Outcome::Loss => 2,
            }] += 1;
        }
    }
    let ends = ends
        .into_iter()
        .map(
            |((bot, variant, seat, end_type, end_name, end_priority), c)| EndRow {
                bot,
                variant,
                seat,
                end_type,
                end_name,
                end_priority,
                wins: c[0],
                draws: c[1],
                losses: c[2],
            },
        )
        .collect();

    let variants = t
        .variants
        .iter()
        .map(|v| {
            let seats: Vec<String> = v
                .seats()
                .iter()
                .map(|&p| v.game.players[p].name.clone())
                .collect();
            let games: Vec<&GameRecord> = records.iter().filter(|g| g.variant == v.title).collect();
            let ok: Vec<&&GameRecord> = games.iter().filter(|g| g.is_rated()).collect();
            let outcomes: Vec<GameOutcome> = ok
                .iter()
                .map(|g| GameOutcome {
                    results: g.results.iter().map(|&r| r as f64).collect(),
                    plies: g.plies,
                    end: end_kind(g),
                })
                .collect();
            let mut ends: BTreeMap<(String, String, i32), (u64, Vec<u64>)> = BTreeMap::new();
            for g in &ok {
                let e = ends
                    .entry((g.end_type.clone(), g.end_name.clone(), g.end_priority))
                    .or_insert_with(|| (0, vec![0; seats.len()]));
                e.0 += 1;
                for (i, &r) in g.results.iter().enumerate() {
                    if r > 0 && i < e.1.len() {
                        e.1[i] += 1;
                    }
                }
            }
            let plies: u64 = games.iter().map(|g| g.plies as u64).sum();
            let legal: u64 = games.iter().map(|g| g.legal_moves).sum();
            VariantSummary {
                title: v.title.clone(),
                seats,
                games: games.len(),
                engine_errors: games.iter().filter(|g| g.end_type == ENGINE_ERROR).count(),
                bot_errors: games.iter().filter(|g| g.end_type == BOT_ERROR).count(),
                measures: rule_set_measures(&outcomes),
                branching: (plies > 0).then(|| legal as f64 / plies as f64),
                ends,
            }
        })
        .collect();

    let scheduled = super::schedule::schedule(
        t.config.format,
        n,
        &t.variants
            .iter()
            .map(|v| v.seats().len())
            .collect::<Vec<_>>(),
        t.config.games,
    )
    .len();
    Summary {
        bots: names,
        standings,
        head2head,
        ends,
        variants,
        sprt,
        games: records.len(),
        scheduled,
        complete,
    }
}

fn variant_index(t: &Tournament, title: &str) -> usize {
    t.variants
        .iter()
        .position(|v| v.title == title)
        .unwrap_or(0)
}

/// A number with a fixed number of decimals; ±inf and missing values spelled out.
pub fn fmt(x: Option<f64>, decimals: usize) -> String {
    match x {
        None => "-".into(),
        Some(v) if v.is_nan() => "-".into(),
        Some(v) if v == f64::INFINITY => "inf".into(),
        Some(v) if v == f64::NEG_INFINITY => "-inf".into(),
        Some(v) => {
            let s = format!("{v:.decimals$}");
            // No "-0.0".
            if s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
            {
                s.trim_start_matches('-').to_string()
            } else {
                s
            }
        }
    }
}

fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        None => "-".into(),
        Some(e) => format!("{} ± {}", fmt(Some(e.elo), 1), fmt(Some(e.error95), 1)),
    }
}

fn penta_text(p: Option<Penta>) -> String {
    p.map_or("-".into(), |p| {
        p.0.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// The standings as a plain-text table (what the command prints).
pub fn render_standings(s: &Summary) -> String {
    let mut rows = vec![[
        "rank".to_string(),
        "bot".into(),
        "games".into(),
        "W".into(),
        "D".into(),
        "L".into(),
        "score".into(),
        "Elo ± 95%".into(),
        "BT rating".into(),
    ]];
    for (i, st) in s.standings.iter().enumerate() {
        rows.push([
            (i + 1).to_string(),
            st.name.clone(),
            st.wdl.games().to_string(),
            st.wdl.wins.to_string(),
            st.wdl.draws.to_string(),
            st.wdl.losses.to_string(),
            fmt(st.wdl.score(), 3),
            elo_text(st.elo),
            fmt(st.rating, 1),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (x, &w))| {
                if c == 1 {
                    format!("{x:<w$}")
                } else {
                    format!("{x:>w$}")
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn table(out: &mut String, header: &[String], rows: &[Vec<String>]) {
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let _ = writeln!(
        out,
        "|{}|",
        header.iter().map(|_| " --- ").collect::<Vec<_>>().join("|")
    );
    for r in rows {
        let _ = writeln!(out, "| {} |", r.join(" | "));
    }
    out.push('\n');
}

fn strings<const N: usize>(a: [&str; N]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

/// The rules the run played without (`--allow-missing-rules`), per variant: its figures are those of another game.
fn missing_rules_section(o: &mut String, t: &Tournament) {
    if t.variants.iter().all(|v| v.game.missing_rules.is_empty()) {
        return;
    }
    let _ = writeln!(o, "## Missing rules\n");
    let _ = writeln!(
        o,
        "The engine does not apply these rules of the game file; the run was played without them \
         (`--allow-missing-rules`), so its figures describe a different game.\n"
    );
    let _ = writeln!(o, "| variant | missing rule | where |\n| --- | --- | --- |");
    for v in &t.variants {
        for r in &v.game.missing_rules {
            let _ = writeln!(
                o,
                "| {} | {} | {} |",
                v.title.replace('|', "\\|"),
                r.what_with_value().replace('|', "\\|"),
                r.location.replace('|', "\\|")
            );
        }
    }
    let _ = writeln!(o);
}

/// `report.md`: everything a reader wants from the run, in words and tables.
pub fn render_markdown(t: &Tournament, s: &Summary) -> String {
    let c = &t.config;
    let mut o = String::new();
    let _ = writeln!(o, "# Tournament report\n");
    let variants: Vec<&str> = s.variants.iter().map(|v| v.title.as_str()).collect();
    let _ = writeln!(
        o,
        "Game `{}` ({}), {} bots, {} format, seed {}, {} games per encounter, {} random opening plies, \
         ply cap {}; dagaz {}.\n",
        c.game,
        variants.join(", "),
        s.bots.len(),
        c.format.as_str(),
        c.seed,
        c.games,
        c.opening_plies,
        c.max_plies,
        c.version
    );
    let _ = writeln!(
        o,
        "{} of {} scheduled games played{}.\n",
        s.games,
        s.scheduled,
        if s.sprt.as_ref().is_some_and(|x| x.stop_pair.is_some()) {
            " (stopped by the SPRT)"
        } else if s.complete {
            ""
        } else {
            " (the run is not finished: resume it with `--resume`)"
        }
    );
    missing_rules_section(&mut o, t);

    let _ = writeln!(o, "## Standings\n");
    let _ = writeln!(
        o,
        "Elo against the field with its 95% interval ({}); BT: Bradley-Terry rating, the mean at 0 (with one virtual draw per bot against a reference player, so that it is finite even for a bot that won or lost everything); \
         LOS: likelihood of superiority of the row's bot over the column's.\n",
        if s.standings.iter().any(|x| x.penta.is_some()) {
            "pentanomial, from pairs of games with seats swapped"
        } else {
            "trinomial"
        }
    );
    let mut header = strings([
        "rank",
        "bot",
        "games",
        "W",
        "D",
        "L",
        "score",
        "Elo ± 95%",
        "BT",
    ]);
    header.push("pairs 0 ¼ ½ ¾ 1".into());
    header.extend(s.bots.iter().map(|b| format!("LOS vs {b}")));
    let rows: Vec<Vec<String>> = s
        .standings
        .iter()
        .enumerate()
        .map(|(i, st)| {
            let mut r = vec![
                (i + 1).to_string(),
                st.name.clone(),
                st.wdl.games().to_string(),
                st.wdl.wins.to_string(),
                st.wdl.draws.to_string(),
                st.wdl.losses.to_string(),
                fmt(st.wdl.score(), 3),
                elo_text(st.elo),
                fmt(st.rating, 1),
                penta_text(st.penta),
            ];
            r.extend(st.los.iter().map(|l| fmt(*l, 3)));
            r
        })
        .collect();
    table(&mut o, &header, &rows);

    let _ = writeln!(o, "## Pairwise\n");
    let rows: Vec<Vec<String>> = s
        .head2head
        .iter()
        .map(|h| {
            vec![
                format!("{} vs {}", s.bots[h.a], s.bots[h.b]),
                h.wdl.games().to_string(),
                format!("{}-{}-{}", h.wdl.wins, h.wdl.draws, h.wdl.losses),
                fmt(h.wdl.score(), 3),
                elo_text(h.elo),
                fmt(h.elo.map(|e| e.los), 3),
                penta_text(h.penta),
            ]
        })
        .collect();
    table(
        &mut o,
        &strings([
            "match",
            "games",
            "W-D-L",
            "score",
            "Elo ± 95%",
            "LOS",
            "pairs 0 ¼ ½ ¾ 1",
        ]),
        &rows,
    );

    if let Some(sp) = &s.sprt {
        let _ = writeln!(o, "## SPRT\n");
        let verdict = match sp.decision {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
            SprtDecision::Continue => "no decision within the games scheduled",
        };
        let _ = writeln!(
            o,
            "H0: Elo = {} against H1: Elo = {} ({} over {}), α = {}, β = {}: LLR {} after {} pairs, \
             bounds [{}, {}]: **{verdict}**.\n",
            sp.config.elo0,
            sp.config.elo1,
            s.bots[0],
            s.bots.get(1).map_or("", |b| b.as_str()),
            sp.config.alpha,
            sp.config.beta,
            fmt(Some(sp.llr), 3),
            sp.pairs,
            fmt(Some(sp.lower), 3),
            fmt(Some(sp.upper), 3),
        );
    }

    let _ = writeln!(o, "## Results per end condition\n");
    for v in &s.variants {
        if s.variants.len() > 1 {
            let _ = writeln!(o, "### {}\n", v.title);
        }
        let mut header = strings(["end type", "name", "priority", "games"]);
        header.extend(v.seats.iter().map(|p| format!("{p} wins")));
        let rows: Vec<Vec<String>> = v
            .ends
            .iter()
            .map(|((ty, name, pr), (games, wins))| {
                let mut r = vec![ty.clone(), name.clone(), pr.to_string(), games.to_string()];
                r.extend(wins.iter().map(|w| w.to_string()));
                r
            })
            .collect();
        table(&mut o, &header, &rows);
    }
    let _ = writeln!(o, "By bot and seat:\n");
    let multi = s.variants.len() > 1;
    let rows: Vec<Vec<String>> = s
        .ends
        .iter()
        .map(|e| {
            let v = &s.variants[e.variant];
            let seat = v.seats.get(e.seat).cloned().unwrap_or_default();
            vec![
                s.bots[e.bot].clone(),
                if multi {
                    format!("{seat} ({})", v.title)
                } else {
                    seat
                },
                e.end_type.clone(),
                e.end_name.clone(),
                e.end_priority.to_string(),
                e.wins.to_string(),
                e.draws.to_string(),
                e.losses.to_string(),
            ]
        })
        .collect();
    table(
        &mut o,
        &strings([
            "bot", "seat", "end type", "name", "priority", "wins", "draws", "losses",
        ]),
        &rows,
    );

    let _ = writeln!(o, "## The rule set\n");
    let _ = writeln!(
        o,
        "Over all games of each variant, whichever bots played them. Advantage: the first seat's mean \
         score (½ is fair) with its 95% interval; balance: 1 − the largest gap between two seats' mean \
         scores; completion: share of games with a winner; drawishness: share of draws by the rules; \
         timeouts: share of games stopped by the ply cap; outcome uniformity: 1 − the mean variance of the \
         seats' results; branching: mean legal moves per position.\n"
    );
    let mut header = vec!["measure".to_string()];
    header.extend(s.variants.iter().map(|v| v.title.clone()));
    let m = |f: &dyn Fn(&RuleSetMeasures) -> String| -> Vec<String> {
        s.variants
            .iter()
            .map(|v| v.measures.as_ref().map_or("-".into(), f))
            .collect()
    };
    let mut rows: Vec<Vec<String>> = vec![];
    let mut row = |name: &str, vals: Vec<String>| {
        let mut r = vec![name.to_string()];
        r.extend(vals);
        rows.push(r);
    };
    row(
        "games",
        s.variants.iter().map(|v| v.games.to_string()).collect(),
    );
    row(
        "first-player advantage",
        m(&|x| {
            format!(
                "{} ± {}",
                fmt(Some(x.first_player_advantage.value), 3),
                fmt(Some(x.first_player_advantage.error95), 3)
            )
        }),
    );
    row("balance", m(&|x| fmt(Some(x.balance), 3)));
    row("completion", m(&|x| fmt(Some(x.completion), 3)));
    row("drawishness", m(&|x| fmt(Some(x.drawishness), 3)));
    row("timeouts", m(&|x| fmt(Some(x.timeouts), 3)));
    row(
        "outcome uniformity",
        m(&|x| fmt(Some(x.outcome_uniformity), 3)),
    );
    row("plies: mean", m(&|x| fmt(Some(x.duration.mean), 1)));
    row(
        "plies: min / q1 / median / q3 / max",
        m(&|x| {
            let d = &x.duration;
            [d.min, d.q1, d.median, d.q3, d.max]
                .iter()
                .map(|v| fmt(Some(*v), 1))
                .collect::<Vec<_>>()
                .join(" / ")
        }),
    );
    row(
        "branching factor",
        s.variants.iter().map(|v| fmt(v.branching, 2)).collect(),
    );
    row(
        "bot errors",
        s.variants
            .iter()
            .map(|v| v.bot_errors.to_string())
            .collect(),
    );
    row(
        "engine errors",
        s.variants
            .iter()
            .map(|v| v.engine_errors.to_string())
            .collect(),
    );
    table(&mut o, &header, &rows);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::config::{BotConfig, TournamentConfig};

    fn game(id: u64, bots: [&str; 2], results: [i8; 2], end: &str) -> GameRecord {
        GameRecord {
            game_id: id,
            pair_id: id / 2,
            seed: 1,
            variant: "Breakthrough".into(),
            bots: bots.map(String::from).to_vec(),
            results: if end == ENGINE_ERROR {
                vec![]
            } else {
                results.to_vec()
            },
            end_type: end.into(),
            end_name: end.into(),
            end_priority: 0,
            plies: 10 * (id as u32 + 1),
            opening_plies: 0,
            legal_moves: 100 * (id + 1),
            error: String::new(),
            moves: vec![],
        }
    }

    #[test]
    fn standings_pairs_and_measures_from_records() {
        let t = TournamentConfig {
            bots: vec![
                BotConfig::Name("random:name=a".into()),
                BotConfig::Name("random:name=b".into()),
            ],
            ..TournamentConfig::default()
        }
        .load()
        .unwrap();
        let records = vec![
            game(0, ["a", "b"], [1, -1], "absolute-config"),
            game(1, ["b", "a"], [-1, 1], "absolute-config"),
            game(2, ["a", "b"], [1, -1], "absolute-config"),
            game(3, ["b", "a"], [0, 0], MOVE_LIMIT),
            // A pair with an engine error counts for neither the standings nor the pairs.
            game(4, ["a", "b"], [0, 0], ENGINE_ERROR),
            game(5, ["b", "a"], [1, -1], BOT_ERROR),
        ];
        let s = summarize(&t, &records, None, true);
        let a = &s.standings[0];
        assert_eq!(a.name, "a");
        assert_eq!(a.wdl, Wdl::new(3, 1, 1));
        // Pairs: (1, 1) → 1, (1, ½) → ¾; the pair with the engine error is left out.
        assert_eq!(a.penta, Some(Penta([0, 0, 0, 1, 1])));
        assert_eq!(s.standings[1].penta, Some(Penta([1, 1, 0, 0, 0])));
        assert_eq!(a.los[0], None);
        assert!(a.los[1].unwrap() > 0.9);
        assert_eq!(s.head2head.len(), 1);
        assert_eq!(s.head2head[0].wdl, Wdl::new(3, 1, 1));
        let v = &s.variants[0];
        assert_eq!((v.games, v.engine_errors, v.bot_errors), (6, 1, 1));
        let m = v.measures.as_ref().unwrap();
        assert_eq!(m.games, 5);
        assert!((m.timeouts - 0.2).abs() < 1e-12);
        // First seat: wins in games 0, 2, 5; a loss in 1; a draw in 3 → (3 + ½)/5.
        assert!((m.first_player_advantage.value - 0.7).abs() < 1e-12);
        // Branching: legal moves over plies, engine-error game included (its moves were seen).
        assert!((v.branching.unwrap() - 10.0).abs() < 1e-12);
        // End conditions per bot and seat.
        let a_first: Vec<_> = s
            .ends
            .iter()
            .filter(|e| e.bot == 0 && e.seat == 0)
            .map(|e| (e.end_type.as_str(), e.wins, e.draws, e.losses))
            .collect();
        assert_eq!(a_first, [("absolute-config", 2, 0, 0)]);
        let md = render_markdown(&t, &s);
        assert!(md.contains("| a vs b | 5 | 3-1-1 |"), "{md}");
        assert!(
            md.contains("| move-limit | move-limit | 0 | 1 | 0 | 0 |"),
            "{md}"
        );
    }
}
