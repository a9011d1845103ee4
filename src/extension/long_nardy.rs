//! `long-nardy`: the moves and the end of Long Nardy (Long Nardi, Russian "dlinnye nardy"), for a file that
//! gives the board, the pieces, the start and the turn order (`games/long-nardy.zrf`). Rules as the Georgian
//! Sport Nardi Federation publishes them ("Rules of the long backgammon game", geonardi.com), which agree
//! with Wikipedia ("Long Nardy") except where said:
//!
//! * Fifteen checkers each, all starting on the player's head: White's `p24`, Black's `p12`. Both move the
//!   same way round: White `p24` -> `p1`, home `p1`-`p6`; Black `p12` -> `p1` -> `p24` -> `p13`, home
//!   `p13`-`p18`.
//! * Each turn starts with a throw of two dice by the random player (`?Dice`), 36 ordered throws, doubles
//!   included from the first throw on. A double is played four times. Both numbers must be used when
//!   possible; when only one can be, the larger must be used if it can be; a player who can use none passes.
//! * No hitting: a checker may not land on a point holding any enemy checker, one is enough; there is no bar.
//! * The head rule: only one checker may leave the head in a turn, except on the player's first throw with
//!   6-6, 4-4 or 3-3, when two may (the federation's rule; Wikipedia says only "except on the first
//!   throw"; the module `long-nardy-narrow-head` allows two for 6-6 and 4-4 only, the doubles a single
//!   checker cannot play in full there, as Ludii's Azerbaijani Şeş-Beş also states it). The first throw is
//!   read from the position: all fifteen checkers still on the head (a checker never returns to it).
//! * No six-point prime: a player may not make six or more consecutive points (counted along the opponent's
//!   path) unless at least one enemy checker is already past them. Applied to each checker step: a step that
//!   makes such a block is not a legal step (so it neither counts for "use both dice" nor may be undone by a
//!   later step of the same turn).
//! * With all fifteen checkers in the home, a checker is borne off with the number of its point, or with a
//!   higher number from the highest occupied point when no checker stands higher.
//! * The first player to bear off all fifteen wins. A win before the loser has borne off any checker is a
//!   "mars" (double in match play): its end type here is `mars`, a plain win's `borne-off`; both score a
//!   win (no match score is kept).
//!
//! The machinery is backgammon's (`super::tables`), with these rules.

use super::tables::{Paths, Rules, Tables};

const RULES: Rules = Rules {
    paths: Paths::Parallel,
    hits: false,
    head_doubles: Some(&[6, 4, 3]),
    no_prime: true,
    first_double: true,
    shutout: Some((
        "mars",
        "all checkers borne off before the loser bore off any (mars)",
    )),
};

const COVERS: &[&str] = &["no-end-condition", "stacked-setup"];

/// The federation's rules (registered in `super::MODULES`).
pub static LONG_NARDY: Tables = Tables {
    name: "long-nardy",
    description: "Long Nardy (Georgian federation rules): two dice thrown by the random player, whole turns, both sides \
         the same way round, no hitting (one checker blocks), one checker off the head a turn (two on the first \
         throw with 6-6, 4-4 or 3-3), no six-point prime with no enemy checker past it, bearing off; bearing off all \
         fifteen wins (a mars when the loser bore off none)",
    rules: RULES,
    covers: COVERS,
};

/// The same with the narrower head exception: two checkers off the head on the first throw with 6-6 or 4-4.
pub static LONG_NARDY_NARROW_HEAD: Tables = Tables {
    name: "long-nardy-narrow-head",
    description: "Long Nardy with two checkers off the head on the first throw for 6-6 and 4-4 only (not 3-3); \
         otherwise as `long-nardy`",
    rules: Rules {
        head_doubles: Some(&[6, 4]),
        ..RULES
    },
    covers: COVERS,
};
