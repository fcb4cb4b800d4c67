//! Jobs that run as a gang: one job per worker, started together, each with a channel to every other
//! and one to the page (the pool's `gang` in `web/src/platform/pool.rs`, the workers' `run_gang` in
//! `worker/src/lib.rs`). A member reacts to messages: from the page (channel `part`, its own
//! number) or from another member (channel `k`, that member's number), and sends its updates to the
//! page and its messages to every other member. The bytes between members never cross the page's
//! thread: that is what the gang is for (the image lab's steps, [`crate::labs::images::mesh`]).

use super::{kind, Job, Update};
use crate::error::{Error, Result};
use crate::labs::images::jobs::ImagesJob;
use crate::labs::images::mesh::Member;

/// What a member sends.
#[derive(Debug, Clone, PartialEq)]
pub enum GangOut<U> {
    /// An update to the page.
    Page(U),
    /// A message to every other member.
    Peers(Vec<u8>),
}

impl<U> GangOut<U> {
    /// The same message, its update wrapped.
    pub fn map<V>(self, f: impl FnOnce(U) -> V) -> GangOut<V> {
        match self {
            GangOut::Page(u) => GangOut::Page(f(u)),
            GangOut::Peers(b) => GangOut::Peers(b),
        }
    }
}

/// One worker's member of a gang.
pub trait GangMember<U> {
    /// Its number in the gang (the page's channel has it too).
    fn part(&self) -> usize;

    /// Takes a message that came on channel `from`.
    ///
    /// # Errors
    /// A malformed or out-of-turn message, or the job's own failure.
    fn receive(&mut self, from: usize, bytes: &[u8], out: &mut dyn FnMut(GangOut<U>))
        -> Result<()>;

    /// Whether its job is over (then the worker reports [`Update::Done`]).
    fn done(&self) -> bool;
}

/// A lab's member, its updates wrapped in [`Update`].
struct Wrapped<M, U> {
    member: M,
    wrap: fn(U) -> Update,
}

impl<U, M: GangMember<U>> GangMember<Update> for Wrapped<M, U> {
    fn part(&self) -> usize {
        self.member.part()
    }

    fn receive(
        &mut self,
        from: usize,
        bytes: &[u8],
        out: &mut dyn FnMut(GangOut<Update>),
    ) -> Result<()> {
        let wrap = self.wrap;
        self.member.receive(from, bytes, &mut |o| out(o.map(wrap)))
    }

    fn done(&self) -> bool {
        self.member.done()
    }
}

/// Starts `job`'s member in a worker module that holds the jobs of `KINDS` (what it sends at once
/// goes to `out`).
///
/// # Errors
/// A job that does not run as a gang, or one of another module's kinds, or its own failure to start.
pub fn start_only<const KINDS: u32>(
    job: Job,
    out: &mut dyn FnMut(GangOut<Update>),
) -> Result<Box<dyn GangMember<Update>>> {
    match job {
        Job::Images(ImagesJob::Stretch(s)) if KINDS & kind::IMAGES != 0 => {
            let wrap: fn(_) -> Update = Update::Images;
            let member = Member::start(*s, &mut |o| out(o.map(wrap)))?;
            Ok(Box::new(Wrapped { member, wrap }))
        }
        _ => Err(Error::Worker {
            reason: "this job does not run as a gang in this worker module".into(),
        }),
    }
}
