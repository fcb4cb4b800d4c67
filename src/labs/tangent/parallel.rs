//! The report in parts that can run anywhere (a web worker each) and merge, in a fixed order, to the
//! same bits whatever the number of threads: the empirical risk split over the parameters (each sum over
//! the data runs in data order, so any split gives the same sums), then the norms' columns in
//! ranges fixed by the instance's size ([`parts_for`]) whose accumulators are added in range order.

use super::{Report, TangentParams};
use crate::error::{Error, Result};
use crate::tangent::gibbs::{log_gibbs, Instance};
use crate::tangent::kernel::Kernel;
use crate::tangent::norms::{finish_work, parts_for, split, NormsContext, NormsPart};
use crate::tangent::removal::{change, risks_after_removals};
use std::ops::Range;

/// A validated link's instance and parameter points.
#[derive(Debug, Clone)]
pub struct Plan {
    remove: usize,
    instance: Instance,
    params: Vec<(f64, f64)>,
    kernel: Kernel,
}

/// The second pass: ln q and what every column range shares.
#[derive(Debug, Clone)]
pub struct Columns {
    /// ln q over the parameters.
    pub log_q: Vec<f64>,
    ctx: NormsContext,
}

impl Plan {
    /// Checks the removal index against the data.
    ///
    /// # Errors
    /// A removal index out of range, or fewer than 2 points.
    pub fn new(p: &TangentParams) -> Result<Self> {
        let instance = p.instance();
        let n = instance.data.len();
        if n < 2 || p.remove >= n {
            return Err(Error::invalid(
                "remove",
                p.remove,
                format!("must be a point index from 0 to {}", n.saturating_sub(1)),
            ));
        }
        let params = instance.params();
        Ok(Plan {
            remove: p.remove,
            kernel: Kernel::new(&instance, &params),
            params,
            instance,
        })
    }

    /// Parameter points (grid cells).
    pub fn parameters(&self) -> usize {
        self.params.len()
    }

    /// Loss evaluations in all: the risk, then a value per candidate and a slope per data point,
    /// at every parameter (for progress).
    pub fn evaluations(&self) -> f64 {
        let k = self.instance.candidates().len();
        self.risk_evaluations() + (self.params.len() as f64) * k as f64
    }

    /// Whether the instance is small enough for the page to compute the report itself: both passes and
    /// an upper bound on the merge's work ([`finish_work`]: the pairs and the sign iteration, which
    /// can dwarf the passes when there are few parameters and many candidates) come to at most
    /// [`Plan::ON_PAGE_WORK`]. The page then runs [`Plan::report`], the same parts in the same order
    /// as the workers, so the numbers are the same bits either way.
    pub fn fits_on_page(&self) -> bool {
        self.page_work() <= Self::ON_PAGE_WORK
    }

    /// The whole report's work in loss evaluations, the merge counted by its upper bound.
    pub fn page_work(&self) -> f64 {
        let k = self.instance.candidates().len();
        self.evaluations() + finish_work(k, self.params.len(), self.instance.data.len())
    }

    /// Work the page does itself: the default link's bound is 8.7·10⁵ and its report takes 25 ms cold,
    /// 6–16 ms warm in Chromium on the 2-core test machine (see docs/performance.md).
    pub const ON_PAGE_WORK: f64 = 2e6;

    /// Loss evaluations of the first pass (the risk): parameters × data points.
    pub fn risk_evaluations(&self) -> f64 {
        (self.params.len() as f64) * self.instance.data.len() as f64
    }

    /// The whole report on one thread: every part of both passes in range order, then the merge,
    /// exactly as the workers run them (so the numbers are the same bits).
    pub fn report(&self) -> Report {
        let risk: Vec<f64> = self
            .risk_ranges()
            .into_iter()
            .flat_map(|r| self.risk_part(r, &mut |_| {}))
            .collect();
        let columns = self.columns(&risk);
        let parts = columns
            .ranges()
            .into_iter()
            .map(|r| columns.part(r, &mut |_| {}))
            .collect();
        self.finish(risk, columns.log_q, parts)
    }

    /// The parameter ranges of the first pass ([`parts_for`] its work; any split gives the same sums).
    pub fn risk_ranges(&self) -> Vec<Range<usize>> {
        let work = self.params.len().saturating_mul(self.instance.data.len());
        split(self.params.len(), parts_for(work))
    }

    /// The empirical risk Σ_i r(w, x_i)/N at the parameters `range` ([`Kernel`]'s values), each sum in
    /// data order; calls
    /// `progress` with the loss evaluations done every few million.
    pub fn risk_part(&self, range: Range<usize>, progress: &mut dyn FnMut(f64)) -> Vec<f64> {
        let inst = &self.instance;
        let end = range.end.min(self.params.len());
        let range = range.start.min(end)..end;
        let mut risk = vec![0.0; range.len()];
        let weight = 1.0 / inst.data.len() as f64;
        let every = (2_000_000 / range.len().max(1)).max(1);
        let mut values = Vec::with_capacity(range.len());
        for (i, &x) in inst.data.iter().enumerate() {
            self.kernel.values(x, range.clone(), &mut values);
            for (r, v) in risk.iter_mut().zip(&values) {
                *r += weight * v;
            }
            if (i + 1).is_multiple_of(every) {
                progress(((i + 1) * range.len()) as f64);
            }
        }
        risk
    }

    /// The Gibbs distribution from the whole risk, and the context of the columns' pass.
    pub fn columns(&self, risk: &[f64]) -> Columns {
        let log_q = log_gibbs(self.instance.beta, risk);
        Columns {
            ctx: NormsContext::new(&self.instance, &self.params, &log_q),
            log_q,
        }
    }

    /// The report from the whole risk, the ln q the column parts used (so that no module's own
    /// rounding of ln q can differ from theirs) and the parts in range order.
    pub fn finish(&self, risk: Vec<f64>, log_q: Vec<f64>, parts: Vec<NormsPart>) -> Report {
        let columns = Columns::from_log_q(self, log_q);
        let merged = NormsPart::merge(&columns.ctx, parts);
        let norms = columns.ctx.finish(&merged);
        let inst = &self.instance;
        let n = inst.data.len();
        let reduced = risks_after_removals(inst, &self.params, &risk, &[self.remove]);
        let removal = change(
            inst.beta,
            &risk,
            &reduced[0],
            2.0 / n as f64,
            norms.r_thm31,
            norms.r_max,
        );
        Report {
            instance: inst.clone(),
            params: self.params.clone(),
            rbar: merged.rbar().to_vec(),
            log_q: columns.log_q,
            risk,
            dp_eps: 2.0 * inst.beta * norms.r_max / n as f64,
            norms,
            removal,
        }
    }
}

impl Columns {
    /// Rebuilds the pass from ln q (in a worker that received it).
    pub fn from_log_q(plan: &Plan, log_q: Vec<f64>) -> Columns {
        Columns {
            ctx: NormsContext::new(&plan.instance, &plan.params, &log_q),
            log_q,
        }
    }

    /// The fixed column ranges (the same for any number of workers).
    pub fn ranges(&self) -> Vec<Range<usize>> {
        self.ctx.parts()
    }

    /// The accumulators of the columns `range`; `progress` gets the loss evaluations done.
    pub fn part(&self, range: Range<usize>, progress: &mut dyn FnMut(f64)) -> NormsPart {
        let cost = self.ctx.column_cost() as f64;
        let end = range.end.min(self.ctx.columns());
        NormsPart::compute(&self.ctx, range.start.min(end)..end, &mut |cols| {
            progress(cols as f64 * cost)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;
    use crate::link::query::Query;

    fn plan(query: &str) -> Plan {
        Plan::new(&TangentParams::from_query(&Query::parse(query)).0).unwrap()
    }

    /// The default link is computed on the page; the browser tests' pool instances are not.
    #[test]
    fn only_small_instances_fit_on_the_page() {
        let default = plan("lab=tangent");
        assert!(default.fits_on_page(), "{}", default.page_work());
        // The browser test that compares the page's report with the pool's.
        let small =
            plan("lab=tangent&model=linear2d&loss=logistic&beta=5&n=60&seed=4&wgrid=-2:2:15");
        assert!(small.fits_on_page(), "{}", small.page_work());
        let pooled =
            plan("lab=tangent&model=linear2d&loss=savage&beta=8&n=400&seed=3&wgrid=-3:3:41");
        assert!(!pooled.fits_on_page(), "{}", pooled.evaluations());
        assert!(!plan("lab=tangent&model=linear2d&n=10000&wgrid=-3:3:200").fits_on_page());
        // Few parameters and many candidates: few loss evaluations, but every pair of 6000 columns.
        let pairs = plan("lab=tangent&n=6000&wgrid=-3:3:10");
        assert!(pairs.evaluations() < 3e5, "{}", pairs.evaluations());
        assert!(!pairs.fits_on_page(), "{}", pairs.page_work());
    }
}
