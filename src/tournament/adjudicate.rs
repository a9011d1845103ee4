//! Adjudication from the scores the bots report with their moves, as fastchess does it:
//!
//! * draw (`--draw movenumber=N,movecount=K,score=S`): from move N on, when the last 2K moves (K of each side)
//!   were each reported with a score of at most S in absolute value (a mate score never counts), the game is
//!   a draw, of end type [`ADJUDICATED_DRAW`];
//! * resign (`--resign movecount=K,score=R[,twosided=true]`): one-sided, a side whose last K moves each came
//!   with a score of at most −R (or a mate against it) loses; two-sided, the last 2K moves (K of each side)
//!   all agree: the loser's scores at most −R and the winner's at least R (or mates). End type
//!   [`ADJUDICATED_RESIGN`].
//!
//! Scores are from the mover's side, in centipawns for UCI and USI engines and in hundredths of the cheapest
//! piece for the built-in bots ([`crate::bot::Score`]). A move reported without a score (a random bot, an
//! engine that printed none) breaks every count. Move numbers count from 1 at the game's first ply, the
//! opening's plies included: ply p (from 0) belongs to move p / 2 + 1. Only games of two players are
//! adjudicated (the settings are refused for others).

use crate::bot::Score;
use serde::{Deserialize, Serialize};

/// End type of a game adjudicated a draw.
pub const ADJUDICATED_DRAW: &str = "adjudicated-draw";
/// End type of a game adjudicated lost for the side whose scores said so.
pub const ADJUDICATED_RESIGN: &str = "adjudicated-resign";

/// `--draw movenumber=N,movecount=K,score=S`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRule {
    /// The first move number at which a draw may be adjudicated.
    #[serde(default)]
    pub movenumber: u32,
    /// Moves of each side in a row with a small score.
    pub movecount: u32,
    /// The largest absolute score that counts as even.
    pub score: i32,
}

/// `--resign movecount=K,score=R[,twosided=true]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRule {
    /// Moves in a row (of the losing side; two-sided: of each side).
    pub movecount: u32,
    /// The score (positive) at or beyond which a side is lost: its own scores at most −R.
    pub score: i32,
    /// Both sides must agree: the winner's scores at least R as well.
    #[serde(default)]
    pub twosided: bool,
}

/// `key=value,...` into a TOML table, for the flags.
fn keys(s: &str, flag: &str, known: &[&str]) -> Result<Vec<(String, String)>, String> {
    let mut out = vec![];
    for kv in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("{flag} `{s}`: expected key=value, found `{kv}`"))?;
        let k = k.trim().to_ascii_lowercase();
        if !known.contains(&k.as_str()) {
            return Err(format!(
                "{flag} `{s}`: unknown key `{k}`; keys are {}",
                known.join(", ")
            ));
        }
        if out.iter().any(|(x, _): &(String, String)| *x == k) {
            return Err(format!("{flag} `{s}`: `{k}` given twice"));
        }
        out.push((k, v.trim().to_string()));
    }
    Ok(out)
}

fn num<T: std::str::FromStr>(flag: &str, k: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: `{k}={v}` is not a whole number"))
}

impl std::str::FromStr for DrawRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut r = DrawRule {
            movenumber: 0,
            movecount: 0,
            score: -1,
        };
        for (k, v) in keys(s, "--draw", &["movenumber", "movecount", "score"])? {
            match k.as_str() {
                "movenumber" => r.movenumber = num("--draw", &k, &v)?,
                "movecount" => r.movecount = num("--draw", &k, &v)?,
                _ => r.score = num("--draw", &k, &v)?,
            }
        }
        r.validate()?;
        Ok(r)
    }
}

impl DrawRule {
    pub fn validate(&self) -> Result<(), String> {
        if self.movecount == 0 {
            return Err("--draw needs movecount=K, at least 1 (moves of each side)".into());
        }
        if self.score < 0 {
            return Err(
                "--draw needs score=S, at least 0 (the largest absolute score taken as even)"
                    .into(),
            );
        }
        Ok(())
    }
}

impl std::str::FromStr for ResignRule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut r = ResignRule {
            movecount: 0,
            score: 0,
            twosided: false,
        };
        for (k, v) in keys(s, "--resign", &["movecount", "score", "twosided"])? {
            match k.as_str() {
                "movecount" => r.movecount = num("--resign", &k, &v)?,
                "score" => r.score = num("--resign", &k, &v)?,
                _ => {
                    r.twosided = match v.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(format!(
                                "--resign: `twosided={v}` is neither true nor false"
                            ))
                        }
                    }
                }
            }
        }
        r.validate()?;
        Ok(r)
    }
}

impl ResignRule {
    pub fn validate(&self) -> Result<(), String> {
        if self.movecount == 0 {
            return Err("--resign needs movecount=K, at least 1".into());
        }
        if self.score <= 0 {
            return Err(
                "--resign needs score=R, above 0 (a side is lost at scores of -R and below)".into(),
            );
        }
        Ok(())
    }
}

impl std::fmt::Display for DrawRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "movenumber={},movecount={},score={}",
            self.movenumber, self.movecount, self.score
        )
    }
}

impl std::fmt::Display for ResignRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "movecount={},score={},twosided={}",
            self.movecount, self.score, self.twosided
        )
    }
}

/// What an adjudicator decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A draw; the message says why.
    Draw(String),
    /// The seat that loses; the message says why.
    Resign(usize, String),
}

/// The counts of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Moves in a row with |score| <= S, from move N on.
    even: u32,
    /// One-sided: per seat, its own moves in a row with a losing score.
    losing: [u32; 2],
    /// Two-sided: moves in a row on which both agree, and the seat they agree is lost.
    agreed: u32,
    agreed_loser: Option<usize>,
}

/// Whether a score says the mover is lost (at most −R, or mated) or winning (at least R, or mating).
fn lost(s: Score, r: i32) -> bool {
    match s {
        Score::Cp(c) => c <= -r,
        Score::Mate(m) => m < 0,
    }
}

fn won(s: Score, r: i32) -> bool {
    match s {
        Score::Cp(c) => c >= r,
        Score::Mate(m) => m > 0,
    }
}

impl Adjudicator {
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            even: 0,
            losing: [0; 2],
            agreed: 0,
            agreed_loser: None,
        }
    }

    /// Whether it has anything to do.
    pub fn is_active(&self) -> bool {
        self.draw.is_some() || self.resign.is_some()
    }

    /// Takes the move just played at ply `ply` (from 0, the opening's included) by the bot in `seat` (0 or
    /// 1), with the score it reported; a verdict if the game is to end now.
    pub fn update(&mut self, ply: u32, seat: usize, score: Option<Score>) -> Option<Verdict> {
        let seat = seat.min(1);
        let move_number = ply / 2 + 1;
        if let Some(d) = self.draw {
            match score {
                Some(Score::Cp(c)) if move_number >= d.movenumber && c.abs() <= d.score => {
                    self.even += 1
                }
                _ => self.even = 0,
            }
        }
        if let Some(r) = self.resign {
            if r.twosided {
                // The mover is lost and says so, or is winning and says so; the loser stays the same seat.
                let loser = match score {
                    Some(s) if lost(s, r.score) => Some(seat),
                    Some(s) if won(s, r.score) => Some(1 - seat),
                    _ => None,
                };
                match loser {
                    Some(l) if self.agreed_loser == Some(l) => self.agreed += 1,
                    Some(l) => {
                        self.agreed_loser = Some(l);
                        self.agreed = 1;
                    }
                    None => {
                        self.agreed_loser = None;
                        self.agreed = 0;
                    }
                }
                if self.agreed >= 2 * r.movecount {
                    let l = self.agreed_loser.unwrap_or(seat);
                    return Some(Verdict::Resign(
                        l,
                        format!(
                            "both sides' scores said seat {} lost (at least {} from the winner, at most -{} from the loser) for {} moves of each side",
                            l + 1,
                            r.score,
                            r.score,
                            r.movecount
                        ),
                    ));
                }
            } else {
                match score {
                    Some(s) if lost(s, r.score) => self.losing[seat] += 1,
                    _ => self.losing[seat] = 0,
                }
                if self.losing[seat] >= r.movecount {
                    return Some(Verdict::Resign(
                        seat,
                        format!(
                            "seat {}'s scores were at most -{} for {} of its moves in a row",
                            seat + 1,
                            r.score,
                            r.movecount
                        ),
                    ));
                }
            }
        }
        if let Some(d) = self.draw {
            if self.even >= 2 * d.movecount {
                return Some(Verdict::Draw(format!(
                    "scores within {} of 0 for {} moves of each side, from move {}",
                    d.score, d.movecount, d.movenumber
                )));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_and_refuse() {
        let d: DrawRule = "movenumber=40,movecount=8,score=10".parse().unwrap();
        assert_eq!(
            d,
            DrawRule {
                movenumber: 40,
                movecount: 8,
                score: 10
            }
        );
        let r: ResignRule = "movecount=3,score=600,twosided=true".parse().unwrap();
        assert!(r.twosided && r.movecount == 3 && r.score == 600);
        assert!("movecount=3"
            .parse::<DrawRule>()
            .unwrap_err()
            .contains("score"));
        assert!("movecount=3,score=-5".parse::<ResignRule>().is_err());
        assert!("movecount=3,score=5,foo=1"
            .parse::<ResignRule>()
            .unwrap_err()
            .contains("unknown key `foo`"));
        assert!("movecount=x,score=5".parse::<ResignRule>().is_err());
    }

    #[test]
    fn a_draw_needs_k_moves_of_each_side_from_move_n() {
        // movenumber 3, movecount 2, score 10: plies 0-3 are moves 1-2 (not counted), ply 4 is move 3.
        let mut a = Adjudicator::new(
            Some(DrawRule {
                movenumber: 3,
                movecount: 2,
                score: 10,
            }),
            None,
        );
        let cp = |c| Some(Score::Cp(c));
        for (ply, s) in [(0, cp(0)), (1, cp(0)), (2, cp(5)), (3, cp(-5))] {
            assert_eq!(a.update(ply, (ply % 2) as usize, s), None, "ply {ply}");
        }
        // Plies 4, 5, 6 even; 7 at 11 breaks it; 8..11 even: the fourth in a row, ply 11, draws.
        assert_eq!(a.update(4, 0, cp(10)), None);
        assert_eq!(a.update(5, 1, cp(-10)), None);
        assert_eq!(a.update(6, 0, cp(0)), None);
        assert_eq!(a.update(7, 1, cp(11)), None);
        assert_eq!(a.update(8, 0, cp(1)), None);
        assert_eq!(
            a.update(9, 1, Some(Score::Mate(5))),
            None,
            "a mate breaks it"
        );
        assert_eq!(a.update(10, 0, cp(1)), None);
        assert_eq!(a.update(11, 1, None), None, "no score breaks it");
        for ply in 12..15 {
            assert_eq!(a.update(ply, (ply % 2) as usize, cp(-3)), None);
        }
        assert!(matches!(a.update(15, 1, cp(2)), Some(Verdict::Draw(_))));
    }

    #[test]
    fn resign_one_sided_counts_the_losing_side_only() {
        let mut a = Adjudicator::new(
            None,
            Some(ResignRule {
                movecount: 2,
                score: 300,
                twosided: false,
            }),
        );
        let cp = |c| Some(Score::Cp(c));
        assert_eq!(a.update(0, 0, cp(-300)), None);
        // The other side's scores do not break seat 0's count.
        assert_eq!(a.update(1, 1, cp(50)), None);
        assert_eq!(
            a.update(2, 0, Some(Score::Mate(-7)))
                .map(|v| matches!(v, Verdict::Resign(0, _))),
            Some(true)
        );
        let mut a = Adjudicator::new(
            None,
            Some(ResignRule {
                movecount: 2,
                score: 300,
                twosided: false,
            }),
        );
        assert_eq!(a.update(0, 0, cp(-300)), None);
        assert_eq!(a.update(2, 0, cp(-299)), None, "-299 is not lost");
        assert_eq!(a.update(4, 0, cp(-400)), None);
        assert!(matches!(
            a.update(6, 0, cp(-400)),
            Some(Verdict::Resign(0, _))
        ));
    }

    #[test]
    fn resign_two_sided_needs_both_to_agree() {
        let mut a = Adjudicator::new(
            None,
            Some(ResignRule {
                movecount: 2,
                score: 300,
                twosided: true,
            }),
        );
        let cp = |c| Some(Score::Cp(c));
        // Seat 1 winning by its own account, seat 0 lost by its own: they agree on seat 0.
        assert_eq!(a.update(0, 0, cp(-300)), None);
        assert_eq!(
            a.update(1, 1, cp(299)),
            None,
            "299 is not winning: the count restarts"
        );
        assert_eq!(a.update(2, 0, cp(-400)), None);
        assert_eq!(a.update(3, 1, cp(400)), None);
        assert_eq!(a.update(4, 0, cp(-400)), None);
        assert!(matches!(
            a.update(5, 1, cp(500)),
            Some(Verdict::Resign(0, _))
        ));
    }
}
