//! Jobs that run as a gang: one job per worker, started together, each with a channel to every other
//! and one to the page (the pool's `gang` in `web/src/platform/pool.rs`, the workers' `run_gang` in
//! `worker/src/lib.rs`). A member reacts to messages: from the page (channel `part`, its own
//! number) or from another member (channel `k`, that member's number), and sends its updates to the
//! page and its messages to every other member or to one. The bytes between members never cross the
//! page's thread: that is what the gang is for (the image lab's steps,
//! [`crate::labs::images::mesh`]).

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
    /// A message to one other member (by its number).
    Peer(usize, Vec<u8>),
}

impl<U> GangOut<U> {
    /// The same message, its update wrapped.
    pub fn map<V>(self, f: impl FnOnce(U) -> V) -> GangOut<V> {
        match self {
            GangOut::Page(u) => GangOut::Page(f(u)),
            GangOut::Peers(b) => GangOut::Peers(b),
            GangOut::Peer(k, b) => GangOut::Peer(k, b),
        }
    }
}

/// A member's clock: milliseconds since any fixed origin (in a worker `performance.now()`, natively an
/// `Instant`'s). It is read only to balance the members' work ([`Balance`]), never for a result.
pub type Clock = Box<dyn FnMut() -> f64>;

/// A clock that never moves: its members keep an even split.
pub fn stopped_clock() -> Clock {
    Box::new(|| 0.0)
}

/// Each member's fraction of a round's work, moved after every round toward the split that would
/// have had the members finish together.
///
/// Why: the members step in lockstep, so a round lasts as long as its slowest member. On a machine
/// whose cores also run the page and the browser, one worker is often slowed for many rounds at a
/// time. An even split then runs at twice the slower worker's speed; this split runs near the sum of
/// both. Every member updates it from the same times (its own as it sent them, the others' from
/// their messages), so they all hold the same bounds. What the members compute must not depend on
/// the split (the image lab's sums are integers).
#[derive(Debug, Clone, PartialEq)]
pub struct Balance {
    fractions: Vec<f64>,
}

impl Balance {
    /// How far a round moves the split toward the one it measured: halfway. The slowdowns seen on a
    /// two-core machine last for many rounds, and this halves a single round's noise.
    const PULL: f64 = 0.5;

    /// No member's fraction falls below this share of an even split's (a stalled worker still
    /// reports back and can recover its share).
    const FLOOR: f64 = 0.25;

    /// An even split over `parts` members (at least 1).
    pub fn even(parts: usize) -> Self {
        let parts = parts.max(1);
        Balance {
            fractions: vec![1.0 / parts as f64; parts],
        }
    }

    /// Where each member's part starts and ends: `parts + 1` nondecreasing values in [0, 1], exactly
    /// 0 first and 1 last. Member k takes `[bounds[k], bounds[k + 1])`.
    pub fn bounds(&self) -> Vec<f64> {
        let mut bounds = Vec::with_capacity(self.fractions.len() + 1);
        let mut at = 0.0;
        bounds.push(at);
        for f in &self.fractions[..self.fractions.len() - 1] {
            at = (at + f).min(1.0);
            bounds.push(at);
        }
        bounds.push(1.0);
        bounds
    }

    /// Takes a round's work: member k summed fraction `work[k].0` of it in `work[k].1` milliseconds
    /// (a member that ran out takes spans from another, so the fractions need not be the split's).
    /// A round with a time that is not positive and finite (a clock that did not move), or a
    /// fraction that is negative or not finite, leaves the split as it was.
    pub fn update(&mut self, work: &[(f64, f64)]) {
        let usable = |&(done, took): &(f64, f64)| {
            done.is_finite() && done >= 0.0 && took.is_finite() && took > 0.0
        };
        if work.len() != self.fractions.len() || !work.iter().all(usable) {
            return;
        }
        let speeds: Vec<f64> = work.iter().map(|(done, took)| done / took).collect();
        let total: f64 = speeds.iter().sum();
        if !(total.is_finite() && total > 0.0) {
            return;
        }
        let floor = Self::FLOOR / self.fractions.len() as f64;
        for (f, s) in self.fractions.iter_mut().zip(&speeds) {
            *f = ((1.0 - Self::PULL) * *f + Self::PULL * s / total).max(floor);
        }
        let sum: f64 = self.fractions.iter().sum();
        for f in &mut self.fractions {
            *f /= sum;
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

    /// Whether it has work to do before its next message ([`GangMember::work`]). Its worker then
    /// calls `work` again after reading the messages that came meanwhile: a member works in pieces
    /// of a few milliseconds, so that another member's message is read between them.
    fn busy(&self) -> bool {
        false
    }

    /// Does its next piece of work.
    ///
    /// # Errors
    /// The job's own failure.
    fn work(&mut self, out: &mut dyn FnMut(GangOut<U>)) -> Result<()> {
        let _ = out;
        Ok(())
    }
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

    fn busy(&self) -> bool {
        self.member.busy()
    }

    fn work(&mut self, out: &mut dyn FnMut(GangOut<Update>)) -> Result<()> {
        let wrap = self.wrap;
        self.member.work(&mut |o| out(o.map(wrap)))
    }
}

/// Starts `job`'s member in a worker module that holds the jobs of `KINDS`, reading `clock` to
/// balance its work (what it sends at once goes to `out`).
///
/// # Errors
/// A job that does not run as a gang, or one of another module's kinds, or its own failure to start.
pub fn start_only<const KINDS: u32>(
    job: Job,
    clock: Clock,
    out: &mut dyn FnMut(GangOut<Update>),
) -> Result<Box<dyn GangMember<Update>>> {
    match job {
        Job::Images(ImagesJob::Stretch(s)) if KINDS & kind::IMAGES != 0 => {
            let wrap: fn(_) -> Update = Update::Images;
            let member = Member::start(*s, clock, &mut |o| out(o.map(wrap)))?;
            Ok(Box::new(Wrapped { member, wrap }))
        }
        _ => Err(Error::Worker {
            reason: "this job does not run as a gang in this worker module".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::Balance;

    /// The split moves toward the measured speeds, its bounds always run from exactly 0 to exactly
    /// 1, and a round without usable times changes nothing.
    #[test]
    fn balance_follows_the_measured_speeds() {
        let mut b = Balance::even(2);
        assert_eq!(b.bounds(), [0.0, 0.5, 1.0]);
        // Member 1 takes three times as long for the same work: a speed of 1 against 3.
        for _ in 0..30 {
            let [f0, f1] = [b.fractions[0], b.fractions[1]];
            b.update(&[(f0, f0), (f1, 3.0 * f1)]);
        }
        let bounds = b.bounds();
        assert!((bounds[1] - 0.75).abs() < 1e-6, "{bounds:?}");
        assert_eq!((bounds[0], bounds[2]), (0.0, 1.0));
        let before = b.clone();
        for bad in [
            [(0.5, 0.0), (0.5, 1.0)],
            [(0.5, f64::NAN), (0.5, 1.0)],
            [(0.5, 1.0), (0.5, f64::INFINITY)],
            [(0.5, -1.0), (0.5, 2.0)],
            [(f64::NAN, 1.0), (0.5, 1.0)],
            [(-0.1, 1.0), (1.1, 1.0)],
        ] {
            b.update(&bad);
            assert_eq!(b, before, "{bad:?}");
        }
        b.update(&[(1.0, 1.0)]);
        assert_eq!(b, before, "times of another gang");
    }

    /// A member that stalls keeps a floor of a quarter of an even share; three members' bounds
    /// stay ordered.
    #[test]
    fn a_stalled_member_keeps_a_floor() {
        let mut b = Balance::even(3);
        for _ in 0..40 {
            b.update(&[(1.0 / 3.0, 1.0), (1.0 / 3.0, 1.0), (1.0 / 3.0, 1e12)]);
        }
        let bounds = b.bounds();
        assert!(bounds.windows(2).all(|w| w[0] <= w[1]), "{bounds:?}");
        assert_eq!((bounds[0], bounds[3]), (0.0, 1.0));
        let last = bounds[3] - bounds[2];
        assert!((last - 0.25 / 3.0).abs() < 0.01, "{bounds:?}");
        assert_eq!(Balance::even(0).bounds(), [0.0, 1.0]);
    }
}
