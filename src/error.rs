//! The crate's one error type: every rejected input names the parameter, the value and the reason.

use std::fmt;

/// Why a computation refused its input. Display gives a sentence a user can act on.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// A parameter was out of its domain (NaN, infinite, negative, too large, …).
    InvalidParameter {
        /// The parameter's name as it appears in the query string (`eps`, `k`, …).
        name: &'static str,
        /// The offending value as the user wrote it (or as it was computed).
        value: String,
        /// What the value must be, as a sentence fragment ("must be a finite number > 0").
        reason: String,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidParameter`].
    pub fn invalid(name: &'static str, value: impl ToString, reason: impl Into<String>) -> Self {
        Error::InvalidParameter {
            name,
            value: value.to_string(),
            reason: reason.into(),
        }
    }

    /// The query key of the parameter this error is about.
    pub fn parameter(&self) -> &'static str {
        match self {
            Error::InvalidParameter { name, .. } => name,
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
        }
    }
}

impl std::error::Error for Error {}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
