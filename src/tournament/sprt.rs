//! The state of a sequential probability ratio test over a match's pairs of games: what the runner keeps up to
//! date and the statistics report. Below both, so that neither imports the other for it.

use super::config::SprtConfig;
use super::stats::{Penta, SprtDecision};

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
