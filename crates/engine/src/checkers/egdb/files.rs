//! Saved databases: a file a slice, deflated, and a file that marks the database complete; where they live;
//! and the database the search shares.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    sync::{
        OnceLock,
        atomic::{AtomicBool, Ordering},
    },
};

use super::{Counts, Database, MAX_PIECES, Slice, Solved};
use crate::DataError;

const FILE_MAGIC: &[u8; 8] = b"GPCKWLD1";
const COMPLETE: &str = "complete";

impl Database {
    /// Writes each slice deflated to a file of its own in `dir` (made if missing), and last a file that marks
    /// the database complete.
    ///
    /// # Errors
    /// The file system's error, with the path.
    pub fn save(&self, dir: &Path) -> Result<(), DataError> {
        let fail = DataError::io;
        std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
        for s in Slice::all(self.pieces) {
            let Some(solved) = self.solved(&s) else {
                continue;
            };
            let path = dir.join(s.file_name());
            let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            enc.write_all(&solved.bits).map_err(|e| fail(&path, e))?;
            let body = enc.finish().map_err(|e| fail(&path, e))?;
            let mut file = Vec::with_capacity(body.len() + 40);
            file.extend_from_slice(FILE_MAGIC);
            for c in [solved.counts.won, solved.counts.lost, solved.counts.drawn] {
                file.extend_from_slice(&c.to_le_bytes());
            }
            file.extend_from_slice(&(solved.bits.len() as u64).to_le_bytes());
            file.extend_from_slice(&body);
            std::fs::write(&path, file).map_err(|e| fail(&path, e))?;
        }
        let marker = dir.join(COMPLETE);
        std::fs::write(&marker, format!("pieces {}\n", self.pieces)).map_err(|e| fail(&marker, e))
    }

    /// Reads a database that [`Database::save`] wrote.
    ///
    /// # Errors
    /// A missing or unreadable file, or one that is not a slice of this database, named with its path.
    pub fn load(dir: &Path) -> Result<Database, DataError> {
        let marker = dir.join(COMPLETE);
        let text = std::fs::read_to_string(&marker).map_err(|e| DataError::io(&marker, e))?;
        let pieces = text
            .trim()
            .strip_prefix("pieces ")
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| (2..=MAX_PIECES).contains(n))
            .ok_or_else(|| {
                DataError::format(
                    "checkers database",
                    format!("not \"pieces N\" with N from 2 to {MAX_PIECES}"),
                )
                .in_file(&marker)
            })?;
        let mut db = Database::empty(pieces);
        for s in Slice::all(pieces) {
            let path = dir.join(s.file_name());
            let bad = |why: &str| DataError::format("checkers database slice", why).in_file(&path);
            let file = std::fs::read(&path).map_err(|e| DataError::io(&path, e))?;
            if file.len() < 40 || &file[..8] != FILE_MAGIC {
                return Err(bad("not a gridplay checkers database slice"));
            }
            let word =
                |k: usize| u64::from_le_bytes(file[8 + 8 * k..16 + 8 * k].try_into().expect("8 bytes"));
            let counts = Counts {
                won: word(0),
                lost: word(1),
                drawn: word(2),
            };
            let len = s.size().div_ceil(4);
            if word(3) != len as u64 {
                return Err(bad(&format!("{} bytes, where the slice has {len}", word(3))));
            }
            let mut bits = Vec::with_capacity(len);
            flate2::read::DeflateDecoder::new(&file[40..])
                .read_to_end(&mut bits)
                .map_err(|e| bad(&e.to_string()))?;
            if bits.len() != len {
                return Err(bad(&format!(
                    "{} bytes inflated, where the slice has {len}",
                    bits.len()
                )));
            }
            db.slices[s.code().expect("within MAX_PIECES")] = Some(Solved { bits, counts });
        }
        Ok(db)
    }
}

/// Where `gridplay egdb` saves the databases and the engine looks for them: `$GRIDPLAY_EGDB` if set, else
/// `gridplay/checkers-egdb` under `$XDG_DATA_HOME` or `~/.local/share`.
#[must_use]
pub fn default_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("GRIDPLAY_EGDB") {
        return Some(PathBuf::from(dir));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("gridplay/checkers-egdb"))
}

/// The pieces of the database the engine builds itself when none was saved.
pub const SEARCH_PIECES: u32 = 4;

/// The database the search uses, once it is ready. The first call starts, on a thread of its own, reading the
/// one saved in [`default_dir`] (by `gridplay egdb`) or, if there is none (or a smaller one), building that of
/// [`SEARCH_PIECES`] pieces (two seconds of one core); it returns `None`, as every call does until the
/// database is ready: a search never waits for it.
#[must_use]
pub fn shared() -> Option<&'static Database> {
    static DB: OnceLock<Database> = OnceLock::new();
    static STARTED: AtomicBool = AtomicBool::new(false);
    if let Some(db) = DB.get() {
        return Some(db);
    }
    if !STARTED.swap(true, Ordering::Relaxed) {
        let spawned = std::thread::Builder::new()
            .name("checkers-egdb".into())
            .spawn(|| {
                let saved = default_dir()
                    .and_then(|dir| Database::load(&dir).ok())
                    .filter(|db| db.pieces() >= SEARCH_PIECES);
                let _ = DB.set(saved.unwrap_or_else(|| Database::build(SEARCH_PIECES)));
            });
        if spawned.is_err() {
            STARTED.store(false, Ordering::Relaxed);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_database_reads_back_and_a_damaged_one_is_refused() {
        let db = Database::build(3);
        let dir = std::env::temp_dir().join(format!("gridplay-egdb-test-{}", std::process::id()));
        db.save(&dir).unwrap();
        let back = Database::load(&dir).unwrap();
        assert_eq!(back.pieces(), 3);
        for s in Slice::all(3) {
            assert_eq!(back.solved(&s).unwrap().counts, db.solved(&s).unwrap().counts);
            assert_eq!(back.solved(&s).unwrap().bits, db.solved(&s).unwrap().bits);
        }
        let slice = Slice {
            red_men: 0,
            red_kings: 2,
            white_men: 0,
            white_kings: 1,
        };
        let path = dir.join(slice.file_name());
        let mut file = std::fs::read(&path).unwrap();
        file.truncate(file.len() / 2);
        std::fs::write(&path, &file).unwrap();
        let err = Database::load(&dir).unwrap_err().to_string();
        assert!(err.contains("r02w01.wld"), "{err}");
        std::fs::remove_file(&path).unwrap();
        let err = Database::load(&dir).unwrap_err().to_string();
        assert!(err.contains("r02w01.wld"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
