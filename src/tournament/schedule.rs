//! The schedule: which bots play which seats in which game, with explicit game and pair ids.
//!
//! Bots meet in *encounters*: for a game of n seats, a set of n bots (round-robin: every such set; gauntlet: the
//! first bot with every set of n − 1 others). An encounter is played in *pairs* (for n seats, groups): the n!
//! orders of its bots over the seats, all from the same opening, so that no bot gains from its seat. The
//! schedule interleaves: round r holds pair r of every variant and encounter, so that a run stopped early (or
//! by the SPRT) has played every encounter about equally. Game ids and pair ids count up in that order.
//!
//! Past [`MAX_FULL_GROUP`] orders (more than 6 seats) a group cannot hold every order (12 seats: 479,001,600
//! games), so it holds n: the rotations of one order, each bot once in each seat, the order drawn from the
//! round and the encounter. No order is ever stored: the k-th of a group is computed when its game is asked
//! for, so the schedule's memory does not depend on the number of seats.

use super::config::Format;

/// One game to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub game_id: u64,
    pub pair_id: u64,
    /// Index into the run's variants.
    pub variant: usize,
    /// Index of the encounter within its variant.
    pub encounter: usize,
    /// The round: which pair of its encounter this game's pair is (from 0); an opening book's round-th
    /// opening starts it.
    pub round: u64,
    /// Bot index per seat (seat 0 moves first).
    pub seats: Vec<usize>,
}

/// k-element subsets of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for (i, &x) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, x);
            out.push(rest);
        }
    }
    out
}

/// The most seat orders a group holds in full (6 seats: 720 orders); a game of more seats plays the n
/// rotations of one order per group.
pub const MAX_FULL_GROUP: u64 = 720;

/// Every order of `items`, starting with `items` itself, in lexicographic order of positions.
#[cfg(test)]
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = vec![];
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x);
            out.push(p);
        }
    }
    out
}

/// The encounters of `bots` bots at a game of `seats` seats.
pub fn encounters(format: Format, bots: usize, seats: usize) -> Vec<Vec<usize>> {
    match format {
        Format::RoundRobin => combinations(&(0..bots).collect::<Vec<_>>(), seats),
        Format::Gauntlet => combinations(&(1..bots).collect::<Vec<_>>(), seats.saturating_sub(1))
            .into_iter()
            .map(|mut c| {
                c.insert(0, 0);
                c
            })
            .collect(),
    }
}

/// `n`!, or `None` past 64 bits.
fn factorial(n: usize) -> Option<u64> {
    (1..=n as u64).try_fold(1u64, |f, k| f.checked_mul(k))
}

/// The games of a group at a game of `seats` seats: every order (`seats`!) up to [`MAX_FULL_GROUP`], else
/// the `seats` rotations of one order.
pub fn group_of(seats: usize) -> u64 {
    match factorial(seats) {
        Some(f) if f <= MAX_FULL_GROUP => f.max(1),
        _ => seats as u64,
    }
}

/// Pairs (groups of seat orders) per encounter: `games` rounded up to whole groups (see [`group_of`]).
pub fn pairs_per_encounter(games: u64, seats: usize) -> u64 {
    games.div_ceil(group_of(seats)).max(1)
}

/// The `k`-th order of `0..n` in lexicographic order (the factorial number system); `n`! must fit in 64
/// bits.
fn nth_order(n: usize, mut k: u64) -> Vec<usize> {
    let mut rest: Vec<usize> = (0..n).collect();
    let mut out = Vec::with_capacity(n);
    for i in (0..n).rev() {
        let f = factorial(i).unwrap_or(u64::MAX);
        let at = (k / f) as usize;
        k %= f;
        out.push(rest.remove(at));
    }
    out
}

/// SplitMix64: the stream that draws a large group's base order.
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The base order of a large group: a shuffle of `0..n` drawn from the round and the encounter alone.
fn base_order(n: usize, round: u64, encounter: usize) -> Vec<usize> {
    let mut x = round
        .wrapping_mul(0x2545_f491_4f6c_dd1d)
        .wrapping_add(encounter as u64);
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (splitmix(&mut x) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The `k`-th seat order of the group of `round` of `encounter`, at a game of `seats` seats: positions into
/// the encounter's bots, seat by seat.
fn seat_order(seats: usize, round: u64, encounter: usize, k: u64) -> Vec<usize> {
    match factorial(seats) {
        Some(f) if f <= MAX_FULL_GROUP => nth_order(seats, k),
        _ => {
            let base = base_order(seats, round, encounter);
            (0..seats).map(|s| base[(s + k as usize) % seats]).collect()
        }
    }
}

/// One variant's part of the schedule.
#[derive(Clone, Debug)]
struct VariantPlan {
    encounters: Vec<Vec<usize>>,
    seats: usize,
    /// The games of a group ([`group_of`]); the orders themselves are computed when asked for.
    group: u64,
    /// Pairs (rounds) of each encounter.
    pairs: u64,
}

/// A stretch of rounds in which the same variants take part (variants with fewer pairs drop out).
#[derive(Clone, Debug)]
struct Segment {
    /// Rounds `rounds.0..rounds.1`.
    rounds: (u64, u64),
    first_game: u64,
    first_pair: u64,
    /// Variants taking part, in order.
    variants: Vec<usize>,
    games_per_round: u64,
    pairs_per_round: u64,
}

/// The whole schedule, produced lazily: any game by its id in time independent of the run's length, and
/// memory that depends only on the bots and variants (a run of 2^32 games starts at once).
#[derive(Clone, Debug)]
pub struct Schedule {
    plans: Vec<VariantPlan>,
    segments: Vec<Segment>,
    games: u64,
    pairs: u64,
}

impl Schedule {
    /// The schedule of `bots` bots over variants of `seats[v]` seats, `games` games per encounter; an
    /// error if its number of games does not fit in 64 bits.
    pub fn new(
        format: Format,
        bots: usize,
        seats: &[usize],
        games: u64,
    ) -> Result<Schedule, String> {
        let plans: Vec<VariantPlan> = seats
            .iter()
            .map(|&s| VariantPlan {
                encounters: encounters(format, bots, s),
                seats: s,
                group: group_of(s),
                pairs: pairs_per_encounter(games, s),
            })
            .collect();
        let too_many = || {
            format!(
                "--games {games}: the schedule would hold more than 2^64 games; give fewer games per encounter"
            )
        };
        let mut ends: Vec<u64> = plans.iter().map(|p| p.pairs).collect();
        ends.sort_unstable();
        ends.dedup();
        let mut segments = vec![];
        let (mut round, mut game, mut pair) = (0u64, 0u64, 0u64);
        for end in ends {
            let variants: Vec<usize> = (0..plans.len())
                .filter(|&v| plans[v].pairs >= end)
                .collect();
            let mut games_per_round = 0u64;
            let mut pairs_per_round = 0u64;
            for &v in &variants {
                let e = plans[v].encounters.len() as u64;
                pairs_per_round += e;
                games_per_round = e
                    .checked_mul(plans[v].group)
                    .and_then(|g| g.checked_add(games_per_round))
                    .ok_or_else(too_many)?;
            }
            let rounds = end - round;
            let seg = Segment {
                rounds: (round, end),
                first_game: game,
                first_pair: pair,
                variants,
                games_per_round,
                pairs_per_round,
            };
            game = rounds
                .checked_mul(games_per_round)
                .and_then(|g| g.checked_add(game))
                .ok_or_else(too_many)?;
            pair = rounds
                .checked_mul(pairs_per_round)
                .and_then(|p| p.checked_add(pair))
                .ok_or_else(too_many)?;
            round = end;
            segments.push(seg);
        }
        Ok(Schedule {
            plans,
            segments,
            games: game,
            pairs: pair,
        })
    }

    /// The number of games.
    pub fn len(&self) -> u64 {
        self.games
    }

    pub fn is_empty(&self) -> bool {
        self.games == 0
    }

    /// The number of pairs (groups).
    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// The games of a pair of variant `v` ([`group_of`] its seats, with consecutive ids).
    pub fn group_size(&self, variant: usize) -> u64 {
        self.plans.get(variant).map_or(0, |p| p.group)
    }

    /// The game with this id.
    pub fn get(&self, game_id: u64) -> Option<Pairing> {
        let seg = self
            .segments
            .iter()
            .rev()
            .find(|s| s.first_game <= game_id && s.games_per_round > 0)?;
        let offset = game_id - seg.first_game;
        let round = offset / seg.games_per_round;
        if round >= seg.rounds.1 - seg.rounds.0 {
            return None;
        }
        let mut rest = offset % seg.games_per_round;
        let mut pair_id = seg.first_pair + round * seg.pairs_per_round;
        for &v in &seg.variants {
            let plan = &self.plans[v];
            let group = plan.group;
            let games = plan.encounters.len() as u64 * group;
            if rest >= games {
                rest -= games;
                pair_id += plan.encounters.len() as u64;
                continue;
            }
            let e = (rest / group) as usize;
            let order = seat_order(plan.seats, seg.rounds.0 + round, e, rest % group);
            let bots = &plan.encounters[e];
            return Some(Pairing {
                game_id,
                pair_id: pair_id + e as u64,
                variant: v,
                encounter: e,
                round: seg.rounds.0 + round,
                seats: order.iter().map(|&i| bots[i]).collect(),
            });
        }
        None
    }

    /// The games from `from` on, in game-id order.
    pub fn iter_from(&self, from: u64) -> impl Iterator<Item = Pairing> + '_ {
        (from..self.games).map_while(move |id| self.get(id))
    }
}

/// The whole schedule, in game-id order (for small schedules: tests, tools).
pub fn schedule(format: Format, bots: usize, seats: &[usize], games: u64) -> Vec<Pairing> {
    match Schedule::new(format, bots, seats, games) {
        Ok(s) => s.iter_from(0).collect(),
        Err(_) => vec![],
    }
}

/// The eager construction the lazy [`Schedule`] replaces, kept to check it against.
#[cfg(test)]
fn schedule_eager(format: Format, bots: usize, seats: &[usize], games: u64) -> Vec<Pairing> {
    let per_variant: Vec<Vec<Vec<usize>>> =
        seats.iter().map(|&s| encounters(format, bots, s)).collect();
    let rounds = seats
        .iter()
        .map(|&s| pairs_per_encounter(games, s))
        .max()
        .unwrap_or(0);
    let mut out = vec![];
    let (mut game_id, mut pair_id) = (0, 0);
    for round in 0..rounds {
        for (v, encs) in per_variant.iter().enumerate() {
            if round >= pairs_per_encounter(games, seats[v]) {
                continue;
            }
            for (e, bots) in encs.iter().enumerate() {
                for order in permutations(bots) {
                    out.push(Pairing {
                        game_id,
                        pair_id,
                        variant: v,
                        encounter: e,
                        round,
                        seats: order,
                    });
                    game_id += 1;
                }
                pair_id += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_swap_seats() {
        let s = schedule(Format::RoundRobin, 3, &[2], 4);
        // 3 encounters × 2 pairs × 2 games.
        assert_eq!(s.len(), 12);
        assert!(s.iter().enumerate().all(|(i, p)| p.game_id == i as u64));
        let first: Vec<_> = s[..6].iter().map(|p| p.seats.clone()).collect();
        assert_eq!(
            first,
            [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]].map(|a| a.to_vec())
        );
        for pair in s.chunks(2) {
            assert_eq!(pair[0].pair_id, pair[1].pair_id);
            assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]]);
        }
        assert_eq!(s[11].pair_id, 5);
        // Odd game counts round up to whole pairs.
        assert_eq!(schedule(Format::RoundRobin, 2, &[2], 3).len(), 4);
    }

    #[test]
    fn gauntlet_and_more_seats() {
        let s = schedule(Format::Gauntlet, 4, &[2], 2);
        let encs: Vec<_> = s.iter().step_by(2).map(|p| p.seats.clone()).collect();
        assert_eq!(encs, [[0, 1], [0, 2], [0, 3]].map(|a| a.to_vec()));
        // Three seats: every order of the three bots, one group of 6 games on one opening.
        let s = schedule(Format::RoundRobin, 3, &[3], 1);
        assert_eq!(s.len(), 6);
        assert!(s.iter().all(|p| p.pair_id == 0));
        let mut orders: Vec<_> = s.iter().map(|p| p.seats.clone()).collect();
        orders.sort();
        orders.dedup();
        assert_eq!(orders.len(), 6);
        // Variants interleave round by round.
        let s = schedule(Format::RoundRobin, 2, &[2, 2], 4);
        let v: Vec<_> = s.iter().map(|p| p.variant).collect();
        assert_eq!(v, [0, 0, 1, 1, 0, 0, 1, 1]);
    }

    /// The lazy schedule gives exactly the games of the eager construction, whatever the format, seats
    /// (variants of different sizes drop out of later rounds) and games.
    #[test]
    fn lazy_schedule_matches_the_eager_one() {
        for format in [Format::RoundRobin, Format::Gauntlet] {
            for bots in 2..=5 {
                for seats in [&[2][..], &[3], &[2, 3], &[3, 2, 2], &[4, 2]] {
                    if seats.iter().any(|&s| s > bots) {
                        continue;
                    }
                    for games in [1, 2, 3, 7, 12, 13] {
                        let eager = schedule_eager(format, bots, seats, games);
                        let lazy = Schedule::new(format, bots, seats, games).unwrap();
                        assert_eq!(lazy.len(), eager.len() as u64);
                        let got: Vec<Pairing> = lazy.iter_from(0).collect();
                        assert_eq!(got, eager, "{format:?} {bots} bots {seats:?} {games} games");
                        assert_eq!(lazy.get(lazy.len()), None);
                        let pairs = eager.last().map_or(0, |p| p.pair_id + 1);
                        assert_eq!(lazy.pairs(), pairs);
                    }
                }
            }
        }
    }

    /// The k-th order computed alone is the k-th of the full enumeration, for every group held in full.
    #[test]
    fn orders_are_computed_as_enumerated() {
        for n in 0..=6 {
            let all = permutations(&(0..n).collect::<Vec<_>>());
            assert_eq!(all.len() as u64, group_of(n));
            for (k, o) in all.iter().enumerate() {
                assert_eq!(&nth_order(n, k as u64), o, "{n} seats, order {k}");
            }
        }
    }

    /// 12 seats: a group is the 12 rotations of one order (each bot once in each seat), not 12! games, and
    /// the schedule stores no order (issue 21: 5.4 GB, then an abort).
    #[test]
    fn many_seats_play_rotations_of_one_order() {
        let s = Schedule::new(Format::RoundRobin, 12, &[12], 24).unwrap();
        assert_eq!((s.len(), s.pairs(), s.group_size(0)), (24, 2, 12));
        let games: Vec<Pairing> = s.iter_from(0).collect();
        for group in games.chunks(12) {
            for seat in 0..12 {
                let mut bots: Vec<usize> = group.iter().map(|p| p.seats[seat]).collect();
                bots.sort();
                assert_eq!(bots, (0..12).collect::<Vec<_>>(), "seat {seat}");
            }
            assert!(group.iter().all(|p| p.pair_id == group[0].pair_id));
        }
        // The two groups start from different orders, the same ones every time.
        assert_ne!(games[0].seats, games[12].seats);
        assert_eq!(
            Schedule::new(Format::RoundRobin, 12, &[12], 24)
                .unwrap()
                .get(13),
            Some(games[13].clone())
        );
        // 7 seats is past the full groups; 6 is not.
        assert_eq!((group_of(6), group_of(7), group_of(30)), (720, 7, 30));
        let big = Schedule::new(Format::Gauntlet, 30, &[30], 1).unwrap();
        assert_eq!(big.get(0).unwrap().seats.len(), 30);
    }

    #[test]
    fn a_huge_schedule_costs_nothing_and_an_impossible_one_is_an_error() {
        let s = Schedule::new(Format::RoundRobin, 2, &[2], 4_294_967_296).unwrap();
        assert_eq!(s.len(), 4_294_967_296);
        let last = s.get(4_294_967_295).unwrap();
        assert_eq!(
            (last.pair_id, last.seats.clone()),
            (2_147_483_647, vec![1, 0])
        );
        let e = Schedule::new(Format::RoundRobin, 10, &[2], u64::MAX).unwrap_err();
        assert!(e.contains("2^64"), "{e}");
    }
}
