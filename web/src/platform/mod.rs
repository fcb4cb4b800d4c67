//! Browser glue: the link as state ([`url`]), the worker pool ([`pool`]), timers and the DOM
//! ([`browser`]), an embed's height in a course column ([`column_probe`]), the per-task drawing budget ([`draw_budget`]) and fast canvas text ([`fast_canvas`]).

pub mod browser;
pub mod column_probe;
pub mod draw_budget;
pub mod fast_canvas;
pub mod pool;
pub mod url;
