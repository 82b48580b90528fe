//! A game's settings as a person chooses them: each one's label, help, and kind (a choice, a number, an army
//! of piece kinds, or a starting layout), from which a page builds the fitting control. The kinds carry what a
//! control needs to keep bad values out (the choices, the bounds, the parts of an army and the check of its
//! composition rule, the layout's pieces); the game's constructor still checks every value it is given.

use serde::Serialize;

use crate::GameSpec;

/// One setting of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingDoc {
    /// The name in a spec: `size` in `cornered:size=11`.
    pub key: &'static str,
    /// A few words for a form's label: "Board size".
    pub label: &'static str,
    /// One sentence of help under the control.
    pub about: &'static str,
    pub kind: SettingKind,
}

/// What values a setting takes, and so which control chooses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingKind {
    /// One of a few values, each with its words.
    Choice {
        options: &'static [SettingChoice],
        default: &'static str,
    },
    /// A whole number within bounds.
    Number { min: u32, max: u32, default: u32 },
    /// How many units of each kind a side fields, written as one letter a unit (`wwhhaa`).
    Army(&'static ArmyKind),
    /// Where the pieces start: run-length rows from the top ([`crate::notation::write_rows`]).
    Layout(&'static LayoutKind),
}

/// One value of a [`SettingKind::Choice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingChoice {
    pub value: &'static str,
    /// Its words in a menu: "White moves first".
    pub label: &'static str,
}

/// An army setting: the kinds of unit and the game's composition rule.
#[derive(Clone, Copy)]
pub struct ArmyKind {
    /// Each kind of unit: the letter that writes it and the piece kind that draws it.
    pub parts: &'static [(char, &'static str)],
    /// The fewest and the most units.
    pub min: u32,
    pub max: u32,
    /// The default in words, for help texts: "6 units on 16x16, ...".
    pub default: &'static str,
    /// Another setting whose army this one copies when it is not given (the second side's army copies the
    /// first's).
    pub same_as: Option<&'static str>,
    /// The clauses of the composition rule, each in words.
    pub clauses: &'static [&'static str],
    /// The setting `key` of `spec` checked clause by clause: the army in force (the default where the spec
    /// gives none) and, for each of `clauses` in order, whether it is met.
    pub check: fn(spec: &GameSpec, key: &str) -> ArmyCheck,
}

impl std::fmt::Debug for ArmyKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArmyKind")
            .field("parts", &self.parts)
            .field("min", &self.min)
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

impl PartialEq for ArmyKind {
    fn eq(&self, other: &ArmyKind) -> bool {
        self.parts == other.parts && self.min == other.min && self.max == other.max
    }
}

impl Eq for ArmyKind {}

/// An army checked against the composition rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ArmyCheck {
    /// The army in force, as letters; empty where the value cannot be read at all.
    pub value: String,
    /// For each clause of [`ArmyKind::clauses`], whether the army meets it.
    pub met: Vec<bool>,
}

impl ArmyCheck {
    /// Whether every clause is met.
    #[must_use]
    pub fn ok(&self) -> bool {
        self.met.iter().all(|m| *m)
    }
}

/// A starting layout: the board's size and the pieces a cell may start with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LayoutKind {
    pub width: u8,
    pub height: u8,
    /// Each piece: the character that writes it, its piece kind, and its owner (`None` for a piece that
    /// belongs to nobody), as a board view shows it.
    pub pieces: &'static [LayoutPiece],
    pub default: &'static str,
}

/// A piece of a [`LayoutKind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LayoutPiece {
    pub letter: char,
    pub kind: &'static str,
    /// `first`, `second`, or `None`.
    pub owner: Option<&'static str>,
}

impl SettingDoc {
    /// What the values are, in a help text: `black|white`, `2..25`.
    #[must_use]
    pub fn values(&self) -> String {
        match self.kind {
            SettingKind::Choice { options, .. } => {
                options.iter().map(|o| o.value).collect::<Vec<_>>().join("|")
            }
            SettingKind::Number { min, max, .. } => format!("{min}..{max}"),
            SettingKind::Army(a) => {
                let letters: Vec<String> = a.parts.iter().map(|(c, kind)| format!("{c} {kind}")).collect();
                format!("{} to {} letters: {}", a.min, a.max, letters.join(", "))
            }
            SettingKind::Layout(l) => {
                let letters: String = l.pieces.iter().map(|p| p.letter).collect();
                format!("{} rows of {letters} and digits, separated by /", l.height)
            }
        }
    }

    /// The default, as a help text gives it.
    #[must_use]
    pub fn default_text(&self) -> String {
        match self.kind {
            SettingKind::Choice { default, .. } => default.to_owned(),
            SettingKind::Number { default, .. } => default.to_string(),
            SettingKind::Army(a) => a.default.to_owned(),
            SettingKind::Layout(l) => l.default.to_owned(),
        }
    }

    /// Every English text of the setting that a page shows: its label, its help, and its choices' words.
    #[must_use]
    pub fn texts(&self) -> Vec<&'static str> {
        let mut out = vec![self.label, self.about];
        match self.kind {
            SettingKind::Choice { options, .. } => out.extend(options.iter().map(|o| o.label)),
            SettingKind::Army(a) => out.extend(a.clauses),
            SettingKind::Number { .. } | SettingKind::Layout(_) => {}
        }
        out
    }
}
