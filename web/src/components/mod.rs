//! One component per file.

pub mod about;
pub mod chart_canvas;
pub mod compose_lab;
pub mod copy_link;
pub mod dpsgd_controls;
pub mod dpsgd_lab;
pub mod dpsgd_results;
pub mod header;
pub mod mech_calibration;
pub mod mech_controls;
pub mod mech_em;
pub mod mech_lab;
pub mod mech_pictures;
pub mod mech_queries;
pub mod mech_zcdp;
pub mod notices;
pub mod number_field;
pub mod rr_controls;
pub mod rr_lab;
pub mod rr_privacy;
pub mod rr_results;
pub mod share_panel;
pub mod stat;
pub mod xy_canvas;
