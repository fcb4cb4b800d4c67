//! One component per file.

pub mod about;
pub mod chart_canvas;
pub mod copy_link;
pub mod header;
pub mod notices;
pub mod number_field;
pub mod rr_controls;
pub mod rr_lab;
pub mod rr_privacy;
pub mod rr_results;
pub mod stat;
