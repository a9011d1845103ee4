//! What one game left behind: [`GameRecord`] (everything that does not depend on the clock) and
//! [`GameTiming`] (wall time, and time and nodes per bot). Statistics and reports read only these.
//!
//! Both have a CSV row form (`games.csv`, `timings.csv`) that reads back exactly, so that `--resume` rebuilds
//! the records of the games a stopped run had finished.

use std::collections::HashMap;

/// End type of a game stopped by the ply cap (a draw).
pub const MOVE_LIMIT: &str = "move-limit";
/// End type of a game lost by a bot that panicked, timed out, crashed or answered nonsense.
pub const BOT_ERROR: &str = "bot-error";
/// End type of a game lost on time: a bot's clock (`tc`, `st`) ran out.
pub const TIME_FORFEIT: &str = "time-forfeit";
/// End type of a game the engine could not go on with (no result; left out of the standings).
pub const ENGINE_ERROR: &str = "engine-error";

/// Separates the moves of a game in `games.csv` (a move's own notation may contain spaces; no ZRF name can
/// contain `;`, which starts a comment).
pub const MOVE_SEPARATOR: char = ';';

/// One finished game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    pub game_id: u64,
    /// The games of a pair (or, for more players, of a group of seat orders) share this id and their opening.
    pub pair_id: u64,
    /// The run seed; with the game and pair ids it determines the game.
    pub seed: u64,
    /// The variant's title.
    pub variant: String,
    /// Bot name per seat; seat 0 moves first.
    pub bots: Vec<String>,
    /// Per seat: 1 win, 0 draw, -1 loss. Empty after an engine error (no result).
    pub results: Vec<i8>,
    /// How the game ended: an end condition kind of the game (`absolute-config`, `stalemated`, ...), or
    /// [`MOVE_LIMIT`], [`BOT_ERROR`], [`ENGINE_ERROR`].
    pub end_type: String,
    /// The condition's declared name (else its kind); for a bot error, what went wrong (`panic`, `timeout`,
    /// `crashed`, `illegal`, `engine`).
    pub end_name: String,
    pub end_priority: i32,
    /// Plies played, the opening's included.
    pub plies: u32,
    /// Of those, random opening plies.
    pub opening_plies: u32,
    /// Legal moves summed over the positions where a move was chosen (branching factor = this / plies).
    pub legal_moves: u64,
    /// The error message of a bot or engine error, else empty.
    pub error: String,
    /// With `--record-evals`, Ludii's measures of the game from per-move evaluations, as written in
    /// `games.csv` (see [`EVAL_COLUMNS`]); empty otherwise, or where the game has no winner for the last three.
    pub evals: [String; 5],
    /// Where the game started when not at the game's own start (an opening book's position): the position
    /// text of `engine::position` on one line (`tournament::openings::encode_start`); empty otherwise.
    pub start: String,
    /// The moves in notation, in order.
    pub moves: Vec<String>,
}

/// The `games.csv` columns of [`GameRecord::evals`].
pub const EVAL_COLUMNS: [&str; 5] = [
    "lead_change",
    "drama",
    "drama_plies",
    "decisiveness_threshold",
    "decisiveness_moves",
];

impl GameRecord {
    /// Fills [`GameRecord::evals`] from a game's measures.
    pub fn set_evals(&mut self, m: &super::stats::GameEvalMeasures) {
        let f = |x: f64| format!("{x:.6}");
        self.evals = [
            f(m.lead_change),
            m.drama.map_or(String::new(), |(d, _)| f(d)),
            m.drama.map_or(String::new(), |(_, n)| n.to_string()),
            m.decisiveness_threshold.map_or(String::new(), f),
            m.decisiveness_moves.map_or(String::new(), f),
        ];
    }

    /// The evaluation measure of column `i` of [`EVAL_COLUMNS`], if recorded.
    pub fn eval(&self, i: usize) -> Option<f64> {
        self.evals.get(i).and_then(|v| v.parse().ok())
    }
}

impl GameRecord {
    /// Whether the game has a result (every game but an engine error).
    pub fn is_rated(&self) -> bool {
        self.end_type != ENGINE_ERROR && self.results.len() == self.bots.len()
    }

    /// The names of the winning bots, `;`-separated; empty for a draw or no result.
    pub fn winner(&self) -> String {
        if !self.is_rated() || self.results.iter().all(|&r| r == self.results[0]) {
            return String::new();
        }
        self.bots
            .iter()
            .zip(&self.results)
            .filter(|(_, &r)| r > 0)
            .map(|(b, _)| b.as_str())
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The header of `games.csv` for games of at most `seats` seats.
    pub fn header(seats: usize) -> Vec<String> {
        let mut h: Vec<String> = ["game_id", "pair_id", "seed", "variant"]
            .map(String::from)
            .to_vec();
        h.extend((1..=seats).map(|i| format!("bot_{i}")));
        h.extend((1..=seats).map(|i| format!("result_{i}")));
        h.extend(
            [
                "winner",
                "end_type",
                "end_name",
                "end_priority",
                "plies",
                "opening_plies",
                "legal_moves",
                "lead_change",
                "drama",
                "drama_plies",
                "decisiveness_threshold",
                "decisiveness_moves",
                "error",
                "start",
                "moves",
            ]
            .map(String::from),
        );
        h
    }

    /// The fields of this record's row under [`GameRecord::header`]`(seats)`.
    pub fn row(&self, seats: usize) -> Vec<String> {
        let mut r = vec![
            self.game_id.to_string(),
            self.pair_id.to_string(),
            self.seed.to_string(),
            self.variant.clone(),
        ];
        r.extend((0..seats).map(|i| self.bots.get(i).cloned().unwrap_or_default()));
        r.extend((0..seats).map(|i| {
            self.results
                .get(i)
                .map(|x| x.to_string())
                .unwrap_or_default()
        }));
        r.extend([
            self.winner(),
            self.end_type.clone(),
            self.end_name.clone(),
            self.end_priority.to_string(),
            self.plies.to_string(),
            self.opening_plies.to_string(),
            self.legal_moves.to_string(),
        ]);
        r.extend(self.evals.iter().cloned());
        r.extend([
            self.error.clone(),
            self.start.clone(),
            self.moves.join(&MOVE_SEPARATOR.to_string()),
        ]);
        r
    }

    /// Reads a row back (the inverse of [`GameRecord::row`]).
    pub fn from_row(header: &[String], row: &[String]) -> Result<GameRecord, RowError> {
        let get = Fields::new(header, row)?;
        let mut bots = vec![];
        let mut results = vec![];
        for i in 1.. {
            let Some(b) = get.opt(&format!("bot_{i}")) else {
                break;
            };
            if b.is_empty() {
                break;
            }
            bots.push(b.to_string());
            let r = get.str(&format!("result_{i}"))?;
            if !r.is_empty() {
                results.push(r.parse().map_err(|_| RowError::BadResult(r.to_string()))?);
            }
        }
        let moves = get.str("moves")?;
        Ok(GameRecord {
            game_id: get.num("game_id")?,
            pair_id: get.num("pair_id")?,
            seed: get.num("seed")?,
            variant: get.str("variant")?.to_string(),
            bots,
            results,
            end_type: get.str("end_type")?.to_string(),
            end_name: get.str("end_name")?.to_string(),
            end_priority: get.num("end_priority")?,
            plies: get.num("plies")?,
            opening_plies: get.num("opening_plies")?,
            legal_moves: get.num("legal_moves")?,
            evals: EVAL_COLUMNS.map(|c| get.opt(c).unwrap_or("").to_string()),
            error: get.str("error")?.to_string(),
            // Files written before the column existed have none.
            start: get.opt("start").unwrap_or("").to_string(),
            moves: if moves.is_empty() {
                vec![]
            } else {
                moves.split(MOVE_SEPARATOR).map(String::from).collect()
            },
        })
    }
}

/// The clock's view of one game: the only output allowed to differ between runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameTiming {
    pub game_id: u64,
    /// Wall time of the whole game, in seconds.
    pub wall: f64,
    /// Per seat: seconds spent choosing moves.
    pub time: Vec<f64>,
    /// Per seat: the bot's work (alpha-beta nodes, MCTS iterations; 0 for bots that do not count).
    pub nodes: Vec<u64>,
    /// Per ply: the milliseconds the bot took (charged to its clock, if it has one); `None` for plies no bot
    /// chose (the random opening, random players).
    pub move_ms: Vec<Option<u64>>,
    /// Per ply: the mover's clock after the move (time control `tc` only), in milliseconds.
    pub clock_ms: Vec<Option<u64>>,
}

/// Per-ply numbers as a column: `;`-separated, empty where there is none.
fn ply_column(v: &[Option<u64>]) -> String {
    v.iter()
        .map(|x| x.map_or(String::new(), |n| n.to_string()))
        .collect::<Vec<_>>()
        .join(";")
}

fn read_ply_column(column: &str, s: &str) -> Result<Vec<Option<u64>>, RowError> {
    if s.is_empty() {
        return Ok(vec![]);
    }
    s.split(';')
        .map(|x| match x {
            "" => Ok(None),
            x => x.parse().map(Some).map_err(|_| RowError::NotANumber {
                column: column.to_string(),
                value: x.to_string(),
            }),
        })
        .collect()
}

impl GameTiming {
    pub fn header(seats: usize) -> Vec<String> {
        let mut h = vec!["game_id".to_string(), "wall_ms".to_string()];
        h.extend((1..=seats).map(|i| format!("time_ms_{i}")));
        h.extend((1..=seats).map(|i| format!("nodes_{i}")));
        h.push("move_ms".into());
        h.push("clock_ms".into());
        h
    }

    pub fn row(&self, seats: usize) -> Vec<String> {
        let mut r = vec![self.game_id.to_string(), format!("{:.3}", self.wall * 1e3)];
        r.extend((0..seats).map(|i| {
            self.time
                .get(i)
                .map(|t| format!("{:.3}", t * 1e3))
                .unwrap_or_default()
        }));
        r.extend((0..seats).map(|i| self.nodes.get(i).map(|n| n.to_string()).unwrap_or_default()));
        r.push(ply_column(&self.move_ms));
        r.push(ply_column(&self.clock_ms));
        r
    }

    pub fn from_row(header: &[String], row: &[String]) -> Result<GameTiming, RowError> {
        let get = Fields::new(header, row)?;
        let mut time = vec![];
        let mut nodes = vec![];
        for i in 1.. {
            match get.opt(&format!("time_ms_{i}")) {
                Some(t) if !t.is_empty() => {
                    time.push(
                        t.parse::<f64>()
                            .map_err(|_| RowError::BadTime(t.to_string()))?
                            / 1e3,
                    );
                    nodes.push(get.num(&format!("nodes_{i}"))?);
                }
                _ => break,
            }
        }
        Ok(GameTiming {
            game_id: get.num("game_id")?,
            wall: get.num::<f64>("wall_ms")? / 1e3,
            time,
            nodes,
            move_ms: read_ply_column("move_ms", get.opt("move_ms").unwrap_or(""))?,
            clock_ms: read_ply_column("clock_ms", get.opt("clock_ms").unwrap_or(""))?,
        })
    }
}

/// Why a row of `games.csv` or `timings.csv` cannot be read back. The reader of the file adds its path and
/// line; the message is the same as when these errors were strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RowError {
    /// The row has `fields` fields where the header has `header`.
    Width { fields: usize, header: usize },
    /// The header has no column of this name.
    NoColumn(String),
    /// The column holds something that is not a number.
    NotANumber { column: String, value: String },
    /// A `result_N` that is not a number.
    BadResult(String),
    /// A `time_ms_N` that is not a number.
    BadTime(String),
}

impl std::fmt::Display for RowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RowError::Width { fields, header } => {
                write!(f, "{fields} fields where the header has {header}")
            }
            RowError::NoColumn(name) => write!(f, "no column `{name}`"),
            RowError::NotANumber { column, value } => {
                write!(f, "column `{column}`: `{value}` is not a number")
            }
            RowError::BadResult(r) => write!(f, "bad result `{r}`"),
            RowError::BadTime(t) => write!(f, "bad time `{t}`"),
        }
    }
}

impl std::error::Error for RowError {}

impl From<RowError> for String {
    fn from(e: RowError) -> String {
        e.to_string()
    }
}

/// A CSV row's fields by column name.
struct Fields<'a> {
    by_name: HashMap<&'a str, &'a str>,
}

impl<'a> Fields<'a> {
    fn new(header: &'a [String], row: &'a [String]) -> Result<Self, RowError> {
        if header.len() != row.len() {
            return Err(RowError::Width {
                fields: row.len(),
                header: header.len(),
            });
        }
        Ok(Fields {
            by_name: header
                .iter()
                .map(String::as_str)
                .zip(row.iter().map(String::as_str))
                .collect(),
        })
    }

    fn opt(&self, name: &str) -> Option<&'a str> {
        self.by_name.get(name).copied()
    }

    fn str(&self, name: &str) -> Result<&'a str, RowError> {
        self.opt(name)
            .ok_or_else(|| RowError::NoColumn(name.to_string()))
    }

    fn num<T: std::str::FromStr>(&self, name: &str) -> Result<T, RowError> {
        let s = self.str(name)?;
        s.parse().map_err(|_| RowError::NotANumber {
            column: name.to_string(),
            value: s.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            game_id: 7,
            pair_id: 3,
            seed: 42,
            variant: "Breakthrough, small".into(),
            bots: vec!["random".into(), "mcts:iterations=5,name=m".into()],
            results: vec![-1, 1],
            end_type: "absolute-config".into(),
            end_name: "breakthrough".into(),
            end_priority: -1,
            plies: 3,
            opening_plies: 1,
            legal_moves: 40,
            evals: Default::default(),
            error: String::new(),
            start: String::new(),
            moves: vec!["a2-a3".into(), "b7 b6".into(), "Stone@d4".into()],
        }
    }

    #[test]
    fn rows_read_back() {
        let r = sample();
        let h = GameRecord::header(3);
        let back = GameRecord::from_row(&h, &r.row(3)).unwrap();
        assert_eq!(back, r);
        assert_eq!(r.winner(), "mcts:iterations=5,name=m");
        let mut e = r.clone();
        e.results.clear();
        e.end_type = ENGINE_ERROR.into();
        e.moves.clear();
        e.error = "runaway, \"quoted\"\nline".into();
        assert_eq!(GameRecord::from_row(&h, &e.row(3)).unwrap(), e);
        assert_eq!(e.winner(), "");
        let t = GameTiming {
            game_id: 7,
            wall: 0.5,
            time: vec![0.25, 0.125],
            nodes: vec![0, 1234],
            move_ms: vec![None, Some(12), Some(0)],
            clock_ms: vec![None, Some(9_988), None],
        };
        let th = GameTiming::header(2);
        assert_eq!(GameTiming::from_row(&th, &t.row(2)).unwrap(), t);
    }

    #[test]
    fn bad_rows_are_errors() {
        let h = GameRecord::header(2);
        let mut row = sample().row(2);
        row[0] = "x".into();
        assert_eq!(
            GameRecord::from_row(&h, &row).unwrap_err().to_string(),
            "column `game_id`: `x` is not a number"
        );
        assert_eq!(
            GameRecord::from_row(&h, &row[1..]).unwrap_err().to_string(),
            format!("{} fields where the header has {}", h.len() - 1, h.len())
        );
    }
}
