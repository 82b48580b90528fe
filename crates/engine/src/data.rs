//! Why the engines' data (weights, books, samples, tables, problem files) could not be read or written.

use std::path::{Path, PathBuf};

/// Why engine data could not be read or written: the file, or what is wrong with its content.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The content is not of its format (a header, a length, a record), as `reason` says.
    #[error("{format}: {reason}")]
    Format { format: &'static str, reason: String },
    /// A line of a text format could not be read (`line` from 1).
    #[error("{format}, line {line}: {reason}")]
    Line {
        format: &'static str,
        line: usize,
        reason: String,
    },
    /// What is wrong with the content of the file at `path`.
    #[error("{}: {source}", path.display())]
    In {
        path: PathBuf,
        #[source]
        source: Box<DataError>,
    },
}

impl DataError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> DataError {
        DataError::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// The content is not of `format`.
    pub fn format(format: &'static str, reason: impl Into<String>) -> DataError {
        DataError::Format {
            format,
            reason: reason.into(),
        }
    }

    /// Line `line` (from 1) of a text of `format`.
    pub fn line(format: &'static str, line: usize, reason: impl Into<String>) -> DataError {
        DataError::Line {
            format,
            line,
            reason: reason.into(),
        }
    }

    /// This error, about the content of the file at `path`.
    #[must_use]
    pub fn in_file(self, path: &Path) -> DataError {
        match self {
            e @ (DataError::Io { .. } | DataError::In { .. }) => e,
            e => DataError::In {
                path: path.to_owned(),
                source: Box::new(e),
            },
        }
    }
}

/// Reads the file at `path`, then its bytes with `parse`; an error names the file.
pub(crate) fn read_with<T>(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<T, DataError>,
) -> Result<T, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::io(path, e))?;
    parse(&bytes).map_err(|e| e.in_file(path))
}
