//! The worker pool behind every heavy job: up to `navigator.hardwareConcurrency` (at most 8; the link's
//! `threads` key overrides it) dedicated workers, each running the worker module
//! (`dp-playground-worker`, built for speed) and the core's [`dp_playground::jobs::run`].
//!
//! Hosting rules it keeps: no SharedArrayBuffer (so no special headers), the worker's files are found
//! relative to the page (any sub-path), and every worker starts from a Blob URL, so that it also runs
//! in cross-origin iframes and in the single-file build opened from disk. How a worker starts is
//! JavaScript, `dpPlaygroundPool` in `web/pool-start.js`: the first worker fetches and compiles the
//! lab's worker module itself and passes it to the workers started meanwhile and to the page; later
//! ones are handed it. `index.html`'s loader starts the first workers once the page's own module is
//! compiled, for labs whose numbers come from workers, so they are ready by the first job; the pool
//! adopts them. Pages that never need it never download it.
//!
//! A gang ([`gang`]) is several jobs started together, each on its own worker, with a channel
//! (MessagePort) between every two and one from the page to each: the members pass their messages
//! among themselves, never through the page's thread (`dp_playground::jobs::gang`).
//!
//! Cancelling terminates the workers running a lab's jobs (a new link or leaving the lab); they are
//! replaced on demand.

use dp_playground::jobs::{decode_update, encode_job, ends_job, JobKind, Received};
use futures::channel::mpsc::{unbounded, UnboundedReceiver, UnboundedSender};
use futures::StreamExt;
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Most workers, whatever the machine reports.
const MAX_WORKERS: usize = 8;

/// How a job ended without its last update (`Done`).
#[derive(Debug, Clone, PartialEq)]
pub enum JobEnd {
    /// A newer link (or leaving the lab) cancelled it.
    Cancelled,
    /// It failed: a refused link, or a worker that could not load or crashed.
    Failed(String),
}

/// Queues `job` at once and returns its run: the future calls `on_update` with each update until the
/// job is done.
///
/// # Errors
/// The future gives [`JobEnd::Cancelled`] when [`cancel`] stopped the job, [`JobEnd::Failed`] when it
/// failed.
///
/// Only `J`'s updates are decoded: a page compiles the (de)serialisation of the jobs it posts, not
/// every lab's (`dp_playground::jobs::JobKind`).
pub fn run<J: JobKind>(
    group: &'static str,
    job: &J,
    mut on_update: impl FnMut(J::Update),
) -> impl std::future::Future<Output = Result<(), JobEnd>> {
    let (tx, mut rx) = unbounded();
    submit(Queued {
        group,
        members: vec![(encode_job(job), None)],
        tx,
    });
    async move {
        while let Some((_, reply)) = rx.next().await {
            let bytes = match reply {
                Reply::Wire(bytes) => bytes,
                Reply::Failed(e) => return Err(JobEnd::Failed(worker_error(e).to_string())),
            };
            match decode_update::<J>(&bytes) {
                Ok(Received::Update(u)) => on_update(u),
                Ok(Received::Done) => return Ok(()),
                Ok(Received::Error(e)) => return Err(JobEnd::Failed(e.to_string())),
                Err(e) => return Err(JobEnd::Failed(worker_error(e.to_string()).to_string())),
            }
        }
        Err(JobEnd::Cancelled)
    }
}

/// Runs `job` to its end and returns its one result: the last update `pick` takes from it, or the
/// job's failure; `None` when the job was cancelled or gave no such update.
pub async fn outcome<J: JobKind, T, E: ToString>(
    group: &'static str,
    job: &J,
    mut pick: impl FnMut(J::Update) -> Option<Result<T, E>>,
) -> Option<Result<T, String>> {
    let mut got = None;
    match run(group, job, |u| {
        if let Some(r) = pick(u) {
            got = Some(r);
        }
    })
    .await
    {
        Ok(()) => got.map(|r| r.map_err(|e| e.to_string())),
        Err(JobEnd::Failed(e)) => Some(Err(e)),
        Err(JobEnd::Cancelled) => None,
    }
}

/// Runs `jobs` side by side (the chunks of one computation), handing each one's result to
/// `on_each(k, result)` as it arrives (for progress, or a failure); resolves to every result in the
/// jobs' order once all have succeeded, or `None` when any failed or was cancelled.
pub async fn gather<J: JobKind, T: Clone, E: ToString>(
    group: &'static str,
    jobs: Vec<J>,
    pick: impl Fn(J::Update) -> Option<Result<T, E>> + Copy,
    on_each: impl Fn(usize, &Result<T, String>) + Copy,
) -> Option<Vec<T>> {
    let runs = jobs.iter().enumerate().map(|(k, job)| async move {
        let got = outcome(group, job, pick).await;
        if let Some(r) = &got {
            on_each(k, r);
        }
        got.and_then(Result::ok)
    });
    futures::future::join_all(runs).await.into_iter().collect()
}

/// A gang's run, on the page: its members' updates, and a channel to each.
pub struct Gang<J: JobKind> {
    group: &'static str,
    /// The page's end of each member's channel.
    ports: Vec<web_sys::MessagePort>,
    rx: UnboundedReceiver<(usize, Reply)>,
    /// Members whose job is done.
    done: usize,
    kind: std::marker::PhantomData<J>,
}

/// Queues `jobs` as one gang of `group`: each starts on its own worker once as many are free (at
/// most [`size`]), member `k` with channel `j` to member `j` and channel `k` to the page.
pub fn gang<J: JobKind>(group: &'static str, jobs: &[J]) -> Result<Gang<J>, JobEnd> {
    let failed =
        |e: JsValue| JobEnd::Failed(format!("no channel between workers: {}", message(&e)));
    let n = jobs.len();
    // ends[k][j]: member k's end of its channel to j (to the page when j = k).
    let ends: Vec<js_sys::Array> = (0..n)
        .map(|_| js_sys::Array::new_with_length(n as u32))
        .collect();
    let mut ports = Vec::with_capacity(n);
    for (k, mine) in ends.iter().enumerate() {
        let page = web_sys::MessageChannel::new().map_err(failed)?;
        ports.push(page.port1());
        mine.set(k as u32, page.port2().into());
        for (j, theirs) in ends.iter().enumerate().skip(k + 1) {
            let between = web_sys::MessageChannel::new().map_err(failed)?;
            mine.set(j as u32, between.port1().into());
            theirs.set(k as u32, between.port2().into());
        }
    }
    let members = jobs
        .iter()
        .zip(ends)
        .map(|(job, ends)| (encode_job(job), Some(ends)))
        .collect();
    let (tx, rx) = unbounded();
    submit(Queued { group, members, tx });
    Ok(Gang {
        group,
        ports,
        rx,
        done: 0,
        kind: std::marker::PhantomData,
    })
}

impl<J: JobKind> Gang<J> {
    /// Sends `bytes` to member `k` on the page's channel (transferred, not copied twice).
    pub fn tell(&self, k: usize, bytes: &[u8]) {
        if let Some(port) = self.ports.get(k) {
            let data = js_sys::Uint8Array::from(bytes);
            let transfer = js_sys::Array::of1(&data.buffer());
            let _ = port.post_message_with_transferable(&data, &transfer);
        }
    }

    /// The next update and the member that sent it; `None` once every member is done.
    ///
    /// # Errors
    /// [`JobEnd::Failed`] when a member failed (the others are stopped: they would wait for it),
    /// [`JobEnd::Cancelled`] when [`cancel`] stopped the gang.
    pub async fn next(&mut self) -> Option<Result<(usize, J::Update), JobEnd>> {
        loop {
            let Some((k, reply)) = self.rx.next().await else {
                return (self.done < self.ports.len()).then_some(Err(JobEnd::Cancelled));
            };
            let failure = match reply {
                Reply::Failed(e) => worker_error(e).to_string(),
                Reply::Wire(bytes) => match decode_update::<J>(&bytes) {
                    Ok(Received::Update(u)) => return Some(Ok((k, u))),
                    Ok(Received::Done) => {
                        self.done += 1;
                        continue;
                    }
                    Ok(Received::Error(e)) => e.to_string(),
                    Err(e) => worker_error(e.to_string()).to_string(),
                },
            };
            cancel(self.group);
            return Some(Err(JobEnd::Failed(failure)));
        }
    }
}

impl<J: JobKind> Drop for Gang<J> {
    fn drop(&mut self) {
        for port in &self.ports {
            port.close();
        }
    }
}

/// Stops every job of `group`, queued or running (their streams end without their `Done`).
pub fn cancel(group: &'static str) {
    POOL.with_borrow_mut(|pool| {
        pool.queue.retain(|q| q.group != group);
        pool.slots.retain(|s| match &s.busy {
            Some(busy) if busy.group == group => {
                s.worker.terminate();
                false
            }
            _ => true,
        });
    });
    pump();
}

/// A link's generation of a lab's jobs ([`LabJobs::restart_live`]).
#[derive(Clone, Copy)]
pub struct Live {
    generation: leptos::prelude::StoredValue<u64>,
    mine: u64,
}

impl Live {
    /// Whether the link is still the current one (false once a newer link restarted or the lab was
    /// left).
    pub fn current(self) -> bool {
        use leptos::prelude::GetValue;
        self.generation.try_get_value() == Some(self.mine)
    }
}

/// One lab's jobs across link changes: each new link cancels the previous link's jobs, and late
/// results of an old link are recognised by its generation; leaving the lab cancels them too.
#[derive(Clone, Copy)]
pub struct LabJobs {
    group: &'static str,
    generation: leptos::prelude::StoredValue<u64>,
}

impl LabJobs {
    /// The jobs of the lab being built (call inside its component: they stop when it is left).
    pub fn new(group: &'static str) -> Self {
        leptos::prelude::on_cleanup(move || cancel(group));
        LabJobs {
            group,
            generation: leptos::prelude::StoredValue::new(0),
        }
    }

    /// A new link: cancels the previous one's jobs, and returns the check that this link is still
    /// the current one (false once a newer link restarted or the lab was left).
    pub fn restart(self) -> impl Fn() -> bool + Copy + 'static {
        let live = self.restart_live();
        move || live.current()
    }

    /// [`LabJobs::restart`], its check as a value that can be handed on ([`Live`]).
    pub fn restart_live(self) -> Live {
        use leptos::prelude::{GetValue, UpdateValue};
        self.generation.update_value(|g| *g += 1);
        let mine = self.generation.get_value();
        cancel(self.group);
        Live {
            generation: self.generation,
            mine,
        }
    }

    /// A new link whose one result is `job`'s: restarts (cancelling the previous link's jobs), clears
    /// `shown`, then sets it to what `pick` takes from the job's updates, or to the job's failure. A
    /// cancelled or superseded job leaves `shown` alone; `None` (nothing to run for this link) leaves it
    /// cleared.
    pub fn show_latest<J: JobKind + 'static, T: Send + Sync + 'static>(
        self,
        job: Option<J>,
        shown: leptos::prelude::RwSignal<Option<Result<T, String>>>,
        pick: impl FnMut(J::Update) -> Option<Result<T, String>> + 'static,
    ) {
        use leptos::prelude::Set;
        let current = self.restart();
        shown.set(None);
        let Some(job) = job else { return };
        let group = self.group;
        leptos::task::spawn_local(async move {
            let result = outcome(group, &job, pick).await;
            if result.is_some() && current() {
                shown.set(result);
            }
        });
    }
}

/// Workers the pool runs at most: the link's `threads` (1–8), else the machine's logical cores (≤ 8).
pub fn size() -> usize {
    let cores = web_sys::window().map_or(2.0, |w| w.navigator().hardware_concurrency()) as usize;
    threads_from_link().unwrap_or(cores).clamp(1, MAX_WORKERS)
}

/// The link's `threads` key, if it names a number of workers (it also sends work that would fit on the
/// page to the pool, which is how the browser tests compare the two).
pub fn threads_from_link() -> Option<usize> {
    let search = web_sys::window()?.location().search().ok()?;
    dp_playground::link::query::Query::parse(&search)
        .get("threads")?
        .trim()
        .parse()
        .ok()
}

struct Slot {
    id: u64,
    worker: web_sys::Worker,
    busy: Option<Busy>,
}

/// A worker's job: whose, and where its replies go (tagged with its member number).
struct Busy {
    group: &'static str,
    tx: UnboundedSender<(usize, Reply)>,
    member: usize,
}

/// A job waiting for a worker, or a gang for as many: each member's bytes and, in a gang, its
/// channels.
struct Queued {
    group: &'static str,
    members: Vec<(Vec<u8>, Option<js_sys::Array>)>,
    tx: UnboundedSender<(usize, Reply)>,
}

/// What reaches a job's run: a worker's message (decoded by the run, which knows its kind), or a
/// failure the page saw.
enum Reply {
    Wire(Vec<u8>),
    Failed(String),
}

enum Source {
    NotStarted,
    /// `dpPlaygroundPool`'s `spawn`, which starts a worker.
    Started(js_sys::Function),
}

struct Pool {
    source: Source,
    slots: Vec<Slot>,
    queue: VecDeque<Queued>,
    next_id: u64,
}

thread_local! {
    static POOL: RefCell<Pool> = const { RefCell::new(Pool {
        source: Source::NotStarted,
        slots: Vec::new(),
        queue: VecDeque::new(),
        next_id: 0,
    }) };
}

fn submit(q: Queued) {
    POOL.with_borrow_mut(|pool| pool.queue.push_back(q));
    pump();
}

/// Starts queued jobs on idle (or new) workers, a gang once it has a worker for every member.
fn pump() {
    POOL.with_borrow_mut(|pool| {
        if pool.queue.is_empty() {
            return;
        }
        if let Err(e) = pool.start() {
            for q in pool.queue.drain(..) {
                let _ = q.tx.unbounded_send((0, Reply::Failed(e.clone())));
            }
            return;
        }
        let size = size();
        while let Some(q) = pool.queue.pop_front() {
            if q.tx.is_closed() {
                continue;
            }
            let wanted = q.members.len();
            if wanted > size {
                let e = format!("{wanted} jobs that run together, on at most {size} workers");
                let _ = q.tx.unbounded_send((0, Reply::Failed(e)));
                continue;
            }
            let mut picked: Vec<usize> = (0..pool.slots.len())
                .filter(|&i| pool.slots[i].busy.is_none())
                .take(wanted)
                .collect();
            if picked.len() + (size - pool.slots.len().min(size)) < wanted {
                pool.queue.push_front(q);
                break;
            }
            while picked.len() < wanted {
                match pool.spawn() {
                    Ok(slot) => {
                        pool.slots.push(slot);
                        picked.push(pool.slots.len() - 1);
                    }
                    Err(e) => {
                        let _ = q.tx.unbounded_send((0, Reply::Failed(e)));
                        break;
                    }
                }
            }
            if picked.len() < wanted {
                continue;
            }
            for (member, ((bytes, ends), index)) in q.members.into_iter().zip(picked).enumerate() {
                let slot = &mut pool.slots[index];
                if let Err(e) = post_job(&slot.worker, &bytes, ends) {
                    let _ =
                        q.tx.unbounded_send((member, Reply::Failed(format!("{e:?}"))));
                    continue;
                }
                slot.busy = Some(Busy {
                    group: q.group,
                    tx: q.tx.clone(),
                    member,
                });
            }
        }
    });
}

/// Posts a job's bytes to `worker`: alone, or with a gang member's channels
/// (`{ gang, ports }`, which the worker's bootstrap hands to `run_gang`). Transferred, not copied.
fn post_job(
    worker: &web_sys::Worker,
    bytes: &[u8],
    ends: Option<js_sys::Array>,
) -> Result<(), JsValue> {
    let data = js_sys::Uint8Array::from(bytes);
    let transfer = js_sys::Array::of1(&data.buffer());
    let Some(ends) = ends else {
        return worker.post_message_with_transfer(&data, &transfer);
    };
    let message = js_sys::Object::new();
    js_sys::Reflect::set(&message, &"gang".into(), &data)?;
    js_sys::Reflect::set(&message, &"ports".into(), &ends)?;
    for port in ends.iter() {
        transfer.push(&port);
    }
    worker.post_message_with_transfer(&message, &transfer)
}

impl Pool {
    /// Adopts `dpPlaygroundPool` once: the workers the loader started, and how to start more.
    fn start(&mut self) -> Result<(), String> {
        if matches!(self.source, Source::Started(_)) {
            return Ok(());
        }
        let field = |o: &JsValue, name: &str| js_sys::Reflect::get(o, &name.into()).ok();
        let start = field(&js_sys::global(), "dpPlaygroundPool").unwrap_or_default();
        let adopt: js_sys::Function = field(&start, "adopt")
            .and_then(|f| f.dyn_into().ok())
            .ok_or("this page has no worker pool")?;
        let started = adopt
            .call0(&start)
            .map_err(|e| format!("the worker pool could not start: {}", message(&e)))?;
        let spawn = field(&started, "spawn")
            .and_then(|f| f.dyn_into().ok())
            .ok_or("the worker pool has no spawn")?;
        self.source = Source::Started(spawn);
        let early = field(&started, "early").map(|a| js_sys::Array::from(&a));
        for worker in early.iter().flat_map(js_sys::Array::iter) {
            if let Ok(worker) = worker.dyn_into() {
                let slot = self.adopt(worker);
                self.slots.push(slot);
            }
        }
        Ok(())
    }

    /// A new worker (it loads the module, then runs the jobs it is sent, queued until then).
    fn spawn(&mut self) -> Result<Slot, String> {
        let Source::Started(spawn) = &self.source else {
            return Err("the worker pool has not started".into());
        };
        let worker = spawn
            .call0(&JsValue::NULL)
            .map_err(|e| format!("no worker: {}", message(&e)))?
            .dyn_into()
            .map_err(|_| "no worker")?;
        Ok(self.adopt(worker))
    }

    /// A slot for `worker`, listening to its updates and failures.
    fn adopt(&mut self, worker: web_sys::Worker) -> Slot {
        let id = self.next_id;
        self.next_id += 1;
        // The handlers live as long as the page (a few bytes per worker ever started).
        let on_message =
            Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                // A worker posts a Uint8Array: copied once, into wasm (`new Uint8Array(view)`
                // would first copy it within JavaScript: 1.9 MB a round for the image lab's shares).
                let data = e.data();
                let bytes = match data.dyn_ref::<js_sys::Uint8Array>() {
                    Some(view) => view.to_vec(),
                    None => js_sys::Uint8Array::new(&data).to_vec(),
                };
                match ends_job(&bytes) {
                    Some(over) => finish_or_forward(id, bytes, over),
                    // A worker that speaks another protocol (a stale cached module) may still be
                    // running its job: it is stopped, never given another one.
                    None => drop_worker(id, "a message that is no update".into()),
                }
            });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        let on_error =
            Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
                e.prevent_default();
                drop_worker(id, format!("the worker stopped: {}", e.message()));
            });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        on_error.forget();
        Slot {
            id,
            worker,
            busy: None,
        }
    }
}

/// Terminates worker `id` and fails its job with `message`.
fn drop_worker(id: u64, message: String) {
    POOL.with_borrow_mut(|pool| {
        if let Some(i) = pool.slots.iter().position(|s| s.id == id) {
            let slot = pool.slots.remove(i);
            slot.worker.terminate();
            if let Some(busy) = slot.busy {
                let _ = busy
                    .tx
                    .unbounded_send((busy.member, Reply::Failed(message)));
            }
        }
    });
    pump();
}

/// Sends a worker's update to its job; frees the worker when the job is `over`.
fn finish_or_forward(id: u64, bytes: Vec<u8>, over: bool) {
    POOL.with_borrow_mut(|pool| {
        let Some(slot) = pool.slots.iter_mut().find(|s| s.id == id) else {
            return;
        };
        if let Some(busy) = &slot.busy {
            let _ = busy.tx.unbounded_send((busy.member, Reply::Wire(bytes)));
        }
        if over {
            slot.busy = None;
        }
    });
    if over {
        pump();
    }
}

/// A thrown JavaScript value's message.
fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}

/// A failure the page saw (a worker that could not load or crashed) as the core's error.
fn worker_error(reason: String) -> dp_playground::Error {
    dp_playground::Error::Worker { reason }
}
