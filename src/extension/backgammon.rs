//! `backgammon`: the moves and the end of standard backgammon, for a file that gives the board, the pieces,
//! the start and the turn order (`games/backgammon.zrf`). Rules as published by the World Backgammon
//! Federation / US Backgammon Federation ("Rules of Backgammon"; also Wikipedia, "Backgammon"):
//!
//! * Each turn starts with a throw of two dice; the throw is the move of the random player (`?Dice`), one
//!   move per ordered pair of numbers (36), so that a uniform choice gives each throw its real probability.
//!   The first throw of the game is never a double (the opening throw is thrown again on a tie).
//! * A checker moves exactly the number of a die towards its home, to a point that is not held by two or more
//!   enemy checkers. Landing on a single enemy checker (a blot) hits it: it goes to its owner's bar.
//! * A player with a checker on the bar must enter it, into the opponent's home board (the point 25 - n in
//!   the player's own count), before moving any other checker; a closed point cannot be entered.
//! * A double is played four times. Both numbers must be used when possible; when only one can be, the
//!   larger must be used if it can be; a player who can use no number loses the turn (a pass).
//! * With all fifteen checkers in the home board (points 1-6), a checker is borne off with the number of its
//!   point, or with a higher number from the highest occupied point. A checker hit in the meantime must come
//!   home again before bearing off goes on.
//! * The first player to bear off all fifteen checkers wins. No doubling cube; a gammon or backgammon is a
//!   plain win.
//!
//! The machinery (the layout the file must give, the turn as one move, the notation) is shared with
//! `long-nardy` in `super::tables`; this file gives backgammon's rules to it.

use super::tables::{Paths, Rules, Tables};

/// The module (registered in `super::MODULES`).
pub static BACKGAMMON: Tables = Tables {
    name: "backgammon",
    description: "backgammon: throws of two dice by the random player, whole turns with hits, the bar, bearing off and the \
         use of both dice; bearing off all fifteen wins",
    rules: Rules {
        paths: Paths::Opposite,
        hits: true,
        head_doubles: None,
        no_prime: false,
        first_double: false,
        shutout: None,
    },
    // `setup` reads a point listed n times in the board setup as n checkers (the `count` attribute).
    covers: &["no-end-condition", "stacked-setup"],
};
