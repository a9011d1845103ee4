//! The tournament runner's statistics, kept apart from the runner itself.
//!
//! [`stats`] holds the numbers a tournament reports, as pure functions of result counts with no
//! dependency on the rest of the crate: the score and Elo difference of two bots with a 95% interval
//! and the likelihood of superiority, from trinomial (win/draw/loss) or pentanomial (game-pair)
//! counts; the generalized sequential probability ratio test (GSPRT) that stops a match early; Bradley-Terry
//! ratings for more than two players; and the measures of a rule set (first-player advantage,
//! balance, completion, drawishness, timeouts, outcome uniformity, duration). The formulas are
//! those of the tournament spec (`shared/spec/tournament.md`).

pub mod stats;
