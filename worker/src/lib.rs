//! The web workers' modules: `run(job)` decodes a `dp_playground::jobs::Job`, runs it, and posts each
//! update back to the page as postcard bytes (the buffer is transferred, not copied). One module per
//! `dp_playground::jobs::WorkerModule` (`src/bin/`: a lab's page loads only its group's), and one of
//! every job (`src/main.rs`, for the single-file build). The page's pool (web/pool-start.js,
//! web/src/platform/pool.rs) starts each worker from a Blob holding wasm-bindgen's no-modules glue and
//! a bootstrap, so it works from any sub-path, in cross-origin iframes and from file://, with no
//! special headers. `run_gang(job, ports)` starts a member of a gang (`dp_playground::jobs::gang`):
//! its messages to the other members go straight to them, on the ports, never through the page.

/// Runs one encoded job of the kinds `KINDS` (`dp_playground::jobs::kind`) to the end, posting every
/// update.
#[cfg(target_arch = "wasm32")]
pub fn serve<const KINDS: u32>(job: &[u8]) {
    use dp_playground::jobs::{decode, encode, run_only, Job, Update};
    let mut post = |u: Update| post(&encode(&u), None);
    match decode::<Job>(job) {
        Ok(job) => run_only::<KINDS>(job, &mut post),
        Err(e) => post(Update::Error(e)),
    }
}

/// Posts `bytes` to the page (`to` `None`) or on a port; the buffer is transferred, not copied. It
/// is a spare one of the same length if this worker holds one ([`keep_spare`]), else a new one.
#[cfg(target_arch = "wasm32")]
fn post(bytes: &[u8], to: Option<&web_sys::MessagePort>) {
    use wasm_bindgen::JsCast;
    let spare = SPARE.with_borrow_mut(|spare| {
        let at = spare
            .iter()
            .position(|b| b.byte_length() as usize == bytes.len())?;
        Some(spare.swap_remove(at))
    });
    let bytes = match spare {
        Some(buffer) => {
            buffer.copy_from(bytes);
            buffer
        }
        None => js_sys::Uint8Array::from(bytes),
    };
    let transfer = js_sys::Array::of1(&bytes.buffer());
    // A closed page or port cannot receive anything: nothing to do about a failed post.
    let _ = match to {
        Some(port) => port.post_message_with_transferable(&bytes, &transfer),
        None => js_sys::global()
            .unchecked_into::<web_sys::DedicatedWorkerGlobalScope>()
            .post_message_with_transfer(&bytes, &transfer),
    };
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// Buffers that came in from other workers, kept to carry this worker's next messages of the
    /// same length. Why: a new 1.9 MB buffer (the MLP's share) took 2 ms to allocate and fill, a
    /// step's largest cost after the gradients; one that came in is filled in 0.4-0.6 ms. On a gang
    /// the shares' buffers then go back and forth, and none is allocated after the first step.
    static SPARE: std::cell::RefCell<Vec<js_sys::Uint8Array>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Keeps `bytes`, a message's whole buffer that this worker now owns, as a spare for [`post`]: up
/// to eight (a gang of nine receives eight shares a step and sends eight), all of the last length
/// kept (another run's shares have another length, and would never be used), and only large ones
/// (a member's small notes between shares would otherwise push the shares' buffers out).
#[cfg(target_arch = "wasm32")]
fn keep_spare(bytes: js_sys::Uint8Array) {
    const LARGE: u32 = 64 << 10;
    let whole = bytes.byte_offset() == 0 && bytes.byte_length() == bytes.buffer().byte_length();
    if !whole || bytes.byte_length() < LARGE {
        return;
    }
    SPARE.with_borrow_mut(|spare| {
        spare.retain(|b| b.byte_length() == bytes.byte_length());
        if spare.len() < 8 {
            spare.push(bytes);
        }
    });
}

#[cfg(target_arch = "wasm32")]
mod gang {
    use dp_playground::jobs::gang::{start_only, Clock, GangMember, GangOut};
    use dp_playground::jobs::{decode, encode, Job, Update};
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    /// The gang member this worker runs, and its channels (the page's at the member's number).
    struct Running {
        member: Box<dyn GangMember<Update>>,
        ports: Vec<web_sys::MessagePort>,
    }

    thread_local! {
        static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
        /// The last ended member's channels.
        static ENDED: RefCell<Vec<web_sys::MessagePort>> = const { RefCell::new(Vec::new()) };
    }

    /// Sends what a member sent: an update to the page, a message to every other member or to one.
    fn send(ports: &[web_sys::MessagePort], part: usize, o: GangOut<Update>) {
        match o {
            GangOut::Page(u) => super::post(&encode(&u), None),
            GangOut::Peers(bytes) => {
                let others = ports.iter().enumerate().filter(|(k, _)| *k != part);
                for (_, port) in others {
                    super::post(&bytes, Some(port));
                }
            }
            GangOut::Peer(k, bytes) => {
                if let Some(port) = ports.get(k).filter(|_| k != part) {
                    super::post(&bytes, Some(port));
                }
            }
        }
    }

    /// Ends the member's job: its last update to the page, and no more handling of its channels. They
    /// are not closed: a port closed right after its last post may lose that message before the
    /// other member reads it (the share of the last step). They are kept until the next gang.
    fn end(ports: Vec<web_sys::MessagePort>, last: Update) {
        for port in &ports {
            port.set_onmessage(None);
        }
        ENDED.with_borrow_mut(|e| *e = ports);
        super::post(&encode(&last), None);
    }

    /// Starts the gang member `job` (postcard [`Job`] bytes) with its channels `ports`, one per
    /// member, the page's at its own number; it then runs as messages arrive on them.
    pub fn start<const KINDS: u32>(job: &[u8], ports: js_sys::Array) {
        let ports: Vec<web_sys::MessagePort> =
            ports.iter().filter_map(|p| p.dyn_into().ok()).collect();
        let started = decode::<Job>(job).and_then(|job| {
            // Updates go to the page at once (a member alone runs its whole job here); which port
            // is the page's, and not a member's, is known once the member is.
            let mut early = Vec::new();
            let member = start_only::<KINDS>(job, clock(), &mut |o| match o {
                GangOut::Page(u) => super::post(&encode(&u), None),
                peers => early.push(peers),
            })?;
            for o in early {
                send(&ports, member.part(), o);
            }
            Ok(member)
        });
        let member = match started {
            Ok(m) if !m.done() => m,
            Ok(_) => return end(ports, Update::Done),
            Err(e) => return end(ports, Update::Error(e)),
        };
        for (from, port) in ports.iter().enumerate() {
            let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
                move |e: web_sys::MessageEvent| receive(from, &e.data()),
            );
            port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            // A few bytes per member ever started; its port drops the handler when it closes.
            on_message.forget();
        }
        let busy = member.busy();
        RUNNING.with_borrow_mut(|r| *r = Some(Running { member, ports }));
        if busy {
            work_later();
        }
    }

    /// The worker's `performance.now()` (a clock that never moves where there is none).
    fn clock() -> Clock {
        let performance = js_sys::global()
            .unchecked_into::<web_sys::WorkerGlobalScope>()
            .performance();
        Box::new(move || performance.as_ref().map_or(0.0, web_sys::Performance::now))
    }

    /// A message on channel `from`: the member takes it.
    fn receive(from: usize, data: &JsValue) {
        let view = match data.dyn_ref::<js_sys::Uint8Array>() {
            Some(view) => view.clone(),
            None => js_sys::Uint8Array::new(data),
        };
        let bytes = view.to_vec();
        with_member(|member, out| {
            // Another member's share: its buffer carries this member's next one.
            if from != member.part() {
                super::keep_spare(view);
            }
            member.receive(from, &bytes, out)
        });
    }

    /// Runs `f` on the running member: an error or its last step ends the job; otherwise, if the
    /// member is busy, its next piece runs after the messages that came meanwhile.
    fn with_member(
        f: impl FnOnce(
            &mut dyn GangMember<Update>,
            &mut dyn FnMut(GangOut<Update>),
        ) -> dp_playground::error::Result<()>,
    ) {
        RUNNING.with_borrow_mut(|slot| {
            let Some(Running { member, ports }) = slot else {
                return;
            };
            let part = member.part();
            let got = f(member.as_mut(), &mut |o| send(ports, part, o));
            let last = match got {
                Err(e) => Update::Error(e),
                Ok(()) if member.done() => Update::Done,
                Ok(()) => {
                    if member.busy() {
                        work_later();
                    }
                    return;
                }
            };
            if let Some(Running { ports, .. }) = slot.take() {
                end(ports, last);
            }
        });
    }

    thread_local! {
        /// A channel to this worker itself: a message on it runs the member's next piece after the
        /// messages already queued (a zero-delay timeout is clamped to 4 ms once nested). Its
        /// ports, and whether a piece is already queued.
        static YIELD: RefCell<Option<web_sys::MessageChannel>> = const { RefCell::new(None) };
        static QUEUED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Queues the member's next piece (once).
    fn work_later() {
        if QUEUED.replace(true) {
            return;
        }
        YIELD.with_borrow_mut(|channel| {
            if channel.is_none() {
                let Ok(made) = web_sys::MessageChannel::new() else {
                    return;
                };
                let on_message = Closure::<dyn FnMut()>::new(|| {
                    QUEUED.set(false);
                    with_member(|member, out| member.work(out));
                });
                made.port1()
                    .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                // One per worker, for its life.
                on_message.forget();
                *channel = Some(made);
            }
            if let Some(channel) = channel {
                // The worker's own channel stays open while it lives.
                let _ = channel.port2().post_message(&JsValue::NULL);
            }
        });
    }
}

/// Starts one gang member (`dp_playground::jobs::gang`) of the kinds `KINDS`, with its channels.
#[cfg(target_arch = "wasm32")]
pub fn serve_gang<const KINDS: u32>(job: &[u8], ports: js_sys::Array) {
    gang::start::<KINDS>(job, ports)
}

/// A worker module's entry point: `worker_module!(kinds)` exports `run` for jobs of those kinds.
#[macro_export]
macro_rules! worker_module {
    ($kinds:expr) => {
        #[cfg(target_arch = "wasm32")]
        mod exported {
            use wasm_bindgen::prelude::*;

            /// Runs one encoded job to the end, posting every update.
            #[wasm_bindgen]
            pub fn run(job: &[u8]) {
                $crate::serve::<{ $kinds }>(job)
            }

            /// Starts one member of a gang with its channels (one per member).
            #[wasm_bindgen]
            pub fn run_gang(job: &[u8], ports: js_sys::Array) {
                $crate::serve_gang::<{ $kinds }>(job, ports)
            }
        }

        // Natively an empty program (so `cargo test --workspace` builds it).
        fn main() {}
    };
}
