//! The state of a sequential probability ratio test over a match's pairs of games: what the runner keeps up to
//! date and the statistics report. Below both, so that neither imports the other for it.

use super::config::SprtConfig;
use super::record::GameRecord;
use super::schedule::Schedule;
use super::stats::{sprt_bounds, Outcome, Penta, SprtDecision};
use std::collections::BTreeMap;

/// The state of a sequential test.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtStatus {
    pub config: SprtConfig,
    pub lower: f64,
    pub upper: f64,
    /// Complete pairs counted, in pair order.
    pub pairs: u64,
    pub penta: Penta,
    pub llr: f64,
    pub decision: SprtDecision,
    /// The last pair counted when the test decided; later games are not part of the run.
    pub stop_pair: Option<u64>,
}

/// Counts complete pairs in pair order and decides once the LLR leaves the bounds. Deterministic: it depends
/// on which games are done, never on the order they finished in. It keeps only the games of pairs not yet
/// counted.
pub(crate) struct SprtTracker {
    pub(crate) status: SprtStatus,
    /// Pairs in the schedule.
    total_pairs: u64,
    /// Games per pair.
    group: usize,
    /// Games of pairs not counted yet: pair id → (game id, outcome for the first bot if rated).
    waiting: BTreeMap<u64, Vec<(u64, Option<Outcome>)>>,
}

impl SprtTracker {
    pub(crate) fn new(config: SprtConfig, schedule: &Schedule) -> SprtTracker {
        let b = sprt_bounds(config.alpha, config.beta).expect("validated");
        SprtTracker {
            status: SprtStatus {
                config,
                lower: b.lower,
                upper: b.upper,
                pairs: 0,
                penta: Penta::default(),
                llr: 0.0,
                decision: SprtDecision::Continue,
                stop_pair: None,
            },
            total_pairs: schedule.pairs(),
            group: schedule.group_size(0) as usize,
            waiting: BTreeMap::new(),
        }
    }

    /// Counts a finished game and the pairs that are now complete; returns the stop pair once decided.
    pub(crate) fn add(&mut self, g: &GameRecord, first_bot: &str) -> Option<u64> {
        let s = &mut self.status;
        if s.stop_pair.is_some() || g.pair_id < s.pairs {
            return s.stop_pair;
        }
        let o = g.is_rated().then(|| outcome_of(g, first_bot));
        self.waiting
            .entry(g.pair_id)
            .or_default()
            .push((g.game_id, o));
        while s.stop_pair.is_none() && s.pairs < self.total_pairs {
            match self.waiting.get(&s.pairs) {
                Some(games) if games.len() >= self.group => {}
                _ => break,
            }
            let mut games = self.waiting.remove(&s.pairs).unwrap_or_default();
            games.sort_by_key(|&(id, _)| id);
            if let [(_, Some(a)), (_, Some(b))] = games[..] {
                s.penta.add_pair(a, b);
                s.llr = s
                    .penta
                    .llr(s.config.elo0, s.config.elo1)
                    .unwrap_or(f64::NAN);
                s.decision = sprt_bounds(s.config.alpha, s.config.beta)
                    .expect("validated")
                    .decide(s.llr);
            }
            if s.decision != SprtDecision::Continue {
                s.stop_pair = Some(s.pairs);
                self.waiting.clear();
            }
            s.pairs += 1;
        }
        s.stop_pair
    }
}

/// A rated game's outcome for the bot named `bot` (a loss if it did not play).
pub fn outcome_of(g: &GameRecord, bot: &str) -> Outcome {
    match g.bots.iter().position(|b| b == bot).map(|i| g.results[i]) {
        Some(r) if r > 0 => Outcome::Win,
        Some(0) => Outcome::Draw,
        _ => Outcome::Loss,
    }
}
