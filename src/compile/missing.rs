//! Rules a game file asks for that the engine does not apply: options it does not know, sections it does not
//! know, and the lack of any end condition. The compiler lists them on [`Game::missing_rules`](super::Game)
//! once, and every command reads that list: `check` prints it, `session` answers it in `info`, `perft` warns,
//! `playout` and `tournament` refuse the game unless told to play without them (`--allow-missing-rules`).
//!
//! The line between a rule and a screen setting is drawn here, in two lists: options and sections that only
//! change what a screen shows or how a program plays are accepted and ignored; any other name the engine does
//! not know is taken to be a rule, because a rule dropped without a word gives confident, wrong statistics
//! while a screen setting flagged by mistake costs one flag on the command line.

use crate::lang::{SourceMap, Span};

/// Options that only concern a screen, a sound or a program's own play; never the rules. Names as
/// `option_key` spells them (lower case, dashes and underscores as spaces).
pub const UI_OPTIONS: &[&str] = &[
    // Zillions: animation and sound.
    "animate",
    "animate captures",
    "animate drops",
    "animate flips",
    "animate moves",
    "animate transfers",
    "sounds",
    // Zillions: how moves are entered and shown.
    "smart moves",
    "smart drops",
    "smart to",
    "show moves list",
    "show captures",
    "show hints",
    "show goals",
    "highlight goals",
    "highlight moves",
    "hide pieces",
    "remove pieces",
    // How the random player's moves are shown (not announced); the moves are the same.
    "silent ? moves",
    // Flipping the board on screen.
    "prevent flipping",
    "allow flipping",
    // Menus, levels and the program's own search.
    "progressive levels",
    "allow the computer to play as",
    "board colors",
    "ai",
    "selection screen",
    "tutorial",
    // Dagaz: the blinking of the last move.
    "show blink",
];

/// Game sections that only concern a screen (the older form of some UI options): accepted and ignored. The
/// sections kept as metadata (`title`, `description`, sounds, ...) are listed by the compiler.
pub const UI_SECTIONS: &[&str] = &["allow-flipping"];

/// Forms of a `(piece ...)` that only concern a screen or a reader: accepted and ignored.
pub const UI_PIECE_FORMS: &[&str] = &["help", "description", "image", "glyph"];

/// What kind of rule is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MissingKind {
    /// `(option "name" value)` with a name the engine does not know, set to anything but false.
    Option,
    /// A section of the game the engine does not know.
    Section,
    /// A form inside a `(piece ...)` the engine does not know.
    PieceForm,
    /// A form at the top level of the file (outside any game) the reader does not know: it applies to every
    /// game of the file.
    TopLevelForm,
    /// No win, loss, draw or count condition at all: only the move limit (or a player left without a move)
    /// ends the game.
    NoEndCondition,
    /// Several pieces set up on one position in a game without `(stacks)`: only the last one stays.
    StackedSetup,
    /// Dice that the player to move drops itself, in a game without a random player: it would choose its own
    /// throw (`compile/outside.rs`). `name` is the dice zone, `value` the die's piece.
    MoverDice,
    /// A `Seed` moved one pit, in a game that sows nowhere: the sowing is outside the file
    /// (`compile/outside.rs`). `name` is the piece.
    SeedSteps,
    /// A rule script that the Dagaz site's page of this file loads, which nothing here applies
    /// (`compile::dagaz_site`).
    Script,
}

impl MissingKind {
    /// The kind as a data field (`session`, `check --json`): `option`, `section`, `piece-form`,
    /// `no-end-condition`.
    pub fn as_str(self) -> &'static str {
        match self {
            MissingKind::Option => "option",
            MissingKind::Section => "section",
            MissingKind::PieceForm => "piece-form",
            MissingKind::TopLevelForm => "top-level-form",
            MissingKind::NoEndCondition => "no-end-condition",
            MissingKind::StackedSetup => "stacked-setup",
            MissingKind::MoverDice => "mover-dice",
            MissingKind::SeedSteps => "seed-steps",
            MissingKind::Script => "dagaz-script",
        }
    }

    /// The kind in words.
    pub fn words(self) -> &'static str {
        match self {
            MissingKind::Option => "option",
            MissingKind::Section => "section",
            MissingKind::PieceForm => "piece form",
            MissingKind::TopLevelForm => "top-level form",
            MissingKind::NoEndCondition => "no end condition",
            MissingKind::StackedSetup => "several pieces set up on position",
            MissingKind::MoverDice => "dice dropped by the player to move into zone",
            MissingKind::SeedSteps => "sowing, for the one-pit steps of piece",
            MissingKind::Script => "Dagaz rule script",
        }
    }
}

/// One rule of the file the engine does not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingRule {
    pub kind: MissingKind,
    /// The option's or section's name as written (`xiangqi-extension`); empty for `NoEndCondition`.
    pub name: String,
    /// An option's value as written (`true`, `situation`); empty otherwise.
    pub value: String,
    /// Where the file asks for it (after macro expansion: the call site); the game form for `NoEndCondition`.
    pub span: Span,
    /// `path:line:col` of `span`, filled in by the loader, which has the sources; empty until then.
    pub location: String,
}

impl MissingRule {
    pub fn new(kind: MissingKind, name: &str, value: &str, span: Span) -> MissingRule {
        MissingRule {
            kind,
            name: name.to_string(),
            value: value.to_string(),
            span,
            location: String::new(),
        }
    }

    /// What is missing, without its place: `option "xiangqi-extension"`, `no end condition`. The key by which
    /// the corpus figures group files.
    pub fn what(&self) -> String {
        match self.kind {
            MissingKind::NoEndCondition => self.kind.words().to_string(),
            k => format!("{} \"{}\"", k.words(), self.name),
        }
    }

    /// The same with the option's value: `option "ko" = situation`.
    pub fn what_with_value(&self) -> String {
        if self.value.is_empty() || self.kind == MissingKind::MoverDice {
            self.what()
        } else {
            format!("{} = {}", self.what(), self.value)
        }
    }

    /// A clause for messages: `the engine does not apply option "ko"`, `the game has no end condition`.
    pub fn clause(&self) -> String {
        match self.kind {
            MissingKind::NoEndCondition => {
                "the game has no end condition (win, loss, draw or count): only the move limit ends it".into()
            }
            MissingKind::StackedSetup => format!(
                "several pieces are set up on position {} and the game does not declare `(stacks)`: only the \
                 last stays",
                self.name
            ),
            MissingKind::MoverDice => format!(
                "the dice are drops of the player to move (piece `{}` into zone `{}`), so that player would \
                 choose its own throw: the file has no random (`?`) player, and the throw is left to code \
                 outside it (a Dagaz script); no extension module that throws these dice is attached",
                self.value, self.name
            ),
            MissingKind::SeedSteps => format!(
                "piece `{}` moves one pit at a time and nothing in the file sows: the sowing, captures and end \
                 of this mancala are left to code outside it (Dagaz scripts); no extension module that sows \
                 for this file is attached",
                self.name
            ),
            _ => format!("the engine does not apply {}", self.what()),
        }
    }

    /// The 1-based line of `location`, if it has one.
    pub fn line(&self) -> Option<usize> {
        self.location.rsplit(':').nth(1)?.parse().ok()
    }

    /// `(line 12)` when the rule is written in `file` itself, `(other.zrf:12)` when in a file it includes.
    fn place_in(&self, file: &str) -> String {
        let Some(line) = self.line() else {
            return String::new();
        };
        let path = self.path();
        if path == file {
            format!(" (line {line})")
        } else {
            format!(" ({path}:{line})")
        }
    }

    /// The path part of `location`.
    fn path(&self) -> &str {
        let mut it = self.location.rsplitn(3, ':');
        let (_col, _line) = (it.next(), it.next());
        it.next().unwrap_or("")
    }
}

/// The rules a whole file misses, outside its games: the top-level forms the reader ignored.
pub fn of_file(file: &crate::lang::ReadFile) -> Vec<MissingRule> {
    file.ignored_forms
        .iter()
        .map(|(what, span)| MissingRule::new(MissingKind::TopLevelForm, what, "", *span))
        .collect()
}

/// Fills in the `location` of each rule from the sources its spans point into.
pub fn locate(rules: &mut [MissingRule], sources: &SourceMap) {
    for r in rules {
        if sources.contains(r.span.file) {
            r.location = sources.location(r.span);
        }
    }
}

/// The distinct rules of several games (variants of one file), in first-seen order.
pub fn distinct<'a>(rules: impl IntoIterator<Item = &'a MissingRule>) -> Vec<&'a MissingRule> {
    let mut out: Vec<&MissingRule> = vec![];
    for r in rules {
        if !out
            .iter()
            .any(|o| o.kind == r.kind && o.name == r.name && o.location == r.location)
        {
            out.push(r);
        }
    }
    out
}

/// The one line with which `playout` and `tournament` refuse a game that misses rules: `games/x.zrf: the
/// engine does not apply option "xiangqi-extension" (line 12); pass --allow-missing-rules to play without it`.
pub fn refusal(file: &str, rules: &[&MissingRule]) -> String {
    let clauses: Vec<String> = rules
        .iter()
        .map(|r| format!("{}{}", r.clause(), r.place_in(file)))
        .collect();
    let only_no_end = rules.iter().all(|r| r.kind == MissingKind::NoEndCondition);
    format!(
        "{file}: {}; pass --allow-missing-rules to play {}",
        clauses.join("; "),
        match (only_no_end, rules.len()) {
            (true, _) => "it anyway",
            (false, 1) => "without it",
            (false, _) => "without them",
        }
    )
}

/// The warning when a run goes on anyway: `games/x.zrf: playing without option "ko" (line 60)`.
pub fn playing_without(file: &str, rules: &[&MissingRule]) -> String {
    let items: Vec<String> = rules
        .iter()
        .map(|r| match r.kind {
            MissingKind::NoEndCondition => format!("any end condition{}", r.place_in(file)),
            _ => format!("{}{}", r.what(), r.place_in(file)),
        })
        .collect();
    format!("{file}: playing without {}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::source::FileId;

    fn rule(kind: MissingKind, name: &str, location: &str) -> MissingRule {
        MissingRule {
            location: location.into(),
            ..MissingRule::new(kind, name, "true", Span::new(FileId(0), 0, 0))
        }
    }

    #[test]
    fn the_refusal_names_each_rule_and_its_line() {
        let a = rule(MissingKind::Option, "xiangqi-extension", "games/x.zrf:12:5");
        let b = rule(MissingKind::Section, "ko-rule", "games/inc.zrf:3:1");
        assert_eq!(
            refusal("games/x.zrf", &[&a]),
            "games/x.zrf: the engine does not apply option \"xiangqi-extension\" (line 12); \
             pass --allow-missing-rules to play without it"
        );
        let two = refusal("games/x.zrf", &[&a, &b]);
        assert!(
            two.contains("section \"ko-rule\" (games/inc.zrf:3); pass") && two.ends_with("them"),
            "{two}"
        );
        let none = rule(MissingKind::NoEndCondition, "", "C:\\g\\hex.zrf:2:1");
        assert_eq!(none.line(), Some(2));
        assert_eq!(none.what(), "no end condition");
    }

    #[test]
    fn distinct_drops_the_same_rule_seen_in_another_variant() {
        let a = rule(MissingKind::Option, "ko", "x.zrf:1:1");
        let b = rule(MissingKind::Option, "ko", "x.zrf:1:1");
        let c = rule(MissingKind::Option, "ko", "x.zrf:9:1");
        assert_eq!(distinct([&a, &b, &c]).len(), 2);
    }
}
