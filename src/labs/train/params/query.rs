//! The training lab's link: [`TrainParams`] read from a query (each bad value falls back to its
//! default with a notice) and written back as one.

use super::*;

fn parse_list<T: std::str::FromStr>(name: &'static str, s: &str) -> Result<Vec<T>> {
    s.split(',')
        .map(|c| c.trim().parse::<T>())
        .collect::<std::result::Result<Vec<T>, _>>()
        .map_err(|_| Error::invalid(name, s, "must be a comma-separated list of numbers"))
}

fn parse_hidden(s: &str) -> Result<Vec<usize>> {
    let h: Vec<usize> = parse_list("hidden", s)?;
    if h.is_empty() || h.len() > 2 || h.iter().any(|&u| u == 0 || u > MAX_UNITS) {
        return Err(Error::invalid(
            "hidden",
            s,
            format!("must be one or two layers of 1 to {MAX_UNITS} units (8 or 8,8)"),
        ));
    }
    Ok(h)
}

/// A comma list of 1 to `most` positive finite numbers up to `hi` (the sweep's σ's, the comparison's
/// ε's); `what` names them in the message.
fn parse_positive_list(
    name: &'static str,
    s: &str,
    most: usize,
    hi: f64,
    what: &str,
) -> Result<Vec<f64>> {
    let v: Vec<f64> = parse_list(name, s)?;
    if v.is_empty() || v.len() > most || v.iter().any(|&x| !(x.is_finite() && x > 0.0 && x <= hi)) {
        return Err(Error::invalid(
            name,
            s,
            format!(
                "must be 1 to {most} {what} in (0, {}], comma-separated",
                fmt_f64(hi)
            ),
        ));
    }
    Ok(v)
}

fn parse_sweep(s: &str) -> Result<Vec<f64>> {
    parse_positive_list("sweep", s, 16, 1e3, "noise multipliers σ")
}

fn parse_compare_eps(s: &str) -> Result<Vec<f64>> {
    parse_positive_list("compare_eps", s, 8, 100.0, "targets ε")
}

fn join<T: std::fmt::Display>(v: &[T]) -> String {
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

impl LinkParams for TrainParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = TrainParams::default();
        let mut r = Reader::new(query);
        let data = r.parse_with("data", d.data, |k| k.key().to_owned(), DataKind::parse);
        let n = r.whole("n", d.n, 20, 20_000);
        let noise = r.parse("noise", d.noise, |s| {
            crate::link::query::parse_number("noise", s).and_then(|v| {
                if (0.0..=0.5).contains(&v) {
                    Ok(v)
                } else {
                    Err(Error::invalid("noise", s, "must be between 0 and 0.5"))
                }
            })
        });
        let dim = r.whole("dim", d.dim, 1, 1000);
        let split = r.number("split", d.split, Within::up_to(0.05, 0.95));
        let model = r.parse_with(
            "model",
            d.model,
            |k| k.key().to_owned(),
            |s| {
                ModelKind::from_key(s.trim())
                    .ok_or_else(|| Error::invalid("model", s, "must be logreg or mlp"))
            },
        );
        let hidden = r.parse_with("hidden", d.hidden.clone(), |h| join(h), parse_hidden);
        let act = r.parse_with(
            "act",
            d.act,
            |a| a.key().to_owned(),
            |s| {
                Activation::from_key(s.trim())
                    .ok_or_else(|| Error::invalid("act", s, "must be tanh or relu"))
            },
        );
        let lambda = r.parse("lambda", d.lambda, |s| {
            crate::link::query::parse_number("lambda", s).and_then(|v| {
                if (0.0..=10.0).contains(&v) {
                    Ok(v)
                } else {
                    Err(Error::invalid("lambda", s, "must be between 0 and 10"))
                }
            })
        });
        let lr = r.number("lr", d.lr, Within::up_to(0.0, 100.0));
        let batch = r.whole("batch", d.batch, 1, 100_000);
        let q = r.optional_number("q", Within::up_to(0.0, 1.0), "using batch/n");
        let plan_n = r.optional_whole("plan_n", 1, 1_000_000_000, "no planned data size");
        let sigma = r.number("sigma", d.sigma, Within::up_to(0.0, 1e3));
        let clip = r.number("clip", d.clip, Within::up_to(0.0, 1e6));
        let epochs = r.number("epochs", d.epochs, Within::up_to(0.0, 1e4));
        let steps = r.optional_whole("steps", 1, MAX_STEPS, "using the epochs");
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        let target_eps = r.number("target_eps", d.target_eps, Within::up_to(0.0, 100.0));
        let mech = r.parse_with("mech", d.mech, |m| m.key(), Mechanism::parse);
        let compare = r.parse_with(
            "compare",
            Vec::new(),
            |m: &Vec<Mechanism>| mechs_key(m),
            |s| {
                s.split(',')
                    .filter(|t| !t.trim().is_empty())
                    .map(Mechanism::parse)
                    .collect::<Result<Vec<_>>>()
            },
        );
        let compare_eps = r.parse_with(
            "compare_eps",
            Vec::new(),
            |v: &Vec<f64>| join(v),
            parse_compare_eps,
        );
        let stop = r.parse_with(
            "stop",
            d.stop,
            |b| if *b { "1" } else { "0" }.into(),
            |s| match s.trim() {
                "1" | "true" | "on" | "yes" => Ok(true),
                "0" | "false" | "off" | "no" => Ok(false),
                _ => Err(Error::invalid("stop", s, "must be 1 or 0")),
            },
        );
        let sampler = r.parse("sampler", d.sampler, Sampler::parse);
        let cap = r.optional_whole("cap", 1, 1_000_000, "using 10% above the mean batch");
        let seed = r.parse("seed", d.seed, parse_seed);
        let seeds = r.whole("seeds", d.seeds, 1, 20);
        let sweep = r.parse_with("sweep", d.sweep.clone(), |v| join(v), parse_sweep);
        let audit = crate::labs::train::audit::AuditParams::read(&mut r);
        let mia = crate::labs::train::mia::MiaParams::read(&mut r);
        let mut p = TrainParams {
            data,
            n,
            noise,
            dim,
            split,
            model,
            hidden,
            act,
            lambda,
            lr,
            batch,
            plan_n,
            q,
            sigma,
            clip,
            epochs,
            steps,
            delta,
            target_eps,
            stop,
            sampler,
            cap,
            seed,
            seeds,
            sweep,
            mech,
            compare,
            compare_eps,
            audit,
            mia,
        };
        if p.stop && !StepRdp::exists_for(p.sampler) {
            r.notice("stop", no_stop_rule(p.sampler));
            p.stop = false;
        }
        if p.mech != Mechanism::DpSgd {
            if p.stop {
                r.notice("stop", NO_STOP_CORRELATED.to_string());
                p.stop = false;
            }
            if p.sampler != Sampler::Poisson {
                r.notice(
                    "sampler",
                    format!(
                        "is set by the noise: {} takes {}, so `sampler={}` is not used.",
                        p.mech.title(),
                        p.mech.batches(),
                        p.sampler.key()
                    ),
                );
            }
        }
        let rows = p.rows(0);
        if p.data != DataKind::Csv && p.q.is_none() && p.batch as usize > p.train_rows(0) {
            r.notice(
                "batch",
                format!(
                    "batch = {} exceeds the {} training rows: sampling every row (q = 1).",
                    p.batch,
                    p.train_rows(0)
                ),
            );
        }
        if p.steps.is_none()
            && p.data != DataKind::Csv
            && p.epochs / p.rate(rows) > MAX_STEPS as f64
        {
            r.notice(
                "epochs",
                format!(
                    "{} epochs at q = {} exceed {MAX_STEPS} steps; using {MAX_STEPS} steps.",
                    fmt_f64(p.epochs),
                    fmt_f64(p.rate(rows))
                ),
            );
            p.steps = Some(MAX_STEPS);
        }
        r.finish(p)
    }

    fn to_query(&self) -> Query {
        let mut q = Query::default()
            .with("lab", "train")
            .with("data", self.data.key());
        if self.data.shape().is_some() || self.data == DataKind::HighDim {
            q.set("n", self.n.to_string());
        }
        if self.data.shape().is_some() {
            q.set("noise", fmt_f64(self.noise));
        }
        if self.data == DataKind::HighDim {
            q.set("dim", self.dim.to_string());
        }
        q.set("split", fmt_f64(self.split));
        q.set("model", self.model.key());
        if self.model == ModelKind::Mlp {
            q.set("hidden", join(&self.hidden));
            q.set("act", self.act.key());
        }
        q.set("lambda", fmt_f64(self.lambda));
        q.set("lr", fmt_f64(self.lr));
        q.set("batch", self.batch.to_string());
        if let Some(rate) = self.q {
            q.set("q", fmt_f64(rate));
        }
        if let Some(n) = self.plan_n {
            q.set("plan_n", n.to_string());
        }
        q.set("sigma", fmt_f64(self.sigma));
        q.set("clip", fmt_f64(self.clip));
        q.set("epochs", fmt_f64(self.epochs));
        if let Some(t) = self.steps {
            q.set("steps", t.to_string());
        }
        q.set("delta", fmt_f64(self.delta));
        q.set("target_eps", fmt_f64(self.target_eps));
        if self.stop {
            q.set("stop", "1");
        }
        if self.sampler != Sampler::Poisson {
            q.set("sampler", self.sampler.key());
        }
        if let Some(cap) = self.cap {
            q.set("cap", cap.to_string());
        }
        q.set("seed", self.seed.to_string());
        q.set("seeds", self.seeds.to_string());
        q.set("sweep", join(&self.sweep));
        if self.mech != Mechanism::DpSgd {
            q.set("mech", self.mech.key());
        }
        if !self.compare.is_empty() {
            q.set("compare", mechs_key(&self.compare));
        }
        if !self.compare_eps.is_empty() {
            q.set("compare_eps", join(&self.compare_eps));
        }
        self.audit.write(&mut q);
        self.mia.write(&mut q);
        q
    }
}

/// The `compare` list's text: `bandmf:4,blt`.
fn mechs_key(m: &[Mechanism]) -> String {
    m.iter().map(|m| m.key()).collect::<Vec<_>>().join(",")
}
