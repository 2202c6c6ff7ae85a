//! The one error type of the crate. Every failure that reaches a user is an [`Error`], printed
//! once by `main` as a single line, and mapped to exit code 2 (bad input or usage).

use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong outside a search: reading files, parsing, validating.
#[derive(Debug)]
pub enum Error {
    /// A file could not be read or written.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file is not the JSON it should be (syntax, missing field, wrong type).
    Json {
        path: PathBuf,
        source: serde_json::Error,
    },
    /// A file parsed but its content breaks a rule (e.g. a filled cell off the board).
    Invalid { path: PathBuf, what: String },
    /// A command-line usage mistake that clap cannot see (e.g. an unknown scoring system).
    Usage(String),
}

impl Error {
    pub fn invalid(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        Error::Invalid {
            path: path.into(),
            what: what.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {}", path.display(), source),
            Error::Json { path, source } => {
                write!(f, "{}: invalid JSON: {}", path.display(), source)
            }
            Error::Invalid { path, what } => write!(f, "{}: {}", path.display(), what),
            Error::Usage(msg) => write!(f, "{msg}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Json { source, .. } => Some(source),
            _ => None,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
