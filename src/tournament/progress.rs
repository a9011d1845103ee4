//! Live progress on standard error while a run plays: games done of the total, games per second, the time left,
//! the leading bots and, for a match stopped by the SPRT, its log-likelihood ratio between its bounds.
//!
//! On a terminal a bar is redrawn about every second, whether or not a game has just ended (a chess game can
//! take minutes); otherwise a plain line is printed every 10 seconds, and once at the end. The figures are counts
//! of the games filed so far: nothing is kept per game.

use super::record::GameRecord;
use std::time::{Duration, Instant};

/// How progress is shown on standard error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A bar with games done, rate and ETA (for a terminal).
    Bar,
    /// A plain line now and then (for a log file).
    Lines,
    /// Nothing.
    None,
}

/// How often a terminal's bar is redrawn.
const BAR_EVERY: Duration = Duration::from_secs(1);
/// How often a line is printed when standard error is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(10);
/// How many bots the progress names.
const LEADERS: usize = 3;

/// Per bot: its name, points (a win 1, a draw ½) and rated games, for the games of this invocation.
#[derive(Clone, Debug, Default)]
struct Score {
    name: String,
    points: f64,
    games: u64,
}

/// The SPRT's state as the progress shows it.
#[derive(Clone, Copy, Debug)]
struct SprtView {
    llr: f64,
    lower: f64,
    upper: f64,
    pairs: u64,
}

/// Progress of a run on standard error.
pub(crate) struct ProgressView {
    mode: Progress,
    bar: Option<indicatif::ProgressBar>,
    done: u64,
    total: u64,
    start: Instant,
    /// Games already done when this invocation started (not part of the rate or of the standings).
    base: u64,
    last_draw: Instant,
    /// `done` when the last line was printed (no line twice).
    printed: Option<u64>,
    scores: Vec<Score>,
    sprt: Option<SprtView>,
}

impl ProgressView {
    pub(crate) fn new(mode: Progress, done: u64, total: u64) -> ProgressView {
        let bar = (mode == Progress::Bar).then(|| {
            let b = indicatif::ProgressBar::with_draw_target(
                Some(total),
                indicatif::ProgressDrawTarget::stderr(),
            );
            b.set_style(
                indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.set_position(done);
            b
        });
        ProgressView {
            mode,
            bar,
            done,
            total,
            start: Instant::now(),
            base: done,
            last_draw: Instant::now(),
            printed: None,
            scores: vec![],
            sprt: None,
        }
    }

    pub(crate) fn set_total(&mut self, total: u64) {
        self.total = total;
        if let Some(b) = &self.bar {
            b.set_length(total);
        }
    }

    /// A game was filed.
    pub(crate) fn tick(&mut self, rec: &GameRecord) {
        self.done += 1;
        if rec.is_rated() {
            for (bot, &r) in rec.bots.iter().zip(&rec.results) {
                let i = match self.scores.iter().position(|s| &s.name == bot) {
                    Some(i) => i,
                    None => {
                        self.scores.push(Score {
                            name: bot.clone(),
                            ..Score::default()
                        });
                        self.scores.len() - 1
                    }
                };
                let s = &mut self.scores[i];
                s.games += 1;
                s.points += (r.signum() as f64 + 1.0) / 2.0;
            }
        }
        if let Some(b) = &self.bar {
            b.set_position(self.done);
        }
    }

    /// The SPRT's state after the last complete pair.
    pub(crate) fn set_sprt(&mut self, llr: f64, lower: f64, upper: f64, pairs: u64) {
        self.sprt = Some(SprtView {
            llr,
            lower,
            upper,
            pairs,
        });
    }

    /// Called by the clock (several times a second): redraws the bar, or prints a line when one is due.
    pub(crate) fn refresh(&mut self) {
        match self.mode {
            Progress::Bar if self.last_draw.elapsed() >= BAR_EVERY => {
                self.last_draw = Instant::now();
                if let Some(b) = &self.bar {
                    b.set_message(self.status());
                }
            }
            Progress::Lines if self.last_draw.elapsed() >= LINE_EVERY => {
                self.last_draw = Instant::now();
                self.line();
            }
            _ => {}
        }
    }

    fn line(&mut self) {
        if self.printed == Some(self.done) && self.done > self.base {
            return;
        }
        self.printed = Some(self.done);
        // Games played past an SPRT's decision are dropped: the count stops at the total.
        eprintln!(
            "tournament: {}/{} games, {}",
            self.done.min(self.total),
            self.total,
            self.status()
        );
    }

    /// Rate, time left, leaders and the SPRT, as one line.
    pub(crate) fn status(&self) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let played = self.done - self.base;
        let rate = played as f64 / secs;
        let mut out = format!("{rate:.1} games/s");
        if let Some(eta) = self.eta(rate) {
            out.push_str(&format!(", ETA {}", duration_text(eta)));
        }
        let mut by_score: Vec<&Score> = self.scores.iter().filter(|s| s.games > 0).collect();
        by_score.sort_by(|a, b| {
            let (x, y) = (a.points / a.games as f64, b.points / b.games as f64);
            y.total_cmp(&x).then_with(|| a.name.cmp(&b.name))
        });
        if !by_score.is_empty() {
            let lead: Vec<String> = by_score
                .iter()
                .take(LEADERS)
                .map(|s| {
                    format!(
                        "{} {:.1}% of {}",
                        s.name,
                        100.0 * s.points / s.games as f64,
                        s.games
                    )
                })
                .collect();
            out.push_str(&format!(", leading: {}", lead.join(", ")));
        }
        if let Some(s) = self.sprt {
            out.push_str(&format!(
                ", LLR {:.2} in [{:.2}, {:.2}] after {} pairs",
                s.llr, s.lower, s.upper, s.pairs
            ));
        }
        out
    }

    /// Seconds left. Without an SPRT, the games left at the current rate. With one, the fewer of that and the
    /// games the LLR needs to reach the bound it is heading for at its mean drift per pair so far (an estimate:
    /// the LLR is a random walk).
    fn eta(&self, rate: f64) -> Option<f64> {
        if rate <= 0.0 {
            return None;
        }
        let mut left = self.total.saturating_sub(self.done) as f64;
        if let Some(s) = self.sprt {
            if s.pairs > 0 && s.llr.is_finite() && s.llr != 0.0 {
                let drift = s.llr / s.pairs as f64;
                let bound = if drift > 0.0 { s.upper } else { s.lower };
                let pairs_left = ((bound - s.llr) / drift).max(0.0);
                let games_per_pair = self.done as f64 / s.pairs as f64;
                left = left.min(pairs_left * games_per_pair);
            }
        }
        Some(left / rate)
    }

    pub(crate) fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if self.mode == Progress::Lines {
            self.line();
        }
    }
}

/// `42 s`, `3 min 20 s`, `2 h 05 min`.
fn duration_text(secs: f64) -> String {
    let s = secs.round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, s % 3600 / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(bots: [&str; 2], results: [i8; 2]) -> GameRecord {
        GameRecord {
            bots: bots.iter().map(|b| b.to_string()).collect(),
            results: results.to_vec(),
            end_type: "stalemated".into(),
            ..GameRecord::default()
        }
    }

    #[test]
    fn the_status_names_the_leaders_with_their_scores_and_the_sprt() {
        let mut p = ProgressView::new(Progress::None, 0, 10);
        p.tick(&game(["a", "b"], [1, -1]));
        p.tick(&game(["b", "a"], [0, 0]));
        p.tick(&game(["c", "b"], [1, -1]));
        p.set_sprt(1.5, -2.94, 2.94, 1);
        let s = p.status();
        // a: 1.5 of 2 = 75%; b: 0.5 of 3 = 16.7%; c: 1 of 1 = 100%.
        assert!(
            s.contains("leading: c 100.0% of 1, a 75.0% of 2, b 16.7% of 3"),
            "{s}"
        );
        assert!(s.contains("LLR 1.50 in [-2.94, 2.94] after 1 pairs"), "{s}");
    }

    #[test]
    fn the_eta_of_an_sprt_follows_the_llrs_drift() {
        let mut p = ProgressView::new(Progress::None, 0, 1000);
        for _ in 0..10 {
            p.tick(&game(["a", "b"], [1, -1]));
        }
        // 10 games in 5 pairs, LLR 1.0: drift 0.2 a pair, 5 more pairs to 2.0, 10 games; at 2 games/s, 5 s.
        p.set_sprt(1.0, -2.0, 2.0, 5);
        assert_eq!(p.eta(2.0), Some(5.0));
        // Without the SPRT: 990 games left.
        p.sprt = None;
        assert_eq!(p.eta(2.0), Some(495.0));
    }

    #[test]
    fn durations_read_as_a_person_would_say_them() {
        assert_eq!(duration_text(42.4), "42 s");
        assert_eq!(duration_text(200.0), "3 min 20 s");
        assert_eq!(duration_text(7500.0), "2 h 05 min");
    }
}
