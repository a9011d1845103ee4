//! From records to numbers and words: a [`Tally`] counts the game records one at a time, in any order, and
//! gives every statistic of a run (standings, the pairwise table, results per end condition, the measures of
//! each variant's rule set) from those counts alone ([`summarize`] does it for records in memory);
//! [`render_markdown`] and [`render_standings`] show them. The CSV forms are in `writers`.

use super::config::Tournament;
use super::record::{GameRecord, BOT_ERROR, ENGINE_ERROR, MOVE_LIMIT};
use super::schedule::Schedule;
use super::sprt::SprtStatus;
use super::stats::{
    bradley_terry, BtOptions, EloEstimate, EndKind, Outcome, Penta, RuleSetMeasures, RuleSetTally,
    SprtDecision, Wdl,
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
    /// With `--record-evals`, the mean over games of each of
    /// [`crate::tournament::record::EVAL_COLUMNS`] (the last four over games with a winner).
    pub evals: [Option<f64>; 5],
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
        BOT_ERROR | super::adjudicate::ADJUDICATED_DRAW | super::adjudicate::ADJUDICATED_RESIGN => {
            EndKind::Adjudicated
        }
        _ => EndKind::Natural,
    }
}

/// Computes every statistic from the records (in any order: see [`Tally`]).
pub fn summarize(
    t: &Tournament,
    records: &[GameRecord],
    sprt: Option<SprtStatus>,
    complete: bool,
) -> Summary {
    let mut tally = Tally::new(t);
    for g in records {
        tally.add_game(t, g);
    }
    tally.summary(t, sprt, complete)
}

/// One game of a pair waiting for the other (two-player games).
#[derive(Clone, Debug)]
struct PairGame {
    game_id: u64,
    rated: bool,
    /// Bot index per seat (`None` for a name not in the run).
    bots: Vec<Option<usize>>,
    results: Vec<i8>,
}

impl PairGame {
    /// The game's outcome for bot `x` (a loss if it did not play), as [`super::sprt::outcome_of`] gives it.
    fn outcome(&self, x: usize) -> Outcome {
        match self
            .bots
            .iter()
            .position(|&b| b == Some(x))
            .map(|i| self.results[i])
        {
            Some(r) if r > 0 => Outcome::Win,
            Some(0) => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }
}

/// One variant's counts.
#[derive(Clone, Debug, Default)]
struct VariantTally {
    games: u64,
    engine_errors: u64,
    bot_errors: u64,
    plies: u64,
    legal_moves: u64,
    rule_set: RuleSetTally,
    ends: BTreeMap<(String, String, i32), (u64, Vec<u64>)>,
    /// Per column of [`crate::tournament::record::EVAL_COLUMNS`]: sum and count of the games that have it.
    evals: [(f64, u64); 5],
}

/// Bot, variant, seat, end type, end name, end priority.
type EndKey = (usize, usize, usize, String, String, i32);

/// Every statistic of a run gathered one game at a time: counts only, so that its memory does not grow
/// with the number of games, and the result does not depend on the order the games come in (for the
/// pairs, two games of a pair wait for each other; fed in game-id order, at most one pair waits).
pub struct Tally {
    index: BTreeMap<String, usize>,
    two_player: bool,
    games: u64,
    wdl: Vec<Wdl>,
    h2h: Vec<Vec<Wdl>>,
    penta_field: Vec<Penta>,
    penta_h2h: Vec<Vec<Penta>>,
    /// Pairs with one game so far, by pair id.
    waiting: std::collections::HashMap<u64, PairGame>,
    /// (bot, variant, seat, end type, end name, priority) → wins, draws, losses.
    ends: BTreeMap<EndKey, [u64; 3]>,
    variants: Vec<VariantTally>,
}

impl Tally {
    pub fn new(t: &Tournament) -> Tally {
        let n = t.bots.len();
        Tally {
            index: t
                .bots
                .iter()
                .enumerate()
                .map(|(i, b)| (b.name.clone(), i))
                .collect(),
            two_player: t.variants.iter().all(|v| v.seats().len() == 2),
            games: 0,
            wdl: vec![Wdl::default(); n],
            h2h: vec![vec![Wdl::default(); n]; n],
            penta_field: vec![Penta::default(); n],
            penta_h2h: vec![vec![Penta::default(); n]; n],
            waiting: Default::default(),
            ends: BTreeMap::new(),
            variants: vec![VariantTally::default(); t.variants.len()],
        }
    }

    /// Counts one game. `t` must be the tournament the tally was made for.
    pub fn add_game(&mut self, t: &Tournament, g: &GameRecord) {
        self.games += 1;
        let bot_of = |name: &str| self.index.get(name).copied();
        let bots: Vec<Option<usize>> = g.bots.iter().map(|b| bot_of(b)).collect();
        let rated = g.is_rated();
        let variant = t.variants.iter().position(|v| v.title == g.variant);
        if rated {
            for (i, &a) in bots.iter().enumerate() {
                let Some(a) = a else { continue };
                self.wdl[a].add(seat_outcome(g.results[i]));
                for (j, &c) in bots.iter().enumerate() {
                    if let (Some(c), true) = (c, i != j) {
                        self.h2h[a][c].add(seat_outcome(g.results[i] - g.results[j]));
                    }
                }
            }
            for (i, &a) in bots.iter().enumerate() {
                let Some(a) = a else { continue };
                let k = (
                    a,
                    variant.unwrap_or(0),
                    i,
                    g.end_type.clone(),
                    g.end_name.clone(),
                    g.end_priority,
                );
                let e = self.ends.entry(k).or_default();
                e[match seat_outcome(g.results[i]) {
                    Outcome::Win => 0,
                    Outcome::Draw => 1,
                    Outcome::Loss => 2,
                }] += 1;
            }
        }
        if self.two_player {
            let this = PairGame {
                game_id: g.game_id,
                rated,
                bots: bots.clone(),
                results: g.results.clone(),
            };
            match self.waiting.remove(&g.pair_id) {
                None => {
                    self.waiting.insert(g.pair_id, this);
                }
                Some(other) => {
                    let (first, second) = if other.game_id <= this.game_id {
                        (other, this)
                    } else {
                        (this, other)
                    };
                    self.add_pair(&first, &second);
                }
            }
        }
        if let Some(v) = variant {
            let seats = t.variants[v].seats().len();
            let vt = &mut self.variants[v];
            vt.games += 1;
            vt.plies += g.plies as u64;
            vt.legal_moves += g.legal_moves;
            for (i, e) in vt.evals.iter_mut().enumerate() {
                if let Some(x) = g.eval(i) {
                    e.0 += x;
                    e.1 += 1;
                }
            }
            if g.end_type == ENGINE_ERROR {
                vt.engine_errors += 1;
            }
            if g.end_type == BOT_ERROR {
                vt.bot_errors += 1;
            }
            if rated {
                let results: Vec<f64> = g.results.iter().map(|&r| r as f64).collect();
                vt.rule_set.add(&results, g.plies, end_kind(g));
                let e = vt
                    .ends
                    .entry((g.end_type.clone(), g.end_name.clone(), g.end_priority))
                    .or_insert_with(|| (0, vec![0; seats]));
                e.0 += 1;
                for (i, &r) in g.results.iter().enumerate() {
                    if r > 0 && i < e.1.len() {
                        e.1[i] += 1;
                    }
                }
            }
        }
    }

    /// A pair whose two games are both rated counts for both bots of its first game.
    fn add_pair(&mut self, first: &PairGame, second: &PairGame) {
        if !(first.rated && second.rated) {
            return;
        }
        let (Some(Some(a)), Some(Some(b))) = (first.bots.first(), first.bots.get(1)) else {
            return;
        };
        let (a, b) = (*a, *b);
        for (x, y) in [(a, b), (b, a)] {
            let (o1, o2) = (first.outcome(x), second.outcome(x));
            self.penta_field[x].add_pair(o1, o2);
            self.penta_h2h[x][y].add_pair(o1, o2);
        }
    }

    /// The statistics of the games counted so far.
    pub fn summary(&self, t: &Tournament, sprt: Option<SprtStatus>, complete: bool) -> Summary {
        let names: Vec<String> = t.bots.iter().map(|b| b.name.clone()).collect();
        let n = names.len();
        let two_player = self.two_player;
        let (wdl, h2h, penta_field, penta_h2h) =
            (&self.wdl, &self.h2h, &self.penta_field, &self.penta_h2h);
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

        let ends = self
            .ends
            .iter()
            .map(
                |((bot, variant, seat, end_type, end_name, end_priority), c)| EndRow {
                    bot: *bot,
                    variant: *variant,
                    seat: *seat,
                    end_type: end_type.clone(),
                    end_name: end_name.clone(),
                    end_priority: *end_priority,
                    wins: c[0],
                    draws: c[1],
                    losses: c[2],
                },
            )
            .collect();
        let variants = t
            .variants
            .iter()
            .zip(&self.variants)
            .map(|(v, vt)| VariantSummary {
                title: v.title.clone(),
                seats: v
                    .seats()
                    .iter()
                    .map(|&p| v.game.players[p].name.clone())
                    .collect(),
                games: vt.games as usize,
                engine_errors: vt.engine_errors as usize,
                bot_errors: vt.bot_errors as usize,
                measures: vt.rule_set.measures(),
                branching: (vt.plies > 0).then(|| vt.legal_moves as f64 / vt.plies as f64),
                ends: vt.ends.clone(),
                evals: vt.evals.map(|(sum, n)| (n > 0).then(|| sum / n as f64)),
            })
            .collect();
        let scheduled = Schedule::new(
            t.config.format,
            n,
            &t.variants
                .iter()
                .map(|v| v.seats().len())
                .collect::<Vec<_>>(),
            t.config.games,
        )
        .map_or(0, |s| s.len() as usize);
        Summary {
            bots: names,
            standings,
            head2head,
            ends,
            variants,
            sprt,
            games: self.games as usize,
            scheduled,
            complete,
        }
    }
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
        Some(e) => plus_minus(e.elo, e.error95, 1),
    }
}

/// `value ± error`, with the error spelled `n/a` where the games cannot give one: no spread among them (one
/// pair, or every pair alike: an interval of width 0 would claim certainty) or an unbounded interval.
pub fn plus_minus(value: f64, error: f64, decimals: usize) -> String {
    let e = if error.is_finite() && error > 0.0 {
        fmt(Some(error), decimals)
    } else {
        "n/a".into()
    };
    format!("{} ± {e}", fmt(Some(value), decimals))
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
            plus_minus(
                x.first_player_advantage.value,
                x.first_player_advantage.error95,
                3,
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
    if s.variants.iter().any(|v| v.evals[0].is_some()) {
        let e = |i: usize, d: usize| -> Vec<String> {
            s.variants.iter().map(|v| fmt(v.evals[i], d)).collect()
        };
        row("lead change (--record-evals)", e(0, 3));
        row("drama: mean gap behind the leader", e(1, 3));
        row("drama: positions behind per game", e(2, 1));
        row("decisiveness threshold", e(3, 3));
        row("decisiveness moves", e(4, 3));
    }
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
    let verdicts = variant_verdicts(s);
    if !verdicts.is_empty() {
        let _ = writeln!(o, "\n## Do the variants differ?\n");
        let _ = writeln!(
            o,
            "Each pair of variants compared on first-player advantage (Welch's test on the mean score of the \
             first seat), draw rate and decisiveness (two-proportion z-tests on the shares of draws by the \
             rules and of games with a winner) and length (Welch's test on the mean plies), each with its \
             two-sided p-value from the normal approximation; a difference is called at p < {VERDICT_ALPHA} \
             for that measure alone (no correction for the four tests).\n"
        );
        for v in verdicts {
            let _ = writeln!(o, "* {v}");
        }
    }
    o
}

/// The level at which a comparison of two variants calls a difference.
pub const VERDICT_ALPHA: f64 = 0.05;

/// `p = 0.012`, `p < 0.001`.
fn p_text(p: f64) -> String {
    if p < 0.001 {
        "p < 0.001".into()
    } else {
        format!("p = {p:.3}")
    }
}

/// One line per pair of variants with measures: each measure side by side with its p-value, and a verdict.
pub fn variant_verdicts(s: &Summary) -> Vec<String> {
    let with: Vec<(&str, &RuleSetMeasures)> = s
        .variants
        .iter()
        .filter_map(|v| v.measures.as_ref().map(|m| (v.title.as_str(), m)))
        .collect();
    let mut out = vec![];
    for i in 0..with.len() {
        for j in i + 1..with.len() {
            let ((ta, a), (tb, b)) = (with[i], with[j]);
            let cmp = crate::tournament::stats::compare_rule_sets(a, b);
            let parts: Vec<String> = cmp
                .iter()
                .map(|c| {
                    let (x, y) = if c.measure == "length" {
                        (format!("{:.1}", c.a), format!("{:.1} plies", c.b))
                    } else if c.measure == "first-player advantage" {
                        (format!("{:.3}", c.a), format!("{:.3}", c.b))
                    } else {
                        (
                            format!("{:.1}%", 100.0 * c.a),
                            format!("{:.1}%", 100.0 * c.b),
                        )
                    };
                    format!("{} {x} vs {y} ({})", c.measure, p_text(c.p))
                })
                .collect();
            let differ: Vec<&str> = cmp
                .iter()
                .filter(|c| c.p < VERDICT_ALPHA)
                .map(|c| c.measure)
                .collect();
            let verdict = if differ.is_empty() {
                format!(
                    "no difference found at the 5% level ({} and {} games)",
                    a.games, b.games
                )
            } else {
                format!("they differ in {}", differ.join(", "))
            };
            out.push(format!(
                "**{ta}** vs **{tb}**: {}: {verdict}.",
                parts.join("; ")
            ));
        }
    }
    out
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
            evals: Default::default(),
            error: String::new(),
            start: String::new(),
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
        // Counted in any order (games finish in any order), the statistics are the same.
        for order in [[5, 4, 3, 2, 1, 0], [1, 3, 5, 0, 2, 4]] {
            let shuffled: Vec<GameRecord> = order.iter().map(|&i| records[i].clone()).collect();
            assert_eq!(summarize(&t, &shuffled, None, true), s, "{order:?}");
        }
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
