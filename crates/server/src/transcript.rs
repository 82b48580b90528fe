//! Games as text files: export in each game's own format and import back into a replay. The format is the
//! game module's [`gridplay_core::Codec`]; a file names its game with a `Game` tag, and a file without one is
//! read by the first game whose format recognizes it (a PDN file, a bare transcript).

use gridplay_core::{CodecError, DynGame, GameRecord, Outcome, Registry, codec};

/// The largest file read, in KiB.
const MAX_KIB: usize = 256;

/// A game read from a file.
#[derive(Debug)]
pub struct Imported {
    pub spec: String,
    pub game: Box<dyn DynGame>,
    pub record: GameRecord,
    /// First and second player's names as the file gives them.
    pub names: [Option<String>; 2],
    /// The result the file states, which may be a resignation or an agreed draw the moves do not show.
    pub result: Option<Outcome>,
}

/// The file name and text of a game.
#[must_use]
pub fn export(
    registry: &Registry,
    id: &str,
    spec: &str,
    names: [&str; 2],
    record: &GameRecord,
    termination: Option<&str>,
) -> (String, String) {
    let mut tags = vec![
        ("Event".to_owned(), "gridplay".to_owned()),
        ("Site".to_owned(), format!("gridplay game {id}")),
        ("Game".to_owned(), spec.to_owned()),
        ("First".to_owned(), names[0].to_owned()),
        ("Second".to_owned(), names[1].to_owned()),
    ];
    if let Some(t) = termination {
        tags.push(("Termination".to_owned(), t.to_owned()));
    }
    let parsed = spec.parse::<gridplay_core::GameSpec>().ok();
    let codec = registry
        .entry(parsed.as_ref().map_or(spec, gridplay_core::GameSpec::name))
        .map_or(&codec::MoveListCodec as &dyn gridplay_core::Codec, |e| {
            e.module.codec
        });
    (format!("{id}.{}", codec.extension()), codec.write(&tags, record))
}

/// Reads a game file in the format of the game its `Game` tag names, or of the first game whose format
/// recognizes it.
pub fn import(registry: &Registry, text: &str) -> Result<Imported, CodecError> {
    if text.len() > MAX_KIB * 1024 {
        return Err(CodecError::TooLarge(MAX_KIB));
    }
    let tags = codec::read_tags(text)?;
    let game = match codec::tag(&tags, "Game") {
        Some(spec) => registry
            .game(&spec)
            .map_err(|e| CodecError::Game(e.to_string()))?,
        None => {
            let body = codec::strip_tags(text);
            let entry = registry
                .entries()
                .iter()
                .find(|e| e.module.codec.recognizes(&tags, &body))
                .ok_or(CodecError::UnknownFormat)?;
            registry
                .game(entry.name)
                .map_err(|e| CodecError::Game(e.to_string()))?
        }
    };
    let name = game.info().name;
    let codec = registry
        .entry(&name)
        .ok_or(CodecError::UnknownFormat)?
        .module
        .codec;
    let file = codec.read(game.as_ref(), text)?;
    Ok(Imported {
        spec: game.spec().to_string(),
        game,
        record: file.record,
        names: file.names,
        result: file.result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_round_trips_through_its_file() {
        let registry = gridplay_games::registry_with_test_games();
        let mut rng = gridplay_core::playout::seeded(7);
        for entry in registry.entries() {
            let game = registry.game(entry.name).unwrap();
            let spec = entry.name;
            let mut rec = GameRecord::new(game.start());
            for _ in 0..60 {
                if rec.outcome().is_some() {
                    break;
                }
                let mv = rec.position().random_move(&mut rng).unwrap();
                rec.play(&mv).unwrap();
            }
            let (name, text) = export(
                registry,
                "abc",
                &game.spec().to_string(),
                ["ann", "ben"],
                &rec,
                None,
            );
            assert_eq!(name, format!("abc.{}", entry.module.codec.extension()));
            let back = import(registry, &text).unwrap_or_else(|e| panic!("{spec}: {e}\n{text}"));
            assert_eq!(back.record.moves(), rec.moves(), "{spec}\n{text}");
            assert_eq!(back.names, [Some("ann".into()), Some("ben".into())], "{spec}");
            assert_eq!(back.spec, game.spec().to_string());
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_reason() {
        let registry = gridplay_games::registry_with_test_games();
        let game = registry.entries()[0].name;
        for (text, why) in [
            ("[Game \"chess\"]\n\ne4 e5".to_owned(), "chess"),
            (format!("[Game \"{game}\"]\n\nzz9"), "move 1"),
            (format!("[Game {game}]\n"), "quotes"),
            ("hello world".to_owned(), "no Game tag"),
            ("x".repeat(300 * 1024), "larger than 256 KiB"),
        ] {
            let e = import(registry, &text).expect_err(&text).to_string();
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
