//! Free text that other people read (a tournament's name, the player names of an imported game): normalized to
//! Unicode NFC and trimmed, then refused when it is empty, too long, or holds characters that hide or disguise
//! what is shown: control characters, zero-width characters, and bidirectional overrides, embeddings and
//! isolates (a right-to-left override can make "tnemanruot" read as "tournament"). The rule is in docs/web.md.

use unicode_normalization::UnicodeNormalization;

/// Why a text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TextError {
    #[error("is empty")]
    Empty,
    #[error("has more than {0} characters")]
    TooLong(usize),
    #[error("holds an invisible or direction-changing character (U+{0:04X})")]
    Hidden(u32),
}

/// Characters that change how the text around them is shown without being seen: zero-width characters and the
/// bidirectional formatting characters (marks, embeddings, overrides, isolates).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{061C}'
                | '\u{FEFF}'
                | '\u{180E}'
        )
}

/// The text as it is stored and shown: NFC, trimmed, at most `max` characters, with nothing hidden.
pub(crate) fn clean(raw: &str, max: usize) -> Result<String, TextError> {
    let text: String = raw.nfc().collect();
    let text = text.trim();
    if let Some(c) = text.chars().find(|&c| hidden(c)) {
        return Err(TextError::Hidden(u32::from(c)));
    }
    if text.is_empty() {
        return Err(TextError::Empty);
    }
    if text.chars().count() > max {
        return Err(TextError::TooLong(max));
    }
    Ok(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_normalized_trimmed_and_refused_when_they_hide_something() {
        assert_eq!(clean("  Friday Swiss ", 60).unwrap(), "Friday Swiss");
        // "e" with a combining acute accent becomes the one character é.
        assert_eq!(clean("Cafe\u{301}", 60).unwrap(), "Café");
        assert_eq!(clean("金曜スイス式", 60).unwrap(), "金曜スイス式");
        assert_eq!(clean("   ", 60), Err(TextError::Empty));
        assert_eq!(clean("\u{200B}", 60), Err(TextError::Hidden(0x200B)));
        assert_eq!(
            clean("Official \u{202E}tnemanruot\u{202C} by admin", 60),
            Err(TextError::Hidden(0x202E))
        );
        assert_eq!(clean("a\u{2066}b", 60), Err(TextError::Hidden(0x2066)));
        assert_eq!(clean("tab\there", 60), Err(TextError::Hidden(9)));
        assert_eq!(clean("x".repeat(61).as_str(), 60), Err(TextError::TooLong(60)));
        assert_eq!(clean(&"é".repeat(60), 60).unwrap().chars().count(), 60);
    }
}
