use std::{collections::BTreeMap, fmt, str::FromStr};

use thiserror::Error;

/// A game and its settings as one string: `name` or `name:key=value,key=value`.
///
/// Examples: `reversi`, `reversi:first=white`, `cornered:size=11`. Keys are kept sorted, so two specs with the
/// same settings print the same.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSpec {
    name: String,
    settings: BTreeMap<String, String>,
}

/// A game spec that could not be read or does not name a playable game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("bad game spec `{spec}`: {reason}")]
    Syntax { spec: String, reason: String },
    #[error("unknown game `{name}`; the games are: {}", known.join(", "))]
    UnknownGame { name: String, known: Vec<String> },
    #[error("{game} has no setting `{key}`; its settings are: {}", if known.is_empty() { "none".to_owned() } else { known.join(", ") })]
    UnknownSetting {
        game: String,
        key: String,
        known: Vec<String>,
    },
    #[error("{game}: setting `{key}={value}` is invalid: expected {expected}")]
    BadValue {
        game: String,
        key: String,
        value: String,
        expected: String,
    },
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'
}

fn is_value_char(c: char) -> bool {
    c.is_ascii_graphic() && !matches!(c, ',' | ':' | '=')
}

impl GameSpec {
    /// A spec with no settings.
    #[must_use]
    pub fn new(name: impl Into<String>) -> GameSpec {
        GameSpec {
            name: name.into(),
            settings: BTreeMap::new(),
        }
    }

    /// Adds or replaces a setting.
    #[must_use]
    pub fn with(mut self, key: impl Into<String>, value: impl Into<String>) -> GameSpec {
        self.settings.insert(key.into(), value.into());
        self
    }

    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.settings.get(key).map(String::as_str)
    }

    /// The settings, sorted by key.
    pub fn settings(&self) -> impl Iterator<Item = (&str, &str)> {
        self.settings.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// A checker of this spec's settings for the game's constructor.
    #[must_use]
    pub fn reader(&self) -> Settings {
        Settings {
            game: self.name.clone(),
            remaining: self.settings.clone(),
        }
    }
}

impl FromStr for GameSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<GameSpec, SpecError> {
        let syntax = |reason: String| SpecError::Syntax {
            spec: text.to_owned(),
            reason,
        };
        let text_trimmed = text.trim();
        let (name, rest) = match text_trimmed.split_once(':') {
            Some((name, rest)) => (name, Some(rest)),
            None => (text_trimmed, None),
        };
        if name.is_empty() {
            return Err(syntax("the game name is missing".into()));
        }
        if let Some(c) = name.chars().find(|&c| !is_name_char(c)) {
            return Err(syntax(format!(
                "`{c}` cannot appear in a game name (use a-z, 0-9, - and _)"
            )));
        }
        let mut settings = BTreeMap::new();
        if let Some(rest) = rest {
            if rest.is_empty() {
                return Err(syntax(
                    "nothing follows `:`; write settings as key=value,key=value".into(),
                ));
            }
            for item in rest.split(',') {
                let Some((key, value)) = item.split_once('=') else {
                    return Err(syntax(format!("setting `{item}` has no `=`; write key=value")));
                };
                if key.is_empty() || !key.chars().all(is_name_char) {
                    return Err(syntax(format!(
                        "`{key}` is not a setting name (use a-z, 0-9, - and _)"
                    )));
                }
                if value.is_empty() || !value.chars().all(is_value_char) {
                    return Err(syntax(format!(
                        "setting `{key}` has an empty or unreadable value `{value}`"
                    )));
                }
                if settings.insert(key.to_owned(), value.to_owned()).is_some() {
                    return Err(syntax(format!("setting `{key}` is given twice")));
                }
            }
        }
        Ok(GameSpec {
            name: name.to_owned(),
            settings,
        })
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.settings.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// Reads a spec's settings one by one and refuses any that the game does not know.
///
/// ```
/// use gridplay_core::GameSpec;
///
/// let spec: GameSpec = "cornered:size=11".parse().unwrap();
/// let mut s = spec.reader();
/// assert_eq!(s.int("size", 9, 2..=25).unwrap(), 11);
/// assert_eq!(s.choice("tie", &["draw", "black"], "draw").unwrap(), "draw");
/// s.finish(&["size", "tie"]).unwrap();
/// ```
#[derive(Debug)]
pub struct Settings {
    game: String,
    remaining: BTreeMap<String, String>,
}

impl Settings {
    fn bad(&self, key: &str, value: &str, expected: String) -> SpecError {
        SpecError::BadValue {
            game: self.game.clone(),
            key: key.into(),
            value: value.into(),
            expected,
        }
    }

    /// An integer setting within `range`, or `default` when absent.
    pub fn int(
        &mut self,
        key: &str,
        default: u32,
        range: std::ops::RangeInclusive<u32>,
    ) -> Result<u32, SpecError> {
        let Some(value) = self.remaining.remove(key) else {
            return Ok(default);
        };
        let expected = || format!("a whole number from {} to {}", range.start(), range.end());
        match value.parse::<u32>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.bad(key, &value, expected())),
        }
    }

    /// One of `choices`, or `default` when absent.
    pub fn choice(
        &mut self,
        key: &str,
        choices: &[&'static str],
        default: &'static str,
    ) -> Result<&'static str, SpecError> {
        let Some(value) = self.remaining.remove(key) else {
            return Ok(default);
        };
        choices
            .iter()
            .copied()
            .find(|c| *c == value)
            .ok_or_else(|| self.bad(key, &value, format!("one of {}", choices.join(", "))))
    }

    /// A free-form setting, checked by `parse`, which returns the expectation on failure.
    pub fn text<T, E: std::fmt::Display>(
        &mut self,
        key: &str,
        default: T,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<T, SpecError> {
        let Some(value) = self.remaining.remove(key) else {
            return Ok(default);
        };
        parse(&value).map_err(|expected| self.bad(key, &value, expected.to_string()))
    }

    /// Refuses any setting that was not read. `known` lists the game's settings for the message.
    pub fn finish(self, known: &[&str]) -> Result<(), SpecError> {
        match self.remaining.into_keys().next() {
            None => Ok(()),
            Some(key) => Err(SpecError::UnknownSetting {
                game: self.game,
                key,
                known: known.iter().map(|s| (*s).to_owned()).collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_canonically() {
        let spec: GameSpec = "cornered:tie=black,size=11".parse().unwrap();
        assert_eq!(spec.to_string(), "cornered:size=11,tie=black");
        let plain: GameSpec = " reversi ".parse().unwrap();
        assert_eq!(plain.to_string(), "reversi");
    }

    #[test]
    fn refuses_malformed_specs() {
        for bad in [
            "",
            ":size=3",
            "Reversi",
            "reversi:",
            "reversi:first",
            "reversi:=x",
            "a:b=1,b=2",
            "a:b=",
        ] {
            assert!(
                matches!(bad.parse::<GameSpec>(), Err(SpecError::Syntax { .. })),
                "{bad:?} was accepted"
            );
        }
    }

    #[test]
    fn settings_reader_checks_values_and_unknown_keys() {
        let spec: GameSpec = "g:size=40".parse().unwrap();
        let err = spec.reader().int("size", 9, 2..=25).unwrap_err();
        assert_eq!(
            err.to_string(),
            "g: setting `size=40` is invalid: expected a whole number from 2 to 25"
        );
        let spec: GameSpec = "g:colour=red".parse().unwrap();
        let err = spec.reader().finish(&["size"]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "g has no setting `colour`; its settings are: size"
        );
    }
}
