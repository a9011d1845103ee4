//! The schedule: which bots play which seats in which game, with explicit game and pair ids.
//!
//! Bots meet in *encounters*: for a game of n seats, a set of n bots (round-robin: every such set; gauntlet: the
//! first bot with every set of n − 1 others). An encounter is played in *pairs* (for n seats, groups): the n!
//! orders of its bots over the seats, all from the same opening, so that no bot gains from its seat. The
//! schedule interleaves: round r holds pair r of every variant and encounter, so that a run stopped early (or
//! by the SPRT) has played every encounter about equally. Game ids and pair ids count up in that order.

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

/// Every order of `items`, starting with `items` itself, in lexicographic order of positions.
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

/// Pairs (groups of seat orders) per encounter: `games` rounded up to whole pairs of `seats`! games.
pub fn pairs_per_encounter(games: u64, seats: usize) -> u64 {
    let group = (1..=seats as u64).product::<u64>().max(1);
    games.div_ceil(group).max(1)
}

/// The whole schedule, in game-id order. `seats[v]` is the number of seats of variant v.
pub fn schedule(format: Format, bots: usize, seats: &[usize], games: u64) -> Vec<Pairing> {
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
}
