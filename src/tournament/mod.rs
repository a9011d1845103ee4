//! The tournament runner: bots play seeded games of a rule set in parallel, and every statistic is computed
//! from the records of those games.
//!
//! The pipeline, one module per step:
//! * [`rules`]: a variant's compiled game and its engine, built once per run and shared by every game;
//! * [`config`]: the settings (command line, a TOML file, or a run's `config.toml`), compiled into a
//!   [`Tournament`] with its variants and bot factories;
//! * [`schedule`]: which bots play which seats in which game, with explicit game and pair ids;
//! * [`runner`]: plays the schedule on a rayon pool, one [`GameRecord`] per game, each game's randomness from
//!   the run seed and its ids alone; catches bots that panic, stall or answer nonsense; stops a match by the
//!   SPRT; resumes a stopped run;
//! * `progress`: live progress on standard error (games, rate, ETA, leaders, the SPRT's LLR);
//! * [`record`]: [`GameRecord`] and [`GameTiming`] and their CSV rows;
//! * [`stats`]: the numbers (Elo, pentanomial, GSPRT, Bradley-Terry, the measures of a rule set), pure
//!   functions of counts;
//! * [`sprt`]: the state of a match's SPRT and its tracker, which the runner keeps and the reports read;
//! * [`report`]: every statistic of a run counted from its records one at a time ([`Summary`]), and
//!   `report.md`;
//! * [`writers`]: the run's files in `results/<run>/` ([`records_out`]: the per-game ones; [`text`]: the CSV
//!   line and the calendar date they share);
//! * [`html`]: `report.html`, the run's charts and a few sample games stepped through on the game's board;
//! * [`shards`]: what the shards of a run share: the build, the SPRT stop marker, `dagaz status`.
//!
//! Each module imports only modules above it in this order: `stats`, `text`; `rules`; `config`; `schedule`, `record`,
//! `sprt`; `report`; `records_out`; `writers`; `html`; `progress`; `shards`; `runner`; `merge`. So records feed
//! statistics, and statistics feed writers, never the other way.
//!
//! ```no_run
//! use dagaz::tournament::{config::TournamentConfig, runner::{run, Progress, RunOptions}};
//! let t = TournamentConfig::default().load().unwrap();
//! let opts = RunOptions { out: "results/example".into(), jobs: 2, progress: Progress::None, resume: false };
//! let outcome = run(&t, &opts).unwrap();
//! print!("{}", dagaz::tournament::report::render_standings(&outcome.summary));
//! ```

pub mod adjudicate;
pub mod budget;
pub mod clock;
pub mod config;
pub mod html;
pub mod komi;
pub mod merge;
pub mod openings;
mod progress;
pub mod record;
pub mod records_out;
pub mod report;
pub mod rules;
pub mod runner;
pub mod schedule;
pub mod shards;
pub mod sprt;
pub mod stats;
pub mod text;
pub mod writers;

pub use config::{BotEntry, Tournament, TournamentConfig};
pub use record::{GameRecord, GameTiming, RowError};
pub use report::Summary;
pub use runner::{run, Progress, RunOptions, RunOutcome};
