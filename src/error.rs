//! The crate's one error type: every rejected input names the parameter, the value and the reason. It
//! crosses the worker boundary as it is (serde), so the page shows a worker's refusal as the core
//! wrote it.

use std::borrow::Cow;
use std::fmt;

/// Why a computation refused its input. Display gives a sentence a user can act on.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Error {
    /// A parameter was out of its domain (NaN, infinite, negative, too large, …).
    InvalidParameter {
        /// The parameter's name as it appears in the query string (`eps`, `k`, …).
        name: Cow<'static, str>,
        /// The offending value as the user wrote it (or as it was computed).
        value: String,
        /// What the value must be, as a sentence fragment ("must be a finite number > 0").
        reason: String,
    },
    /// A message between the page and a worker could not be read (a worker built from other sources).
    Wire {
        /// What the decoder said.
        reason: String,
    },
    /// A worker could not run the job at all (its module did not load, or it crashed).
    Worker {
        /// What the page saw, as a sentence.
        reason: String,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidParameter`].
    pub fn invalid(name: &'static str, value: impl ToString, reason: impl Into<String>) -> Self {
        Error::InvalidParameter {
            name: Cow::Borrowed(name),
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// The query key of the parameter this error is about (empty for a worker or wire error).
    pub fn parameter(&self) -> &str {
        match self {
            Error::InvalidParameter { name, .. } => name,
            Error::Wire { .. } | Error::Worker { .. } => "",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidParameter {
                name,
                value,
                reason,
            } => write!(f, "{name} = \"{value}\" {reason}"),
            Error::Wire { reason } => write!(f, "a worker message could not be read: {reason}"),
            Error::Worker { reason } => f.write_str(reason),
        }
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
