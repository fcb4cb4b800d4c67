//! Exercises the engine checks: questions about the core labs, each drawn in variants from a number,
//! answered in the page and checked by the core's own computation, and answer codes an instructor's
//! page reads back ([`code`]) without a server and without a list of answers.
//!
//! A task lives in its lab's folder (`src/labs/<lab>/tasks.rs`, a [`TaskDef`] each, and `ALL`, the
//! lab's list: all a lab's page links); [`TASKS`] lists them all, for the problem sets and the code
//! reader, and [`KEYS`] names each task's lab without linking its maths. A link names one task with its variant (`task=rr-truth:12`) in the lab it is about, or a
//! set (`tasks=rr-truth,mech-sigma&seed=7`) on the landing view's sheet, where the seed (and, with
//! `vary=student`, the student's name) picks each task's variant.
//!
//! Every check accepts an interval: a question asking for "the smallest σ" accepts σ* to σ*·(1 + tol)
//! and nothing below σ* (which would not meet the guarantee); a question asking for a number the page
//! shows accepts it to the precision the page shows it. Each task's test holds a right answer
//! accepted and wrong ones refused.

pub mod code;

use crate::labs::Lab;
use crate::link::query::Query;

/// One question, in one variant: what the student reads, the lab settings it starts from, and the
/// answers it accepts.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// The task's key (`rr-truth`).
    pub key: &'static str,
    /// Its position in [`TASKS`] (what an answer code stores).
    pub index: u8,
    /// The variant it was drawn in.
    pub variant: u32,
    /// The lab that answers it.
    pub lab: Lab,
    /// The question.
    pub question: String,
    /// What the answer is (a label for the answer field: "ε", "σ", "steps").
    pub answer: &'static str,
    /// The lab's settings the question starts from (without `lab`).
    pub setup: Query,
    /// Where to look, in one sentence.
    pub hint: &'static str,
    /// The id of the element the hint brings into view (a control's field id or a result's test id).
    pub hint_target: &'static str,
    /// The right answers: a closed interval (empty, NaN, until [`Task::settle`] for a task
    /// answered by a training run).
    pub accept: (f64, f64),
    /// The seeded training run that answers it, when its answer is a run's result.
    pub after_run: Option<AfterRun>,
}

/// A task answered by a seeded training run's result: the page runs the run (in its workers, the
/// training lab's job), and [`Task::settle`] sets the accepted interval from its last test
/// accuracies. The run is the one the lab runs at the task's settings: the same sampler, seed and
/// data, so the numbers the student reads are the ones checked.
#[derive(Debug, Clone, PartialEq)]
pub struct AfterRun {
    /// The run's settings: the training lab's parameters at the task's link.
    pub params: crate::labs::train::TrainParams,
    /// Half-width of the accepted interval around the run's answer.
    pub tolerance: f64,
}

impl AfterRun {
    /// The answer from the run's last test accuracies (DP-SGD, clipping only, non-private): what
    /// privacy cost, the non-private model's accuracy minus DP-SGD's.
    pub fn answer(&self, test_acc: [f64; 3]) -> f64 {
        test_acc[2] - test_acc[0]
    }

    /// The training lab's job that runs it, from its start to its end, as the lab runs it.
    ///
    /// # Errors
    /// Settings the trainer refuses.
    pub fn job(&self) -> crate::error::Result<crate::labs::train::jobs::TrainJob> {
        crate::labs::train::tasks::run_job(self)
    }

    /// The test accuracies one of [`AfterRun::job`]'s updates reports, if it reports them (the last
    /// such update's are the run's answer).
    pub fn accuracy_in(update: &crate::labs::train::jobs::TrainJobUpdate) -> Option<[f64; 3]> {
        match update {
            crate::labs::train::jobs::TrainJobUpdate::Run(u) => {
                crate::labs::train::tasks::last_test_accuracy(u)
            }
            _ => None,
        }
    }
}

impl Task {
    /// Whether `answer` is right: finite and inside [`Task::accept`].
    pub fn is_right(&self, answer: f64) -> bool {
        answer.is_finite() && answer >= self.accept.0 && answer <= self.accept.1
    }

    /// Whether the task still waits for its training run ([`Task::settle`]).
    pub fn needs_run(&self) -> bool {
        self.after_run.is_some() && self.accept.0.is_nan()
    }

    /// Sets the accepted interval of a task answered by a run, from the run's last test accuracies.
    pub fn settle(&mut self, test_acc: [f64; 3]) {
        if let Some(run) = &self.after_run {
            let a = run.answer(test_acc);
            self.accept = (a - run.tolerance, a + run.tolerance);
        }
    }

    /// The link to this task in its lab: the lab, the setup and `task=key:variant`.
    pub fn link(&self) -> Query {
        let mut q = Query::default().with("lab", self.lab.key());
        for (k, v) in self.setup.pairs() {
            q.set(k, v.clone());
        }
        q.set("task", format!("{}:{}", self.key, self.variant));
        q
    }
}

/// What a task's maker draws for a variant: everything of a [`Task`] but what its [`TaskDef`] knows.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// The question.
    pub question: String,
    /// What the answer is.
    pub answer: &'static str,
    /// The lab's settings the question starts from (without `lab`).
    pub setup: Query,
    /// Where to look, in one sentence.
    pub hint: &'static str,
    /// The id of the element the hint brings into view.
    pub hint_target: &'static str,
    /// The right answers: a closed interval (NaN for a task answered by a run).
    pub accept: (f64, f64),
    /// The training run that answers it, if a run does.
    pub after_run: Option<AfterRun>,
}

/// A task: its key, its lab, and how it is drawn in a variant.
#[derive(Debug, Clone, Copy)]
pub struct TaskDef {
    /// The key links name it by.
    pub key: &'static str,
    /// Its position in [`TASKS`] (append-only: an answer code stores it).
    pub index: u8,
    /// The lab that answers it.
    pub lab: Lab,
    /// Draws the task's question, settings and answers in a variant.
    pub make: fn(&mut Draw) -> Drawn,
}

impl TaskDef {
    /// The task in `variant` (its parameters drawn from it).
    pub fn task(&self, variant: u32) -> Task {
        let d = (self.make)(&mut Draw::new(variant));
        Task {
            key: self.key,
            index: self.index,
            variant,
            lab: self.lab,
            question: d.question,
            answer: d.answer,
            setup: d.setup,
            hint: d.hint,
            hint_target: d.hint_target,
            accept: d.accept,
            after_run: d.after_run,
        }
    }
}

/// Every task, in the course path's order. Append only: an answer code stores a task's position.
pub const TASKS: &[TaskDef] = &[
    crate::labs::rr::tasks::TRUTH,
    crate::labs::rr::tasks::WIDTH,
    crate::labs::mechanisms::tasks::SIGMA,
    crate::labs::mechanisms::tasks::LAPLACE,
    crate::labs::compose::tasks::TIGHTEST,
    crate::labs::compose::tasks::BUDGET,
    crate::labs::dpsgd::tasks::STEPS,
    crate::labs::dpsgd::tasks::SIGMA,
    crate::labs::train::tasks::EPSILON,
    crate::labs::attack::tasks::TPR,
    crate::labs::attack::tasks::ADVANTAGE,
    crate::labs::train::tasks::COST,
];

/// Each task's key and lab, in [`TASKS`]' order (a test holds them equal): what a lab's page needs to
/// name another lab's exercise without linking its maths.
pub const KEYS: &[(&str, Lab)] = &[
    ("rr-truth", Lab::RandomizedResponse),
    ("rr-width", Lab::RandomizedResponse),
    ("mech-sigma", Lab::Mechanisms),
    ("mech-laplace", Lab::Mechanisms),
    ("compose-tightest", Lab::Compose),
    ("compose-budget", Lab::Compose),
    ("dpsgd-steps", Lab::Dpsgd),
    ("dpsgd-sigma", Lab::Dpsgd),
    ("train-eps", Lab::Train),
    ("attack-tpr", Lab::Attack),
    ("attack-advantage", Lab::Attack),
    ("train-cost", Lab::Train),
];

/// The task a key names.
pub fn find(key: &str) -> Option<&'static TaskDef> {
    TASKS.iter().find(|t| t.key == key.trim())
}

/// Why a `task=` value names no task of a lab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotHere {
    /// An exercise of another lab.
    OtherLab(Lab),
    /// No exercise, or a malformed variant: the message says which.
    Bad(String),
}

/// The task a `task=` value names (`rr-truth:12`, or `rr-truth` for variant 0) among `defs` (a lab's
/// own list, or [`TASKS`]).
pub fn from_link(value: &str, defs: &[TaskDef]) -> Result<Task, NotHere> {
    let (key, variant) = value.split_once(':').unwrap_or((value, "0"));
    let key = key.trim();
    let Some(def) = defs.iter().find(|t| t.key == key) else {
        return Err(match KEYS.iter().find(|(k, _)| *k == key) {
            Some((_, lab)) => NotHere::OtherLab(*lab),
            None => NotHere::Bad(format!(
                "task = \"{key}\" is not an exercise of this playground (they are: {}).",
                KEYS.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")
            )),
        });
    };
    let variant = variant.trim().parse::<u32>().map_err(|_| {
        NotHere::Bad(format!(
            "task = \"{value}\": the variant after ':' must be a whole number."
        ))
    })?;
    Ok(def.task(variant & code::VARIANT_MASK))
}

/// A sheet of tasks: the `tasks=` list in variants drawn from `seed` (and from the student's `name`
/// when each student gets their own), or as named (`rr-truth:12`). Unknown keys are reported and
/// skipped.
pub fn sheet(list: &str, seed: &str, name: Option<&str>) -> (Vec<Task>, Vec<String>) {
    let mut tasks = Vec::new();
    let mut unknown = Vec::new();
    let base = match name {
        Some(n) => format!("{}\u{1f}{}", seed.trim(), n.trim().to_lowercase()),
        None => seed.trim().to_owned(),
    };
    for item in list.split(',').map(str::trim).filter(|k| !k.is_empty()) {
        // `key:variant` names its variant (a lab's exercise links to its own); `key` draws one.
        if item.contains(':') {
            match from_link(item, TASKS) {
                Ok(task) => tasks.push(task),
                Err(_) => unknown.push(item.to_owned()),
            }
            continue;
        }
        match find(item) {
            Some(def) => {
                let variant =
                    (code::hash64(&format!("{base}\u{1f}{item}")) as u32) & code::VARIANT_MASK;
                tasks.push(def.task(variant));
            }
            None => unknown.push(item.to_owned()),
        }
    }
    (tasks, unknown)
}

/// A variant's parameters: a deterministic stream of numbers from the variant (SplitMix64, written
/// here rather than taken from `rand` so that a variant draws the same parameters on every version
/// of every dependency: a code handed in today must check the same next year).
#[derive(Debug, Clone)]
pub struct Draw {
    state: u64,
    textbook: bool,
}

impl Draw {
    /// The stream of `variant`.
    pub fn new(variant: u32) -> Self {
        Draw {
            state: u64::from(variant) ^ 0x9e37_79b9_7f4a_7c15,
            textbook: variant == 0,
        }
    }

    /// One of `options`: always the first in variant 0, the textbook case.
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        let x = code::splitmix(&mut self.state);
        if self.textbook {
            return options[0];
        }
        options[(x % options.len() as u64) as usize]
    }
}

/// `x` written for a question: up to six significant digits (`1×10⁻⁵` for small ones).
pub fn num(x: f64) -> String {
    crate::link::format::sig(x, 6)
}

/// `x` written for a link (every lab's parser reads it back exactly: `0.00001`, never `1×10⁻⁵`).
pub fn val(x: f64) -> String {
    format!("{x}")
}

/// `task` with its accepted interval, running its training run here if it needs one (the tests'
/// way; the page runs it in its workers). Runs are remembered by settings: each is seconds' work.
#[cfg(test)]
pub(crate) fn settled(mut task: Task) -> Task {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static RUNS: OnceLock<Mutex<HashMap<String, [f64; 3]>>> = OnceLock::new();
    if let Some(run) = task.after_run.clone() {
        let key = format!("{:?}", run.params);
        let known = RUNS
            .get_or_init(Default::default)
            .lock()
            .unwrap()
            .get(&key)
            .copied();
        let acc = known.unwrap_or_else(|| {
            let acc = crate::labs::train::tasks::run_here(&run).unwrap();
            RUNS.get().unwrap().lock().unwrap().insert(key, acc);
            acc
        });
        task.settle(acc);
    }
    task
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For every task and a spread of variants: the question is drawn, its right answers are
    /// accepted, values just outside are refused, and its link opens its own lab.
    #[test]
    fn every_task_accepts_its_answers_and_refuses_wrong_ones() {
        for def in TASKS {
            for variant in [0, 1, 2, 3, 17, 1234, code::VARIANT_MASK] {
                let t = settled(def.task(variant));
                let (lo, hi) = t.accept;
                assert!(
                    lo.is_finite() && hi.is_finite() && lo <= hi,
                    "{}: {lo}..{hi}",
                    t.key
                );
                assert!(t.is_right(0.5 * (lo + hi)), "{} v{variant}: mid", t.key);
                let below = lo - (1e-3 * lo.abs()).max(1e-3);
                let above = hi + (1e-3 * hi.abs()).max(1e-3);
                assert!(
                    !t.is_right(below) && !t.is_right(above),
                    "{} v{variant}",
                    t.key
                );
                assert!(!t.is_right(f64::NAN) && !t.is_right(f64::INFINITY));
                assert_eq!(t.lab, def.lab);
                assert!(!t.question.is_empty() && !t.hint.is_empty());
                let mut notices = Vec::new();
                assert_eq!(Lab::from_query(&t.link(), &mut notices), def.lab);
                // The lab reads every setting as the question states it (`1×10⁻⁵` once was not).
                let refused = def.lab.link_notices(&t.link());
                assert!(refused.is_empty(), "{} v{variant}: {refused:?}", t.key);
                assert_eq!(
                    settled(from_link(t.link().get("task").unwrap(), TASKS).unwrap()),
                    t
                );
            }
        }
        let keys: Vec<(&str, Lab)> = TASKS.iter().map(|t| (t.key, t.lab)).collect();
        assert_eq!(keys, KEYS);
        for (i, def) in TASKS.iter().enumerate() {
            assert_eq!(usize::from(def.index), i, "{}", def.key);
            assert_eq!(TASKS.iter().filter(|t| t.key == def.key).count(), 1);
        }
        // Each lab's list is its own tasks, in order.
        for (lab, list) in [
            (Lab::RandomizedResponse, crate::labs::rr::tasks::ALL),
            (Lab::Mechanisms, crate::labs::mechanisms::tasks::ALL),
            (Lab::Compose, crate::labs::compose::tasks::ALL),
            (Lab::Dpsgd, crate::labs::dpsgd::tasks::ALL),
            (Lab::Train, crate::labs::train::tasks::ALL),
            (Lab::Attack, crate::labs::attack::tasks::ALL),
        ] {
            let own: Vec<&str> = TASKS
                .iter()
                .filter(|t| t.lab == lab)
                .map(|t| t.key)
                .collect();
            assert_eq!(list.iter().map(|t| t.key).collect::<Vec<_>>(), own);
        }
        assert_eq!(
            from_link("mech-sigma:3", crate::labs::rr::tasks::ALL),
            Err(NotHere::OtherLab(Lab::Mechanisms))
        );
        assert!(TASKS.len() < 64, "an answer code stores a task in 6 bits");
    }

    /// Variant 0 is the textbook case, with answers from outside the playground.
    #[test]
    fn variant_zero_answers_match_references() {
        let answer = |key: &str| {
            let t = find(key).unwrap().task(0);
            (t.accept, t)
        };
        // Closed form: e/(1 + e) = 0.7310585786300049 at K = 2, ε = 1.
        let (_, t) = answer("rr-truth");
        assert!(t.is_right(0.731) && !t.is_right(0.73) && t.question.contains("ε = 1"));
        // dp_accounting 0.6.0: gaussian_mechanism.get_sigma_gaussian(1, 1e-5) = 3.730631634815937.
        let ((lo, hi), _) = answer("mech-sigma");
        assert!((lo / 3.730_631_634_815_937 - 1.0).abs() < 1e-6 && hi > 3.74 && hi < 3.75);
        // Closed form: ε = Δ/b = 1/2.
        let (_, t) = answer("mech-laplace");
        assert!(t.is_right(0.5) && !t.is_right(0.49));
        // Basic composition: 1/0.1 = 10 releases (the float sum of ten 0.1s is 0.9999999999999999).
        let (_, t) = answer("compose-budget");
        assert!(t.is_right(10.0) && !t.is_right(9.0) && !t.is_right(11.0));
        // Dong, Roth & Su (2022) eq. (2.5): 1 − f(0.01) = e·0.01 + 10⁻⁵ at ε = 1, δ = 10⁻⁵.
        let (_, t) = answer("attack-tpr");
        assert!(t.is_right(1f64.exp() * 0.01 + 1e-5));
        // Kairouz et al.: (e − 1 + 2·10⁻⁵)/(e + 1) = 0.46212.
        let (_, t) = answer("attack-advantage");
        assert!(t.is_right(0.4621) && !t.is_right(0.4641));
    }

    /// `tests/e2e/exercises.json`: each exercise's link in two variants with a right and a wrong
    /// answer, for the browser test (`LABS_RECORD=1 cargo test` rewrites it).
    #[test]
    fn the_browser_tests_exercise_list_is_current() {
        let mut lines = Vec::new();
        for def in TASKS {
            for variant in [0, 7] {
                let t = settled(def.task(variant));
                let right = 0.5 * (t.accept.0 + t.accept.1);
                let wrong = t.accept.1 + (0.1 * t.accept.1.abs()).max(1.0);
                assert!(t.is_right(right) && !t.is_right(wrong));
                lines.push(format!(
                    "  {{\"key\": \"{}\", \"lab\": \"{}\", \"link\": \"?{}\", \"right\": {right:?}, \"wrong\": {wrong:?}}}",
                    t.key,
                    t.lab.key(),
                    t.link().to_query_string()
                ));
            }
        }
        let json = format!("[\n{}\n]\n", lines.join(",\n"));
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/exercises.json");
        if std::env::var_os("LABS_RECORD").is_some() {
            std::fs::write(&path, &json).unwrap();
        }
        let written = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(
            written, json,
            "tests/e2e/exercises.json is stale: run LABS_RECORD=1 cargo test"
        );
    }

    #[test]
    fn sheets_are_the_same_for_one_seed_and_differ_per_student() {
        let list = "rr-truth,mech-sigma,nope";
        let (a, unknown) = sheet(list, "7", None);
        assert_eq!(unknown, ["nope"]);
        assert_eq!(a, sheet(list, "7", None).0);
        assert_ne!(a, sheet(list, "8", None).0);
        let (ann, _) = sheet(list, "7", Some("Ann"));
        assert_eq!(ann, sheet(list, "7", Some(" ann ")).0);
        assert_ne!(ann, sheet(list, "7", Some("Bob")).0);
        assert_eq!(
            sheet("mech-sigma:12", "7", Some("Ann")).0,
            [find("mech-sigma").unwrap().task(12)]
        );
        assert!(from_link("nope:1", TASKS).is_err() && from_link("rr-truth:x", TASKS).is_err());
        assert_eq!(from_link("rr-truth", TASKS).unwrap().variant, 0);
    }
}
