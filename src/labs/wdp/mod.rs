//! The WDP lab (`?lab=wdp&fig=1|2|3`): reproduces Table 1 and Figures 1–3 of Yang, Qi & Zhou, "Wasserstein
//! Differential Privacy" (AAAI 2024). Parameters from the link, the figures' data, and the share text.

pub mod info;

/// The parameters this lab reads from its link.
pub type Params = WdpParams;

use crate::error::{Error, Result};
use crate::link::query::{
    fmt_f64, parse_number_in as number, parse_seed, LinkParams, Notice, Query, Reader, Within,
};
use crate::wdp::accountants::PairRule;
use crate::wdp::mechanisms::{rdp_gauss, rdp_laplace, wdp_gauss, wdp_laplace};
use crate::wdp::synthetic::QUANTILES;
use crate::wdp::tail;

mod figures;
pub mod jobs;
pub use figures::{fig1_curves, fig3_by_beta, fig3_by_delta, markdown, order_grid, table1};

/// Largest order the Figure 1 panels accept.
pub const MAX_ORDER: f64 = 1e4;
/// Points on Figure 1's order grid (the spec's 100).
pub const ORDER_POINTS: usize = 100;
/// Most scales (curves) per Figure 1 panel.
pub const MAX_SCALES: usize = 8;

crate::choice! {
    /// Which figure the lab shows.
    #[derive(Debug)]
    pub enum Figure {
        /// Figure 1 and Table 1: budgets of the basic mechanisms against the order.
        Mechanisms = "1" => "Figure 1 and Table 1: basic mechanisms",
        /// Figure 2: the three accountants on synthetic gradients.
        Accountants = "2" => "Figure 2: three accountants on synthetic gradients",
        /// Figure 3: the effect of β and δ.
        BetaDelta = "3" => "Figure 3: the effect of β and δ",
    }
}

impl Figure {
    fn parse(s: &str) -> Result<Self> {
        let t = s.trim().trim_start_matches("fig").trim_start_matches("ure");
        Self::from_key(t).ok_or_else(|| Error::invalid("fig", s, "must be 1, 2 or 3"))
    }
}

crate::choice! {
    /// One of Figure 1's four panels.
    #[derive(Debug)]
    pub enum Panel {
        /// RDP of the Laplace mechanism against α.
        RdpLaplace = "rdp-laplace" => "RDP-LM",
        /// WDP of the Laplace mechanism against μ.
        WdpLaplace = "wdp-laplace" => "WDP-LM",
        /// RDP of the Gaussian mechanism against α.
        RdpGauss = "rdp-gauss" => "RDP-GM",
        /// WDP of the Gaussian mechanism against μ.
        WdpGauss = "wdp-gauss" => "WDP-GM",
    }
}

impl Panel {
    fn parse(s: &str) -> Result<Self> {
        // The paper's names too: RDP-LM, WDP-GM, …, and "gaussian" for "gauss".
        let t = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        let t = t
            .replace("gaussian", "gauss")
            .replace("-lm", "-laplace")
            .replace("-gm", "-gauss");
        Self::from_key(&t).ok_or_else(|| {
            Error::invalid(
                "panel",
                s,
                "must be rdp-laplace, wdp-laplace, rdp-gauss or wdp-gauss",
            )
        })
    }

    /// The order's symbol on the x axis (α for RDP, μ for WDP).
    pub fn order_symbol(self) -> &'static str {
        match self {
            Panel::RdpLaplace | Panel::RdpGauss => "α",
            Panel::WdpLaplace | Panel::WdpGauss => "μ",
        }
    }

    /// The scale's symbol (λ for Laplace, σ for Gaussian).
    pub fn scale_symbol(self) -> &'static str {
        match self {
            Panel::RdpLaplace | Panel::WdpLaplace => "λ",
            Panel::RdpGauss | Panel::WdpGauss => "σ",
        }
    }

    /// The panel's ε at an order for a scale and sensitivity.
    pub fn value(self, order: f64, scale: f64, sens: f64) -> f64 {
        match self {
            Panel::RdpLaplace => rdp_laplace(order, scale, sens),
            Panel::WdpLaplace => wdp_laplace(order, scale, sens),
            Panel::RdpGauss => rdp_gauss(order, scale, sens),
            Panel::WdpGauss => wdp_gauss(order, scale, sens),
        }
    }
}

/// Everything a WDP link holds.
#[derive(Debug, Clone, PartialEq)]
pub struct WdpParams {
    /// The figure shown.
    pub fig: Figure,
    /// Figure 1: the panel whose value is read out.
    pub panel: Panel,
    /// Figure 1: the scale (λ or σ) read out.
    pub scale: f64,
    /// Figure 1: the order (α or μ) read out, any real ≥ 1.
    pub order: f64,
    /// Figure 1: the scales drawn, one curve each.
    pub scales: Vec<f64>,
    /// Figure 1: the sensitivity Δ.
    pub sens: f64,
    /// Figure 1: the order range drawn.
    pub order_min: f64,
    /// Figure 1: the order range drawn.
    pub order_max: f64,
    /// Figure 1: the top of the y axis (curves above it are clipped, as in the paper).
    pub y_max: f64,
    /// Figure 2: the seed of the synthetic gradients.
    pub seed: u64,
    /// Figure 2: the index into [`QUANTILES`] of the panel read out.
    pub quantile: usize,
    /// Figure 2: clip the gradients (the published curves) or not (the caption's words).
    pub clip: bool,
    /// Figure 2: how WDP combines the pairs.
    pub pairs: PairRule,
    /// Figure 3: β.
    pub beta: f64,
    /// Figure 3: δ.
    pub delta: f64,
    /// Figure 3: the Wasserstein term W = Σ_t w_t.
    pub w: f64,
}

impl Default for WdpParams {
    /// The paper's settings; the read-outs at WDP-GM, σ = 1, μ = 2; quantile 0.5; β = 1, δ = 1e-5, W = 10.
    fn default() -> Self {
        WdpParams {
            fig: Figure::Mechanisms,
            panel: Panel::WdpGauss,
            scale: 1.0,
            order: 2.0,
            scales: vec![1.0, 2.0, 3.0, 5.0],
            sens: 1.0,
            order_min: 1.0,
            order_max: 10.0,
            y_max: 2.0,
            seed: 1,
            quantile: 1,
            clip: true,
            pairs: PairRule::Sum,
            beta: 1.0,
            delta: 1e-5,
            w: 10.0,
        }
    }
}

/// Prints a list of numbers as the `scales` key holds it.
pub fn format_scales(scales: &[f64]) -> String {
    scales
        .iter()
        .map(|s| fmt_f64(*s))
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_scales(s: &str) -> Result<Vec<f64>> {
    let v = s
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| number("scales", t, 0.0, 1e6, true))
        .collect::<Result<Vec<f64>>>()?;
    if v.is_empty() || v.len() > MAX_SCALES {
        return Err(Error::invalid(
            "scales",
            s,
            format!("must list 1 to {MAX_SCALES} numbers in (0, 1e6]"),
        ));
    }
    Ok(v)
}

fn parse_quantile(s: &str) -> Result<usize> {
    let x = crate::link::query::parse_number("quantile", s)?;
    QUANTILES
        .iter()
        .position(|q| (q - x).abs() < 1e-9)
        .ok_or_else(|| Error::invalid("quantile", s, "must be 0.05, 0.5, 0.75 or 0.99"))
}

fn parse_switch(name: &'static str, s: &str) -> Result<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" | "1" | "true" | "yes" => Ok(true),
        "off" | "0" | "false" | "no" => Ok(false),
        _ => Err(Error::invalid(name, s, "must be on or off")),
    }
}

fn parse_pairs(s: &str) -> Result<PairRule> {
    PairRule::from_key(s).ok_or_else(|| Error::invalid("pairs", s, "must be sum or inf"))
}

/// The `pairs` key's value for a rule.
pub fn pairs_key(rule: PairRule) -> &'static str {
    rule.key()
}

/// The `clip` key's value.
pub fn clip_key(clip: bool) -> &'static str {
    if clip {
        "on"
    } else {
        "off"
    }
}

impl WdpParams {
    /// Figure 1's read-out: the chosen panel at the chosen scale and order.
    pub fn fig1_value(&self) -> f64 {
        self.panel.value(self.order, self.scale, self.sens)
    }

    /// Figure 3's read-out: ε = W − (ln δ)/β.
    pub fn fig3_value(&self) -> f64 {
        tail::epsilon(self.w, self.beta, self.delta)
    }
}

fn order_in(name: &'static str, s: &str) -> Result<f64> {
    let x = crate::link::query::parse_number(name, s)?;
    if (1.0..=MAX_ORDER).contains(&x) {
        Ok(x)
    } else {
        Err(Error::invalid(name, s, "must be an order from 1 to 10000"))
    }
}

fn parse_w(s: &str) -> Result<f64> {
    let x = crate::link::query::parse_number("w", s)?;
    if (0.0..=1e12).contains(&x) {
        Ok(x)
    } else {
        Err(Error::invalid(
            "w",
            s,
            "must be a sum of Wasserstein terms from 0 to 1e12",
        ))
    }
}

impl LinkParams for WdpParams {
    fn from_query(query: &Query) -> (Self, Vec<Notice>) {
        let d = WdpParams::default();
        let mut r = Reader::new(query);
        let fig = r.parse("fig", d.fig, Figure::parse);
        let panel = r.parse("panel", d.panel, Panel::parse);
        let scale = r.number("scale", d.scale, Within::up_to(0.0, 1e6));
        let order = r.parse("order", d.order, |s| order_in("order", s));
        let scales = r.parse_with(
            "scales",
            d.scales.clone(),
            |v| format_scales(v),
            parse_scales,
        );
        let sens = r.number("sens", d.sens, Within::up_to(0.0, 1e6));
        let mut order_min = r.parse("omin", d.order_min, |s| order_in("omin", s));
        let mut order_max = r.parse("omax", d.order_max, |s| order_in("omax", s));
        if order_max <= order_min {
            r.notice(
                "omax",
                format!(
                    "The order range [{}, {}] is empty; using [1, 10] instead.",
                    fmt_f64(order_min),
                    fmt_f64(order_max)
                ),
            );
            (order_min, order_max) = (d.order_min, d.order_max);
        }
        let y_max = r.number("ymax", d.y_max, Within::up_to(0.0, 1e6));
        let seed = r.parse("seed", d.seed, parse_seed);
        let quantile = r.parse_with(
            "quantile",
            d.quantile,
            |&i| fmt_f64(QUANTILES[i]),
            parse_quantile,
        );
        let clip = r.parse_with(
            "clip",
            d.clip,
            |&c| clip_key(c).to_string(),
            |s| parse_switch("clip", s),
        );
        let pairs = r.parse_with("pairs", d.pairs, |&r| pairs_key(r).to_string(), parse_pairs);
        let beta = r.number("beta", d.beta, Within::up_to(0.0, 1e6));
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        let w = r.parse("w", d.w, parse_w);
        let p = WdpParams {
            fig,
            panel,
            scale,
            order,
            scales,
            sens,
            order_min,
            order_max,
            y_max,
            seed,
            quantile,
            clip,
            pairs,
            beta,
            delta,
            w,
        };
        r.finish(p)
    }

    fn to_query(&self) -> Query {
        Query::default()
            .with("lab", "wdp")
            .with("fig", self.fig.key())
            .with("panel", self.panel.key())
            .with("scale", fmt_f64(self.scale))
            .with("order", fmt_f64(self.order))
            .with("scales", format_scales(&self.scales))
            .with("sens", fmt_f64(self.sens))
            .with("omin", fmt_f64(self.order_min))
            .with("omax", fmt_f64(self.order_max))
            .with("ymax", fmt_f64(self.y_max))
            .with("seed", self.seed.to_string())
            .with("quantile", fmt_f64(QUANTILES[self.quantile]))
            .with("clip", clip_key(self.clip))
            .with("pairs", pairs_key(self.pairs))
            .with("beta", fmt_f64(self.beta))
            .with("delta", fmt_f64(self.delta))
            .with("w", fmt_f64(self.w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_key() {
        let p = WdpParams {
            fig: Figure::Accountants,
            panel: Panel::RdpLaplace,
            scale: 2.5,
            order: 3.7,
            scales: vec![0.5, 4.0],
            sens: 2.0,
            order_min: 1.5,
            order_max: 64.0,
            y_max: 5.0,
            seed: 99,
            quantile: 3,
            clip: false,
            pairs: PairRule::Inf,
            beta: 7.0,
            delta: 1e-8,
            w: 3.5,
        };
        let (back, notices) = WdpParams::from_query(&p.to_query());
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(back, p);
    }

    #[test]
    fn ugly_values_fall_back_with_notices() {
        let q = Query::parse(
            "lab=wdp&fig=7&panel=rdp&scale=NaN&order=0.5&scales=1,-2&sens=inf&omin=5&omax=2&ymax=0\
             &seed=-1&quantile=0.3&clip=maybe&pairs=avg&beta=0&delta=1&w=-3&other=1",
        );
        let (p, notices) = WdpParams::from_query(&q);
        assert_eq!(p, WdpParams::default());
        let keys: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
        for key in [
            "fig", "panel", "scale", "order", "scales", "sens", "omax", "ymax", "seed", "quantile",
            "clip", "pairs", "beta", "delta", "w",
        ] {
            assert!(keys.contains(&key), "no notice for {key}: {keys:?}");
        }
    }

    #[test]
    fn aliases_and_any_real_order() {
        let q = Query::parse("fig=figure3&panel=RDP_GM&order=2.345&quantile=0.50&clip=0&pairs=min");
        let (p, notices) = WdpParams::from_query(&q);
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(
            (p.fig, p.panel, p.quantile, p.clip, p.pairs),
            (Figure::BetaDelta, Panel::RdpGauss, 1, false, PairRule::Inf)
        );
        assert!((p.fig1_value() - 2.345 / 2.0).abs() < 1e-15);
    }
}
