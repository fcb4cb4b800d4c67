//! The randomized-response lab's shuffle model (`shuffle=1`, `delta`): the n respondents' reports
//! shuffled before the analyst sees them, and the central (ε, δ) that buys
//! ([`crate::mechanisms::randomized_response::shuffle`]), at the link's n and over a grid of n.

use super::RrParams;
use crate::error::Result;
use crate::link::query::{fmt_f64, Query, Reader, Within};
use crate::mechanisms::randomized_response::shuffle::{
    epsilon_closed_form, epsilon_lower, epsilon_upper, ClonePair, Clones,
};
use serde::{Deserialize, Serialize};

/// The shuffle model's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShuffleParams {
    /// Whether the lab shows it (`shuffle`).
    pub on: bool,
    /// The central δ (`delta`).
    pub delta: f64,
}

impl Default for ShuffleParams {
    fn default() -> Self {
        ShuffleParams {
            on: false,
            delta: 1e-6,
        }
    }
}

impl ShuffleParams {
    /// Reads `shuffle` and `delta`.
    pub fn read(r: &mut Reader) -> ShuffleParams {
        let d = ShuffleParams::default();
        let on = r.parse_with(
            "shuffle",
            d.on,
            |b| if *b { "1" } else { "0" }.into(),
            |s| match s.trim() {
                "1" | "on" | "true" | "yes" => Ok(true),
                "0" | "off" | "false" | "no" => Ok(false),
                _ => Err(crate::error::Error::invalid("shuffle", s, "must be 1 or 0")),
            },
        );
        let delta = r.number("delta", d.delta, Within::below(0.0, 1.0));
        ShuffleParams { on, delta }
    }

    /// Prints them when on.
    pub fn write(&self, q: &mut Query) {
        if self.on {
            q.set("shuffle", "1");
            q.set("delta", fmt_f64(self.delta));
        }
    }
}

/// The central ε at δ of n shuffled ε0-LDP K-RR reports, every way the lab shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShufflePoint {
    /// Respondents.
    pub n: u64,
    /// The K-RR pair's bound (Wang et al. 2024): certified upper bound.
    pub eps_krr: f64,
    /// The stronger clones' bound (Feldman, McMillan & Talwar 2023): certified upper bound.
    pub eps_fmt2023: f64,
    /// The clones' bound (Feldman, McMillan & Talwar 2021): certified upper bound.
    pub eps_fmt2021: f64,
    /// Their closed form: certified upper bound.
    pub eps_closed: f64,
    /// For K = 2, a lower bound: the exact ε of one neighbouring pair.
    pub eps_lower: Option<f64>,
}

/// The grid of n the chart draws: 10 to 10⁶, three points a decade.
pub fn curve_sizes() -> Vec<u64> {
    (3..=18)
        .map(|i| 10f64.powf(f64::from(i) / 3.0).round() as u64)
        .collect()
}

/// Every bound at `n` respondents, for the link's ε0, K and δ.
///
/// # Errors
/// ε0 or K out of range.
pub fn shuffle_point(p: &RrParams, n: u64) -> Result<ShufflePoint> {
    let (eps0, k, delta) = (p.eps, p.k as u64, p.shuffle.delta);
    let upper =
        |kind| -> Result<f64> { Ok(epsilon_upper(ClonePair::new(kind, eps0, k)?, n, delta)) };
    let eps_fmt2023 = upper(Clones::Fmt2023)?;
    Ok(ShufflePoint {
        n,
        // For K = 2 the K-RR pair is the stronger clones' pair.
        eps_krr: if k == 2 {
            eps_fmt2023
        } else {
            upper(Clones::Krr)?
        },
        eps_fmt2023,
        eps_fmt2021: upper(Clones::Fmt2021)?,
        eps_closed: epsilon_closed_form(eps0, n, delta),
        eps_lower: (k == 2).then(|| epsilon_lower(eps0, n, delta)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::query::LinkParams;

    #[test]
    fn keys_round_trip_and_the_point_orders_its_bounds() {
        let (p, notices) =
            RrParams::from_query(&Query::parse("lab=rr&eps=2&n=5000&shuffle=1&delta=1e-8"));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(
            p.shuffle,
            ShuffleParams {
                on: true,
                delta: 1e-8
            }
        );
        assert_eq!(RrParams::from_query(&p.to_query()).0, p);
        assert!(!RrParams::default()
            .to_query()
            .to_query_string()
            .contains("shuffle"));
        let (bad, notices) = RrParams::from_query(&Query::parse("shuffle=maybe&delta=2"));
        assert_eq!((notices.len(), bad.shuffle), (2, ShuffleParams::default()));
        let pt = shuffle_point(&p, p.n).unwrap();
        let lower = pt.eps_lower.unwrap();
        assert!(
            lower <= pt.eps_krr && pt.eps_krr <= pt.eps_fmt2021 && pt.eps_fmt2021 <= pt.eps_closed,
            "{pt:?}"
        );
        assert!(pt.eps_closed <= 2.0);
        // K = 5: the K-RR pair is tighter than the generic clones, and no lower bound is claimed.
        let five = RrParams { k: 5, ..p };
        let pt = shuffle_point(&five, 5000).unwrap();
        assert!(
            pt.eps_krr <= pt.eps_fmt2023 && pt.eps_lower.is_none(),
            "{pt:?}"
        );
        assert_eq!(curve_sizes().first(), Some(&10));
        assert_eq!(curve_sizes().last(), Some(&1_000_000));
    }
}
