//! Chess clocks for the tournament, fastchess-style: a time control `tc=40/60+0.6` (40 moves in 60 seconds, 0.6
//! seconds added after each move), a fixed time per move `st=1.5` (seconds), and a time margin `timemargin=MS`
//! (how far past its time a bot may answer before its flag falls).
//!
//! The runner keeps one [`Clock`] per seat that has a control: before each of the bot's moves it hands the bot
//! a [`ClockView`] (the remaining time of every player, the increments, the moves to the next time control),
//! which the protocol adapters send to their engines and the built-in bots budget their search from
//! ([`ClockView::allot`]); after the move it charges the time used ([`Clock::spend`]). A flag fall ends the
//! game as a loss of end type `time-forfeit`.
//!
//! Times are kept in whole milliseconds, so that the clock a bot is shown and the time charged add up exactly
//! (a test can check the increments from what an engine was sent and what `timings.csv` says it used).

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A time control: `moves` moves in `base_ms` (repeating), or the whole game in `base_ms` when `moves` is
/// `None`; `inc_ms` is added after every move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: Option<u32>,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// Seconds as written in a control (`60`, `0.6`, `1.25`) to milliseconds; `None` if not a number >= 0.
fn seconds_ms(s: &str) -> Option<u64> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && (0.0..1e9).contains(&v)).then(|| (v * 1000.0).round() as u64)
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `[MOVES/]SECONDS[+INCREMENT]`: `40/60+0.6`, `10+0.1`, `300`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "time control `{text}`: expected [MOVES/]SECONDS[+INCREMENT], e.g. `40/60+0.6` or `10+0.1`"
            )
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m.trim().parse().map_err(|_| bad())?;
                if m == 0 {
                    return Err(format!(
                        "time control `{text}`: the moves per period must be at least 1"
                    ));
                }
                (Some(m), r)
            }
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = seconds_ms(base).ok_or_else(bad)?;
        let inc_ms = match inc {
            Some(i) => seconds_ms(i).ok_or_else(bad)?,
            None => 0,
        };
        if base_ms == 0 && inc_ms == 0 {
            return Err(format!("time control `{text}`: no time at all"));
        }
        Ok(TimeControl {
            moves,
            base_ms,
            inc_ms,
        })
    }
}

/// Milliseconds as seconds, as a control writes them (`60`, `0.6`).
fn ms_text(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", ms_text(self.base_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", ms_text(self.inc_ms))?;
        }
        Ok(())
    }
}

/// The clock keys of a bot or of a whole tournament, as written in presets, inline specs and `config.toml`:
/// `tc` (a [`TimeControl`]), `st` (seconds per move) and `timemargin` (milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockKeys {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub st: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timemargin: Option<u64>,
}

/// A clock's settings, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockSpec {
    pub tc: Option<TimeControl>,
    /// A fixed time per move, in milliseconds.
    pub st_ms: Option<u64>,
    /// How far past its time a bot may answer before its flag falls, in milliseconds.
    pub margin_ms: u64,
}

impl ClockSpec {
    /// The clock these keys ask for: `None` when neither `tc` nor `st` is given (a `timemargin` alone is an
    /// error, as are both `tc` and `st`).
    pub fn from_keys(
        tc: Option<&str>,
        st: Option<f64>,
        margin: Option<u64>,
    ) -> Result<Option<ClockSpec>, String> {
        let tc = tc.map(|t| t.parse::<TimeControl>()).transpose()?;
        let st_ms = match st {
            Some(s) => match seconds_ms(&s.to_string()) {
                Some(ms) if ms > 0 => Some(ms),
                _ => return Err(format!("`st` ({s}) must be a number of seconds above 0")),
            },
            None => None,
        };
        match (tc, st_ms) {
            (Some(_), Some(_)) => {
                Err("give either `tc` (a time control) or `st` (seconds per move), not both".into())
            }
            (None, None) if margin.is_some() => {
                Err("`timemargin` needs a clock: a `tc` or an `st`".into())
            }
            (None, None) => Ok(None),
            _ => Ok(Some(ClockSpec {
                tc,
                st_ms,
                margin_ms: margin.unwrap_or(0),
            })),
        }
    }

    /// The clock of keys as written (see [`ClockSpec::from_keys`]).
    pub fn of(k: &ClockKeys) -> Result<Option<ClockSpec>, String> {
        Self::from_keys(k.tc.as_deref(), k.st, k.timemargin)
    }

    /// As the keys write it: `tc=40/60+0.6` or `st=1.5`, and the margin.
    pub fn describe(&self) -> String {
        let mut s = match (self.tc, self.st_ms) {
            (Some(tc), _) => format!("tc={tc}"),
            (None, Some(st)) => format!("st={}", ms_text(st)),
            (None, None) => "none".into(),
        };
        if self.margin_ms > 0 {
            s.push_str(&format!(",timemargin={}", self.margin_ms));
        }
        s
    }
}

/// A flag fall: the time a move took and the most it could have taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub used_ms: u64,
    pub allowed_ms: u64,
}

impl std::fmt::Display for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "lost on time: the move took {} ms where the clock allowed {} ms",
            self.used_ms, self.allowed_ms
        )
    }
}

/// One seat's clock during a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub spec: ClockSpec,
    /// Milliseconds left (with a `tc`); never below 0.
    left_ms: u64,
    /// Moves made so far.
    moves: u32,
}

impl Clock {
    pub fn new(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            left_ms: spec.tc.map_or(0, |t| t.base_ms),
            moves: 0,
        }
    }

    /// Milliseconds left on the clock (with a `tc`), else `None`.
    pub fn left_ms(&self) -> Option<u64> {
        self.spec.tc.map(|_| self.left_ms)
    }

    /// Moves to make before the next time control adds time (`40/60`), counting the next one.
    pub fn moves_to_go(&self) -> Option<u32> {
        let m = self.spec.tc?.moves?;
        Some(m - self.moves % m)
    }

    /// The longest the next move may take before the flag falls (margin included).
    pub fn allowed_ms(&self) -> u64 {
        let by_tc = self.spec.tc.map(|_| self.left_ms + self.spec.margin_ms);
        let by_st = self.spec.st_ms.map(|st| st + self.spec.margin_ms);
        match (by_tc, by_st) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => u64::MAX,
        }
    }

    /// Charges a move that took `used_ms`: the flag falls if that is more than [`Clock::allowed_ms`]; else the
    /// time is taken off (the part within the margin taken from nothing), the increment added, and at the end of
    /// a period (`40/...`) the period's time added again.
    pub fn spend(&mut self, used_ms: u64) -> Result<(), Flag> {
        let allowed = self.allowed_ms();
        if used_ms > allowed {
            self.left_ms = self.left_ms.saturating_sub(used_ms);
            return Err(Flag {
                used_ms,
                allowed_ms: allowed,
            });
        }
        self.moves += 1;
        if let Some(tc) = self.spec.tc {
            self.left_ms = self.left_ms.saturating_sub(used_ms) + tc.inc_ms;
            if let Some(m) = tc.moves {
                if self.moves.is_multiple_of(m) {
                    self.left_ms += tc.base_ms;
                }
            }
        }
        Ok(())
    }
}

/// What a bot is told of the clocks before a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// The player to move (the game's player index).
    pub me: usize,
    /// Per player of the game: milliseconds left, where that player has a clock with a time control.
    pub left_ms: Vec<Option<u64>>,
    /// Per player of the game: the increment.
    pub inc_ms: Vec<u64>,
    /// The mover's moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// The mover's fixed time per move.
    pub st_ms: Option<u64>,
    pub margin_ms: u64,
    /// The longest the move may take before the flag falls.
    pub allowed_ms: u64,
    /// The mover's time control.
    pub tc: Option<TimeControl>,
}

impl ClockView {
    /// The mover's time left (with a `tc`).
    pub fn my_left_ms(&self) -> Option<u64> {
        self.left_ms.get(self.me).copied().flatten()
    }

    /// The mover's increment.
    pub fn my_inc_ms(&self) -> u64 {
        self.inc_ms.get(self.me).copied().unwrap_or(0)
    }

    /// How long a built-in bot should search for this move: with `st`, that time less a tenth (at most 50 ms
    /// less) for the move's own overhead; with a `tc`, the time left shared over the moves to the next control
    /// (30 when the game has one period), plus three quarters of the increment, never more than half of what is
    /// left. At least 1 ms.
    pub fn allot(&self) -> Duration {
        let ms = match (self.st_ms, self.my_left_ms()) {
            (Some(st), _) => st - (st / 10).min(50),
            (None, Some(left)) => {
                let share = left / u64::from(self.moves_to_go.unwrap_or(30).max(1));
                (share + self.my_inc_ms() * 3 / 4).min(left / 2)
            }
            (None, None) => 1000,
        };
        Duration::from_millis(ms.max(1))
    }

    /// How long to wait for an engine's answer before taking it to hang: the time its flag falls, plus a second
    /// to read a late answer (which then loses on time, not as a hang).
    pub fn wait(&self) -> Duration {
        Duration::from_millis(self.allowed_ms.saturating_add(1000))
    }
}

/// The clocks of one game's seats, with the game's players, for the runner.
pub struct GameClocks {
    /// Per seat: its clock, if its bot plays with one.
    pub seats: Vec<Option<Clock>>,
    /// Per seat: the game's player in it.
    players: Vec<usize>,
    num_players: usize,
}

impl GameClocks {
    pub fn new(specs: &[Option<ClockSpec>], players: &[usize], num_players: usize) -> GameClocks {
        GameClocks {
            seats: specs.iter().map(|s| s.map(Clock::new)).collect(),
            players: players.to_vec(),
            num_players,
        }
    }

    /// What the bot in `seat` is told before its move; `None` if it has no clock.
    pub fn view(&self, seat: usize) -> Option<ClockView> {
        let c = self.seats.get(seat)?.as_ref()?;
        let mut left_ms = vec![None; self.num_players];
        let mut inc_ms = vec![0; self.num_players];
        for (s, clock) in self.seats.iter().enumerate() {
            if let (Some(clock), Some(&p)) = (clock, self.players.get(s)) {
                left_ms[p] = clock.left_ms();
                inc_ms[p] = clock.spec.tc.map_or(0, |t| t.inc_ms);
            }
        }
        Some(ClockView {
            me: self.players[seat],
            left_ms,
            inc_ms,
            moves_to_go: c.moves_to_go(),
            st_ms: c.spec.st_ms,
            margin_ms: c.spec.margin_ms,
            allowed_ms: c.allowed_ms(),
            tc: c.spec.tc,
        })
    }
}

/// A clock reading as PGN's `%clk` writes it: `h:mm:ss`, with the milliseconds when there are any
/// (`0:00:09.9`).
pub fn clk(ms: u64) -> String {
    let (h, m, s, frac) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
    if frac == 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        let f = format!("{frac:03}");
        format!("{h}:{m:02}:{s:02}.{}", f.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn controls_read_as_fastchess_writes_them() {
        assert_eq!(
            tc("40/60+0.6"),
            TimeControl {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 600
            }
        );
        assert_eq!(
            tc("10+0.1"),
            TimeControl {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            }
        );
        assert_eq!(tc("300").base_ms, 300_000);
        assert_eq!(tc("0+2").inc_ms, 2000);
        for t in ["40/60+0.6", "10+0.1", "300", "0.5+0.05"] {
            assert_eq!(tc(t).to_string(), t);
        }
        for bad in ["", "abc", "0/60", "-1", "60+x", "0", "40/", "1e99"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn keys_make_a_clock_or_none() {
        assert_eq!(ClockSpec::from_keys(None, None, None), Ok(None));
        let c = ClockSpec::from_keys(Some("10+0.1"), None, Some(50))
            .unwrap()
            .unwrap();
        assert_eq!((c.tc, c.st_ms, c.margin_ms), (Some(tc("10+0.1")), None, 50));
        assert_eq!(c.describe(), "tc=10+0.1,timemargin=50");
        let c = ClockSpec::from_keys(None, Some(1.5), None)
            .unwrap()
            .unwrap();
        assert_eq!((c.st_ms, c.describe().as_str()), (Some(1500), "st=1.5"));
        assert!(ClockSpec::from_keys(Some("10"), Some(1.0), None)
            .unwrap_err()
            .contains("not both"));
        assert!(ClockSpec::from_keys(None, None, Some(10))
            .unwrap_err()
            .contains("needs a clock"));
        assert!(ClockSpec::from_keys(None, Some(0.0), None).is_err());
        assert!(ClockSpec::from_keys(None, Some(-1.0), None).is_err());
    }

    fn spec(t: &str, margin: u64) -> ClockSpec {
        ClockSpec {
            tc: Some(tc(t)),
            st_ms: None,
            margin_ms: margin,
        }
    }

    /// 10+0.1: 10 s, then after each move the time used is taken off and 0.1 s added.
    #[test]
    fn increments_are_credited_after_each_move() {
        let mut c = Clock::new(spec("10+0.1", 0));
        assert_eq!(c.left_ms(), Some(10_000));
        c.spend(400).unwrap();
        assert_eq!(c.left_ms(), Some(9_700)); // 10000 - 400 + 100
        c.spend(0).unwrap();
        assert_eq!(c.left_ms(), Some(9_800));
        c.spend(9_800).unwrap(); // to the last millisecond: still in time
        assert_eq!(c.left_ms(), Some(100));
        assert_eq!(
            c.spend(101),
            Err(Flag {
                used_ms: 101,
                allowed_ms: 100
            })
        );
    }

    #[test]
    fn a_margin_lets_a_move_run_over_by_that_much() {
        let mut c = Clock::new(spec("1", 200));
        assert_eq!(c.allowed_ms(), 1200);
        c.spend(1150).unwrap(); // over by 150, within the margin: the clock is at 0, not below
        assert_eq!(c.left_ms(), Some(0));
        assert_eq!(c.allowed_ms(), 200);
        assert!(c.spend(201).is_err());
    }

    /// 40/60: 60 s for 40 moves, then 60 s more for the next 40.
    #[test]
    fn periods_add_their_time_after_their_last_move() {
        let mut c = Clock::new(spec("3/6", 0));
        assert_eq!(c.moves_to_go(), Some(3));
        c.spend(1000).unwrap();
        assert_eq!((c.left_ms(), c.moves_to_go()), (Some(5000), Some(2)));
        c.spend(1000).unwrap();
        c.spend(1000).unwrap();
        // 6000 - 3000 + 6000
        assert_eq!((c.left_ms(), c.moves_to_go()), (Some(9000), Some(3)));
    }

    #[test]
    fn a_fixed_time_per_move_does_not_accumulate() {
        let mut c = Clock::new(ClockSpec {
            tc: None,
            st_ms: Some(500),
            margin_ms: 100,
        });
        assert_eq!((c.left_ms(), c.allowed_ms()), (None, 600));
        c.spend(10).unwrap();
        assert_eq!(c.allowed_ms(), 600);
        c.spend(600).unwrap();
        assert!(c.spend(601).is_err());
    }

    #[test]
    fn the_view_gives_every_players_clock_by_player() {
        // Seat 0 plays player 1 (10+0.1), seat 1 plays player 0 (40/60+0.6).
        let mut g = GameClocks::new(
            &[Some(spec("10+0.1", 0)), Some(spec("40/60+0.6", 0))],
            &[1, 0],
            2,
        );
        g.seats[0].as_mut().unwrap().spend(1000).unwrap();
        let v = g.view(0).unwrap();
        assert_eq!(v.me, 1);
        assert_eq!(v.left_ms, [Some(60_000), Some(9_100)]);
        assert_eq!(v.inc_ms, [600, 100]);
        assert_eq!(
            (v.my_left_ms(), v.my_inc_ms(), v.moves_to_go),
            (Some(9_100), 100, None)
        );
        let v = g.view(1).unwrap();
        assert_eq!((v.me, v.moves_to_go), (0, Some(40)));
        let none = GameClocks::new(&[None, Some(spec("10", 0))], &[0, 1], 2);
        assert!(none.view(0).is_none());
        assert_eq!(none.view(1).unwrap().left_ms, [None, Some(10_000)]);
    }

    #[test]
    fn built_in_bots_budget_from_the_clock() {
        let g = GameClocks::new(&[Some(spec("60+1", 0)), None], &[0, 1], 2);
        // 60000 / 30 + 750
        assert_eq!(g.view(0).unwrap().allot(), Duration::from_millis(2750));
        let g = GameClocks::new(&[Some(spec("40/60", 0)), None], &[0, 1], 2);
        assert_eq!(g.view(0).unwrap().allot(), Duration::from_millis(1500));
        // Never more than half of what is left.
        let mut c = Clock::new(spec("1+10", 0));
        c.spend(1000).unwrap(); // 0 + 10000 left
        let g = GameClocks {
            seats: vec![Some(c)],
            players: vec![0],
            num_players: 1,
        };
        assert_eq!(g.view(0).unwrap().allot(), Duration::from_millis(5000));
        let st = ClockSpec {
            tc: None,
            st_ms: Some(200),
            margin_ms: 0,
        };
        let g = GameClocks::new(&[Some(st)], &[0], 1);
        assert_eq!(g.view(0).unwrap().allot(), Duration::from_millis(180));
    }

    #[test]
    fn clock_readings_for_pgn() {
        assert_eq!(clk(0), "0:00:00");
        assert_eq!(clk(9_900), "0:00:09.9");
        assert_eq!(clk(3_723_450), "1:02:03.45");
        assert_eq!(clk(60_000), "0:01:00");
    }
}
