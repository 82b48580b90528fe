//! The learned evaluation the engine plays with ([`shipped`]): the network of [`super::net`] built in, or a
//! candidate file of either learned model named by [`WEIGHTS_VAR`] ([`Learned`]).

use std::sync::OnceLock;

use gridplay_core::Player;
use gridplay_games::checkers::bitboard::Board;

use super::{eval::Evaluate, learned::Patterns, net::Net};

/// The environment variable that names a weights file to play with instead of the shipped one.
pub const WEIGHTS_VAR: &str = "GRIDPLAY_CHECKERS_WEIGHTS";

/// A learned evaluation: the pattern tables, or the network of [`super::net`].
#[derive(Clone, Debug, PartialEq)]
pub enum Learned {
    Patterns(Patterns),
    Net(Box<Net>),
}

impl Learned {
    /// Reads a weights file of either kind (as `gridplay train checkers` writes it); an error names the file.
    pub fn read_file(path: &std::path::Path) -> Result<Learned, crate::DataError> {
        crate::data::read_with(path, |bytes| {
            if bytes.starts_with(super::net::MAGIC) {
                Net::from_bytes(bytes).map(|n| Learned::Net(Box::new(n)))
            } else if Patterns::has_header(bytes) {
                Patterns::from_bytes(bytes).map(Learned::Patterns)
            } else {
                Err(crate::DataError::format(
                    "checkers weights",
                    "neither a checkers network nor checkers pattern tables: the file starts with neither's header",
                ))
            }
        })
    }
}

impl Evaluate for Learned {
    #[inline]
    fn evaluate(&self, b: &Board, turn: Player) -> i32 {
        match self {
            Learned::Patterns(p) => p.evaluate(b, turn),
            Learned::Net(n) => n.evaluate(b, turn),
        }
    }
}

/// The evaluation the engine plays with: the shipped network (`net.bin`, made by the commands in
/// docs/engines.md), or, to measure a candidate in matches without building it in, the file named by the
/// environment variable [`WEIGHTS_VAR`], pattern tables or a network (an unreadable one is reported on
/// standard error and the shipped network is used; `gridplay` refuses to start with one).
#[must_use]
pub fn shipped() -> &'static Learned {
    static SHIPPED: OnceLock<Learned> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        std::env::var_os(WEIGHTS_VAR)
            .and_then(|path| match Learned::read_file(std::path::Path::new(&path)) {
                Ok(w) => Some(w),
                Err(e) => {
                    eprintln!("{e}; the shipped checkers network is used");
                    None
                }
            })
            .unwrap_or_else(|| {
                Learned::Net(Box::new(
                    Net::from_bytes(include_bytes!("net.bin"))
                        .expect("the shipped checkers network is well formed"),
                ))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridplay_core::{Game, Position};
    use gridplay_games::checkers::Checkers;

    #[test]
    fn the_shipped_network_reads_and_a_man_up_is_good_for_the_side_that_has_it() {
        let w = shipped();
        assert!(matches!(w, Learned::Net(_)), "the network is built in");
        let up = Checkers
            .parse_position("B:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12")
            .unwrap();
        assert!(w.evaluate(up.board(), up.turn()) > 0);
        assert!(w.evaluate(up.board(), !up.turn()) < 0);
    }

    #[test]
    fn a_weights_file_is_read_by_its_header_and_any_other_file_is_refused_naming_it() {
        let dir = std::env::temp_dir().join(format!("gridplay-learned-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let net = dir.join("net.bin");
        std::fs::write(&net, Net::random(1).to_bytes()).unwrap();
        assert!(matches!(Learned::read_file(&net), Ok(Learned::Net(_))));
        let tables = dir.join("tables.bin");
        std::fs::write(&tables, Patterns::material().to_bytes()).unwrap();
        assert!(matches!(Learned::read_file(&tables), Ok(Learned::Patterns(_))));
        let other = dir.join("other.bin");
        std::fs::write(&other, b"GPREV01\nsomething else").unwrap();
        let e = Learned::read_file(&other).unwrap_err().to_string();
        assert!(
            e.contains("other.bin") && e.contains("neither a checkers network nor"),
            "{e}"
        );
        let e = Learned::read_file(&dir.join("missing.bin"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing.bin"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
