//! The link: the URL query that holds every shareable parameter, and how a view is shown.
//!
//! - [`query`]: the query string parsed and printed; bad values fall back with a [`query::Notice`].
//! - [`choice`]: the `choice!` macro for enums a link key holds.
//! - [`embed`]: embedding, read-only views and the share panel's snippets.
//! - [`mod@format`]: how numbers read for people.
//! - [`handoff`]: links that carry a run or a list from one lab to another.
//! - [`href`]: links to the page itself, which stay on its origin and path.

pub mod choice;
pub mod embed;
pub mod format;
pub mod handoff;
pub mod href;
pub mod query;
