//! Pieces every lab uses: fields bound to the link, stats, notices, canvases, the share panel.

pub mod after_paint;
pub mod chart_canvas;
pub mod copy_link;
pub mod diagnostics;
pub mod glossary;
pub mod header;
pub mod heat_canvas;
pub mod lab_page;
pub mod notices;
pub mod number_field;
pub mod parts;
pub mod pld_band;
pub mod select_field;
pub mod share_panel;
pub mod slide_note;
pub mod stat;
pub mod statement_panel;
pub mod xy_canvas;
