//! The About page (`?lab=about`): every formula the playground uses with its source ([`formulas`]),
//! and which side every number on the page errs on ([`sides`]).

pub mod formulas;
pub mod sides;
