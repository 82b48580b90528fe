//! The Multi-ProbCut regression of the Reversi search ([`super::search`]): for each stage and depth, how a
//! shallow search's score predicts a deep one's (the mean and deviation of the deep score less the shallow
//! one). `gridplay train reversi-probcut` fits it (`super::probcut_fit`) and the result ships in
//! `probcut.txt`.

use std::sync::OnceLock;

use crate::DataError;

/// One fitted pair: at `depth` with this many empties, a search to `shallow` predicts the deep score as the
/// shallow one plus `mean`, with a standard deviation of `sigma` (hundredths of a disc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub shallow: u32,
    pub mean: i32,
    pub sigma: i32,
}

/// The stage buckets of the regression, by empty squares.
pub const BUCKETS: usize = 7;
/// The environment variable that names a regression file to search with instead of the shipped one.
pub const PROBCUT_VAR: &str = "GRIDPLAY_REVERSI_PROBCUT";

/// The shallowest and deepest depths that use the cut.
pub const PROBCUT_MIN_DEPTH: u32 = 2;
pub const PROBCUT_MAX_DEPTH: usize = 24;

/// The regression's bucket of a position with `empties` empty squares.
#[must_use]
pub fn bucket(empties: u32) -> usize {
    (empties.saturating_sub(19) / 6).min(BUCKETS as u32 - 1) as usize
}

/// The shallow depth that predicts `depth`: about half of it, of the same parity.
#[must_use]
pub fn shallow_depth(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// Which shallow depth predicts each deep one in a fit (`probcut.txt` names the shallow depth of each line,
/// so the search follows whichever the file holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// [`shallow_depth`]: about half the depth, of the same parity.
    Half,
    /// NTest's table (`kMPCCuts` in its `MPCStats.h`, the first check of each depth): about a third of the depth.
    Third,
}

impl Checks {
    /// The name of the rule on the command line (`--checks`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Checks::Half => "half",
            Checks::Third => "third",
        }
    }

    /// The rule named `name` ([`Checks::name`]).
    ///
    /// # Errors
    ///
    /// What the names are.
    pub fn parse(name: &str) -> Result<Checks, UnknownChecks> {
        [Checks::Half, Checks::Third]
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| UnknownChecks(name.to_owned()))
    }

    /// The shallow depth for `depth`.
    #[must_use]
    pub fn shallow(self, depth: u32) -> u32 {
        match self {
            Checks::Half => shallow_depth(depth),
            Checks::Third => {
                const NTEST: [u32; 31] = [
                    0, 0, 0, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 8, 9, 8, 9, 10, 9, 10,
                    11, 10,
                ];
                NTEST.get(depth as usize).copied().unwrap_or(depth / 3)
            }
        }
    }
}

/// A name that is not one of [`Checks`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a rule: `half` or `third`")]
pub struct UnknownChecks(pub String);

/// The fitted regression, by bucket and depth.
#[derive(Debug)]
pub struct ProbCut {
    pairs: [[Option<Pair>; PROBCUT_MAX_DEPTH + 1]; BUCKETS],
}

impl ProbCut {
    /// Reads the text of `probcut.txt`: `#` comments, then lines `bucket depth shallow mean sigma`. Depths past
    /// the deepest fitted one take the deepest fitted pair of the same parity, its shallow depth moved along.
    pub fn parse(text: &str) -> Result<ProbCut, DataError> {
        let mut pairs = [[None; PROBCUT_MAX_DEPTH + 1]; BUCKETS];
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: String| DataError::line("probcut regression", n + 1, why);
            let v: Vec<i64> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .map_err(|e| bad(format!("{e}")))?;
            let [b, d, s, mean, sigma] = v[..] else {
                return Err(bad("five numbers expected".into()));
            };
            if !(0..BUCKETS as i64).contains(&b)
                || !(1..=PROBCUT_MAX_DEPTH as i64).contains(&d)
                || s < 0
                || s >= d
            {
                return Err(bad("bucket, depth or shallow depth out of range".into()));
            }
            if sigma <= 0 {
                return Err(bad("the deviation must be positive".into()));
            }
            pairs[b as usize][d as usize] = Some(Pair {
                shallow: s as u32,
                mean: mean as i32,
                sigma: sigma as i32,
            });
        }
        for row in &mut pairs {
            for d in 1..=PROBCUT_MAX_DEPTH {
                if row[d].is_none()
                    && d >= 2
                    && let Some(p) = row[d - 2]
                {
                    row[d] = Some(Pair {
                        shallow: p.shallow + shallow_depth(d as u32) - shallow_depth(d as u32 - 2),
                        ..p
                    });
                }
            }
        }
        Ok(ProbCut { pairs })
    }

    /// The regression the search cuts by: the shipped one, or, to measure a candidate in matches without
    /// building it in, the file named by the environment variable [`PROBCUT_VAR`] (an unreadable one is
    /// reported on standard error and the shipped regression is used; `gridplay` refuses to start with one).
    pub fn shipped() -> &'static ProbCut {
        static SHIPPED: OnceLock<ProbCut> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            if let Some(path) = std::env::var_os(PROBCUT_VAR) {
                match ProbCut::read_file(std::path::Path::new(&path)) {
                    Ok(p) => return p,
                    Err(e) => eprintln!("{e}; the shipped regression is used"),
                }
            }
            ProbCut::parse(include_str!("probcut.txt")).expect("the shipped probcut.txt is valid")
        })
    }

    /// Reads a regression file.
    ///
    /// # Errors
    ///
    /// The file and what is wrong with it.
    pub fn read_file(path: &std::path::Path) -> Result<ProbCut, DataError> {
        let text = std::fs::read_to_string(path).map_err(|e| DataError::io(path, e))?;
        ProbCut::parse(&text).map_err(|e| e.in_file(path))
    }

    pub(super) fn pair(&self, empties: u32, depth: u32) -> Option<Pair> {
        self.pairs[bucket(empties)].get(depth as usize).copied().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_name_a_shallower_search_of_the_same_parity() {
        for depth in PROBCUT_MIN_DEPTH..=PROBCUT_MAX_DEPTH as u32 {
            for checks in [Checks::Half, Checks::Third] {
                let s = checks.shallow(depth);
                assert!(s < depth && (s >= 1 || depth == 2), "{checks:?} {depth} from {s}");
                assert_eq!(s % 2, depth % 2, "{checks:?} {depth} from {s}");
            }
            assert!(Checks::Third.shallow(depth) <= Checks::Half.shallow(depth));
        }
        assert_eq!(Checks::Third.shallow(16), 6);
        for checks in [Checks::Half, Checks::Third] {
            assert_eq!(Checks::parse(checks.name()), Ok(checks));
        }
        assert!(
            Checks::parse("quarter")
                .unwrap_err()
                .to_string()
                .contains("`half` or `third`")
        );
        assert_eq!(Checks::Half.shallow(16), 8);
    }

    #[test]
    fn the_shipped_regression_is_read_and_bad_text_refused() {
        let t = ProbCut::shipped();
        assert!(t.pair(40, 8).is_some());
        assert!(ProbCut::parse("0 8 4 10").is_err());
        assert!(ProbCut::parse("9 8 4 10 100").is_err());
        assert!(ProbCut::parse("0 8 9 10 100").is_err());
        assert!(ProbCut::parse("0 8 4 10 0").is_err());
        let p = ProbCut::parse("# c\n2 8 4 -30 250\n").unwrap();
        assert_eq!(
            p.pair(32, 8),
            Some(Pair {
                shallow: 4,
                mean: -30,
                sigma: 250
            })
        );
        assert_eq!(
            p.pair(32, 10).map(|p| p.shallow),
            Some(4 + shallow_depth(10) - shallow_depth(8))
        );
    }
}
