//! The labs: one folder each, with the same names in the web crate (`web/src/labs/<lab>/`).
//!
//! A lab's folder holds its parameters from the link (`params.rs`, or `mod.rs` while short), what its
//! page shows (`report.rs`, computed here so that components only draw), its background work
//! (`jobs.rs`, run by the worker pool through [`crate::jobs`]) and its share texts (`share.rs`). The
//! maths a lab shows lives in [`crate::mechanisms`], [`crate::accounting`], [`crate::attacks`],
//! [`crate::tangent`] and [`crate::wdp`], never in the lab.
//!
//! # Adding a lab
//! 1. Here: `pub mod <lab>;` and one line in the `labs!` registry below (variant, key, title; `ALL`,
//!    [`Lab::info`], [`Lab::defaults`] and [`ABOUT`] follow). `LABS_RECORD=1 cargo test` then writes
//!    `web/labs.json`, the build's manifest the page's loader reads.
//! 2. `src/labs/<lab>/`: `info.rs` (its [`LabInfo`]: when it needs the worker, its keys, its embed
//!    height; its formulas and sides for the About page), `pub type Params` (its
//!    [`crate::link::query::LinkParams`], read with a [`crate::link::query::Reader`], choices with
//!    `choice!`), the report, and if it has heavy work `jobs.rs`: its job and update enums and their
//!    `run`, plugged into [`crate::jobs::Job`] and [`crate::jobs::Update`] by one variant each and one
//!    line of the dispatcher.
//! 3. `web/src/labs/<lab>/` (`mod.rs` with a `LabPage`, `controls.rs` with `NumberField`s and
//!    `SelectField`s, `results.rs`), its chart specs in `web/src/charts/specs/<lab>.rs`, one render
//!    function in `web/src/labs/mod.rs`, `web/src/bin/lab-<lab>.rs` (three lines) and its
//!    `<link data-trunk>` line in `index.html`.
//! 4. Its tests: native ones beside the code, a browser test in `tests/e2e/<lab>.test.mjs`, and its
//!    default link in `tests/golden_numbers.rs`.

pub mod about;
pub mod attack;
#[cfg(test)]
mod boundaries;
pub mod compose;
pub mod descriptor;
pub mod dpsgd;
pub mod images;
mod keys;
pub mod mechanisms;
pub mod mf;
pub mod path;
pub mod rr;
pub mod start;
pub mod tangent;
pub mod teach;
pub mod train;
pub mod wdp;

pub use descriptor::{LabAbout, LabInfo};

use crate::link::query::{Notice, Query};

/// Declares the labs from one list: the [`Lab`] enum (variant, key, title), each lab's descriptor
/// ([`Lab::info`]: its folder's `info::INFO`), its parameters' printed defaults ([`Lab::defaults`]) and
/// the About page's list ([`ABOUT`]). A new lab is one line here.
macro_rules! labs {
    ($( $(#[$doc:meta])* $module:ident: $variant:ident = $key:literal => $title:literal, )+) => {
        crate::choice! {
            /// A page of the playground, chosen by the `lab` query key.
            #[derive(Debug)]
            pub enum Lab {
                $( $(#[$doc])* $variant = $key => $title, )+
            }
        }

        impl Lab {
            /// This lab's descriptor.
            pub fn info(self) -> &'static LabInfo {
                match self {
                    $( Lab::$variant => &$module::info::INFO, )+
                }
            }

            /// This lab's keys with their default values, as its parameters print them (optional keys,
            /// read only when a link has them, are in [`LabInfo::optional_keys`]). For tests and tools:
            /// a page never calls it, so no page links another lab's parser.
            pub fn defaults(self) -> Vec<(String, String)> {
                match self {
                    $( Lab::$variant => keys::printed::<$module::Params>(), )+
                }
            }

            /// The notices this lab's parameters give for `query` (a value refused, a default used).
            /// For tests and tools, like [`Lab::defaults`].
            pub fn link_notices(self, query: &Query) -> Vec<Notice> {
                use crate::link::query::LinkParams;
                match self {
                    $( Lab::$variant => <$module::Params>::from_query(query).1, )+
                }
            }
        }

        /// What the About page lists of every lab, in the navigation's order (only the About page reads
        /// it, so only its module links the text).
        pub const ABOUT: &[LabAbout] = &[
            $( LabAbout {
                lab: Lab::$variant,
                formulas: $module::info::FORMULAS,
                sides: $module::info::SIDES,
            }, )+
        ];
    };
}

labs! {
    /// Randomized response (`lab=rr`).
    rr: RandomizedResponse = "rr" => "Randomized response",
    /// Noise mechanisms and their privacy loss (`lab=mechanisms`).
    mechanisms: Mechanisms = "mechanisms" => "Mechanisms",
    /// Composition workbench (`lab=compose`).
    compose: Compose = "compose" => "Composition",
    /// DP-SGD accounting (`lab=dpsgd`).
    dpsgd: Dpsgd = "dpsgd" => "DP-SGD",
    /// DP-SGD run for real on data in the page (`lab=train`).
    train: Train = "train" => "Training",
    /// DP-SGD on MNIST, with Abadi et al.'s published points (`lab=images`).
    images: Images = "images" => "Training on images",
    /// What an attacker can learn: trade-off curves, risk, calibration, audits (`lab=attack`).
    attack: Attack = "attack" => "Attacks",
    /// The Wasserstein DP paper's figures (`lab=wdp`).
    wdp: Wdp = "wdp" => "Wasserstein DP",
    /// Tangent DP of the Gibbs distribution (`lab=tangent`).
    tangent: Tangent = "tangent" => "Tangent DP",
    /// Correlated noise: matrix-factorization mechanisms for a stream (`lab=mf`).
    mf: Mf = "mf" => "Correlated noise",
    /// Every formula the playground uses, with its source (`lab=about`).
    about: About = "about" => "About",
    /// The exercises for a course: problem sets and the answer-code reader (`lab=teach`, and the bare
    /// address with `tasks=`).
    teach: Teach = "teach" => "Teaching",
    /// The landing view (`lab=start`, and the bare address): what the playground is, and the course
    /// path ([`path`]).
    start: Start = "start" => "Start here",
}

/// Whether a lab's first numbers come from the worker pool, so that the page's loader fetches the
/// worker module beside the lab's own (`web/labs.json`, read by the build into the page's manifest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorkerOnLoad {
    /// Never on load (it may still start workers later, fetching the module then).
    Never,
    /// Always.
    Always,
    /// When the link's `key` has `value` (the WDP lab's Figure 2, the shuffle model).
    When(&'static str, &'static str),
}

impl Lab {
    /// Whether this lab's first numbers come from the worker pool.
    pub fn worker_on_load(self) -> WorkerOnLoad {
        self.info().worker_on_load
    }

    /// The build's lab manifest (`web/labs.json`): for each lab key, when it starts the worker pool on
    /// load (`preload`: `true`, `false`, or `{"key": "value"}`) and which worker module it uses
    /// (`worker`: a [`crate::jobs::WorkerModule`] key).
    pub fn manifest() -> String {
        let preload: Vec<String> = Lab::ALL
            .iter()
            .map(|lab| {
                let when = match lab.worker_on_load() {
                    WorkerOnLoad::Never => "false".to_owned(),
                    WorkerOnLoad::Always => "true".to_owned(),
                    WorkerOnLoad::When(k, v) => format!("{{\"{k}\": \"{v}\"}}"),
                };
                format!("    \"{}\": {when}", lab.key())
            })
            .collect();
        let worker: Vec<String> = Lab::ALL
            .iter()
            .filter_map(|lab| {
                let module = lab.info().worker?;
                Some(format!("    \"{}\": \"{}\"", lab.key(), module.key()))
            })
            .collect();
        format!(
            "{{\n  \"preload\": {{\n{}\n  }},\n  \"worker\": {{\n{}\n  }}\n}}\n",
            preload.join(",\n"),
            worker.join(",\n")
        )
    }

    /// This lab's keys whose meaning is the same in every other lab that lists them, so that the
    /// navigation may carry them: δ where it is the δ of an (ε, δ) statement about the lab's mechanism,
    /// `seed` where it seeds the lab's draws, `threads` (the worker pool's size). Every other key (`n`
    /// is respondents in one lab and records in another, `eps` a mechanism's ε in one and a target in
    /// another) stays behind; the view options ([`crate::link::embed::VIEW_KEYS`]) always travel.
    pub fn shared_keys(self) -> &'static [&'static str] {
        self.info().shared_keys
    }

    /// The link to `to` from a page showing `query`: `lab=to`, the view options, and the keys both labs
    /// share ([`Lab::shared_keys`]); nothing else of this lab's settings.
    pub fn link_to(query: &Query, to: Lab) -> Query {
        let from = Lab::from_query(query, &mut Vec::new());
        let mut out = Query::default().with("lab", to.key());
        for (key, value) in query.pairs() {
            let shared = from.shared_keys().contains(&key.as_str())
                && to.shared_keys().contains(&key.as_str());
            if crate::link::embed::VIEW_KEYS.contains(&key.as_str()) || shared {
                out.set(key, value.clone());
            }
        }
        out
    }

    /// Reads the `lab` key; a missing key opens the landing view (or, with `tasks=`, the problem set
    /// it names), an unknown one the first lab, with a notice.
    pub fn from_query(query: &Query, notices: &mut Vec<Notice>) -> Lab {
        match query.get("lab").map(str::trim) {
            None | Some("") if query.get("tasks").is_some() => Lab::Teach,
            None | Some("") => Lab::Start,
            Some(raw) => match Lab::ALL.into_iter().find(|lab| lab.key() == raw) {
                Some(lab) => lab,
                None => {
                    notices.push(Notice {
                        key: "lab".into(),
                        message: format!(
                            "lab = \"{raw}\" is not a lab of this playground; showing {} instead.",
                            Lab::RandomizedResponse.title()
                        ),
                        using: None,
                    });
                    Lab::RandomizedResponse
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `web/labs.json` is the core's manifest (`LABS_RECORD=1 cargo test` rewrites it).
    #[test]
    fn the_build_manifest_matches_the_lab_list() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/labs.json");
        if std::env::var_os("LABS_RECORD").is_some() {
            std::fs::write(&path, Lab::manifest()).unwrap();
        }
        let written = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            written,
            Lab::manifest(),
            "web/labs.json is stale: run LABS_RECORD=1 cargo test"
        );
    }

    /// Navigation carries only what means the same in both labs: from `?lab=rr&n=100` the DP-SGD
    /// lab opens with its own n (the finding that made ε read 54 with no warning), the view options
    /// travel, and δ travels between labs that state (ε, δ).
    #[test]
    fn navigation_carries_only_shared_keys() {
        let q = Query::parse("lab=rr&n=100&eps=2&seed=7&embed=1&controls=eps&lock=1");
        assert_eq!(
            Lab::link_to(&q, Lab::Dpsgd).to_query_string(),
            "lab=dpsgd&embed=1&controls=eps&lock=1"
        );
        assert_eq!(
            Lab::link_to(&q, Lab::Train).to_query_string(),
            "lab=train&seed=7&embed=1&controls=eps&lock=1"
        );
        let q = Query::parse("lab=dpsgd&n=100&batch=256&delta=1e-6&sigma=2");
        assert_eq!(
            Lab::link_to(&q, Lab::Attack).to_query_string(),
            "lab=attack&delta=1e-6"
        );
        assert_eq!(
            Lab::link_to(&q, Lab::RandomizedResponse).to_query_string(),
            "lab=rr"
        );
        // Every shared key is one the lab reads (one of its keys), or the worker pool's `threads`.
        for lab in Lab::ALL {
            for key in lab.shared_keys() {
                assert!(
                    ["delta", "seed", "threads"].contains(key)
                        && (*key == "threads" || lab.keys().iter().any(|k| k == key)),
                    "{}: {key}",
                    lab.key()
                );
            }
        }
    }

    #[test]
    fn every_lab_round_trips_and_unknown_falls_back() {
        for lab in Lab::ALL {
            let mut notices = Vec::new();
            let q = Query::default().with("lab", lab.key());
            assert_eq!(Lab::from_query(&q, &mut notices), lab);
            assert!(notices.is_empty());
        }
        let mut notices = Vec::new();
        let q = Query::parse("lab=%3Cscript%3E");
        assert_eq!(Lab::from_query(&q, &mut notices), Lab::RandomizedResponse);
        assert_eq!(notices.len(), 1);
    }
}
