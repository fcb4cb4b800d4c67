//! The tangent lab's numbers: each norm beside the paper's bound 2βR, the removal experiment and the
//! Monte Carlo estimates, every key number under its `data-testid`.

use crate::format::{exact, sig};
use crate::labs::tangent::use_tangent;
use dp_playground::labs::tangent::Report;
use dp_playground::tangent::Loss;
use leptos::prelude::*;

/// A table cell carrying an exact value.
fn cell(testid: &'static str, value: f64) -> impl IntoView {
    view! { <td data-testid=testid data-value=exact(value)>{sig(value, 5)}</td> }
}

/// A bound cell, flagged when the norm beside it exceeds it.
fn bound(testid: &'static str, value: f64, norm: f64) -> impl IntoView {
    let fails = norm > value * (1.0 + 1e-12);
    view! {
        <td data-testid=testid data-value=exact(value) class:over=fails>
            {sig(value, 5)}{fails.then_some(" — exceeded!")}
        </td>
    }
}

fn norms_table(r: &Report) -> impl IntoView {
    let s = &r.norms;
    let b = r.instance.beta;
    let pairs_note = if s.pairs_exact {
        ""
    } else {
        " (range: too many pairs to try them all)"
    };
    view! {
        <div class="table-wrap" tabindex="0">
            <table class="results-table calibration" data-testid="tdp-norms">
                <caption>"Operator norms of the tangent maps and the paper's bounds 2βR"</caption>
                <thead><tr>
                    <th scope="col">"map (norms)"</th><th scope="col">"all signed ε"</th><th scope="col">"tangent space (mass-preserving ε)"</th>
                    <th scope="col">"bound 2βR"</th><th scope="col">"crude bound"</th>
                </tr></thead>
                <tbody>
                    <tr>
                        <th scope="row">"DA: L¹ → L¹ (Thm 3.1)"</th>
                        {cell("tdp-norm-tv-all", s.tv_all)}
                        <td data-testid="tdp-norm-tv" data-value=exact(s.tv_pairs.lower)>
                            {if s.pairs_exact { sig(s.tv_pairs.lower, 5) } else { format!("{} … {}", sig(s.tv_pairs.lower, 4), sig(s.tv_pairs.upper, 4)) }}{pairs_note}
                        </td>
                        {bound("tdp-bound-tv", 2.0 * b * s.r_thm31, s.tv_all)}
                        {bound("tdp-bound-tv-crude", 2.0 * b * s.r_max, s.tv_all)}
                    </tr>
                    <tr>
                        <th scope="row">"D(log∘A): L¹ → L^∞ (Thm 3.2)"</th>
                        {cell("tdp-norm-log-all", s.log_all)}
                        {cell("tdp-norm-log", s.log_pairs)}
                        {bound("tdp-bound-log", 2.0 * b * s.r_max, s.log_all)}
                        <td>"(= Thm 3.2)"</td>
                    </tr>
                    <tr>
                        <th scope="row">"DA: Ḣ⁻¹(p) → L¹ (Thm 3.3)"</th>
                        <td>
                            <span data-testid="tdp-norm-w-tv-lower" data-value=exact(s.w_tv.lower)>{sig(s.w_tv.lower, 5)}</span>
                            " … "
                            <span data-testid="tdp-norm-w-tv-upper" data-value=exact(s.w_tv.upper)>{sig(s.w_tv.upper, 5)}</span>
                        </td>
                        <td>"(moves of the data points)"</td>
                        {bound("tdp-bound-w-tv", 2.0 * b * s.r_thm33, s.w_tv.lower)}
                        <td>
                            <span data-testid="tdp-bound-w-tv-fixed" data-value=exact(2.0 * b * s.r_thm33_fixed)>{sig(2.0 * b * s.r_thm33_fixed, 5)}</span>
                            " (corrected); "
                            <span data-testid="tdp-bound-w-tv-crude" data-value=exact(2.0 * b * s.r_thm34)>{sig(2.0 * b * s.r_thm34, 5)}</span>
                            " (Remark 3.4(a))"
                        </td>
                    </tr>
                    <tr>
                        <th scope="row">"D(log∘A): Ḣ⁻¹(p) → L^∞ (Thm 3.4)"</th>
                        {cell("tdp-norm-w-log", s.w_log)}
                        <td>"(moves of the data points)"</td>
                        {bound("tdp-bound-w-log", 2.0 * b * s.r_thm34, s.w_log)}
                        <td>"(= Thm 3.4)"</td>
                    </tr>
                </tbody>
            </table>
        </div>
    }
}

fn removal_table(r: &Report, remove: usize) -> impl IntoView {
    let c = r.removal;
    // The link's index, read beside a report a worker may have computed for an earlier link (fewer
    // points): `get`, never an index out of bounds.
    let x = r.instance.data.get(remove);
    let point = x.map_or_else(
        || "—".to_owned(),
        |x| format!("x = {}, y = {}", sig(x.x, 4), x.y),
    );
    view! {
        <div class="table-wrap" tabindex="0">
            <table class="results-table calibration" data-testid="tdp-removal">
                <caption>{format!("Removing point {remove} ({point}): ‖p − p̃‖₁ = {}", sig(c.dp_norm, 4))}</caption>
                <thead><tr><th scope="col">"change"</th><th scope="col">"actual (exact)"</th><th scope="col">"first order (tangent map)"</th><th scope="col">"bound 2βR·‖p − p̃‖₁"</th></tr></thead>
                <tbody>
                    <tr><th scope="row">"‖q − q̃‖₁"</th>{cell("tdp-actual-tv", c.actual_tv)}{cell("tdp-linear-tv", c.linear_tv)}{bound("tdp-removal-bound-tv", c.bound_tv, c.actual_tv)}</tr>
                    <tr><th scope="row">"max_w |ln q − ln q̃|"</th>{cell("tdp-actual-log", c.actual_log)}{cell("tdp-linear-log", c.linear_log)}{bound("tdp-removal-bound-log", c.bound_log, c.actual_log)}</tr>
                </tbody>
            </table>
        </div>
    }
}

/// The numbers.
#[component]
pub fn TangentResults() -> impl IntoView {
    let lab = use_tangent();
    let mc = move || {
        lab.extras.with(|e| {
            e.grid.as_ref().map(|g| {
                let (draws, est) = g.curve.last().copied().unwrap_or((0, f64::NAN));
                (draws, est, g.half_width)
            })
        })
    };
    view! {
        {move || lab.report.with(|r| r.as_ref().map(|r| {
            let s = &r.norms;
            let failed33 = s.thm33_fails(r.instance.beta);
            let zero_one = r.instance.loss == Loss::ZeroOne;
            view! {
                {norms_table(r)}
                <div class="erratum" data-testid="tdp-thm33-note">
                    {if failed33 {
                        "Theorem 3.3 as stated fails on this instance: the attained norm exceeds 2βR with R = ‖Σ_w q(w) r(w,·)‖_{Ḣ¹(p)}. "
                    } else {
                        "Theorem 3.3 as stated holds here, but not always: "
                    }}
                    "its proof moves |·| inside an integral the wrong way (∫|⟨r(w,·), ε⟩| dw ≥ |⟨∫ r(w,·) dw, ε⟩|), harmless in the "
                    "TV case where r ≥ 0, but ∂ₓr changes sign across w for the linear model and for the tangent loss. "
                    "R = Σ_w q(w)‖r(w,·)‖_{Ḣ¹(p)} (\"corrected\") makes the proof go through; Remark 3.4(a)'s max_w ‖r(w,·)‖ also holds."
                    {zero_one.then_some(" With the 0/1 loss the x-gradient vanishes almost everywhere, so every Wasserstein-case norm and bound is 0: moving a point changes nothing until it crosses a threshold, where the map is not differentiable at all.")}
                </div>
                {removal_table(r, lab.params.with_untracked(|p| p.remove))}
                <div class="stats">
                    <div class="stat">
                        <span class="stat-label">"ε of the exponential mechanism, 2β·max r/N (one point replaced)"</span>
                        <span class="stat-value" data-testid="tdp-dp-eps" data-value=exact(r.dp_eps)>{sig(r.dp_eps, 4)}</span>
                    </div>
                    <div class="stat">
                        <span class="stat-label">"Thm 3.1's R, exact"</span>
                        <span class="stat-value" data-testid="tdp-r-exact" data-value=exact(s.r_thm31)>{sig(s.r_thm31, 5)}</span>
                    </div>
                </div>
                <crate::widgets::diagnostics::Diagnostics>
                    <div class="stat">
                        <span class="stat-label">"computed in (ms)"</span>
                        <span class="stat-value" data-testid="tdp-ms" data-value=move || exact(lab.report_ms.get())>{move || sig(lab.report_ms.get(), 3)}</span>
                    </div>
                </crate::widgets::diagnostics::Diagnostics>
                <p class="help">
                    "The Gibbs mechanism is the exponential mechanism with score −(1/N)Σ r(w, x_i): replacing one point moves the score "
                    "by at most max r/N, so it is (2β·max r/N)-DP — for every data set, where the tangent norms above speak about this one. "
                    {if r.instance.loss.bound().is_none() { "This loss is unbounded: max r is taken over the grid and the candidate set only; over all x it is infinite." } else { "" }}
                </p>
            }
        }))}
        <div class="stats">
            <div class="stat">
                <span class="stat-label">{move || mc().map_or("Monte Carlo R̂ (grid draws)".to_string(), |(d, _, h)| format!("Monte Carlo R̂ from {d} grid draws (± {} w.p. 1 − 10⁻⁶)", sig(h, 2)))}</span>
                <span class="stat-value" data-testid="tdp-mc-r" data-value=move || exact(mc().map_or(f64::NAN, |m| m.1))>{move || sig(mc().map_or(f64::NAN, |m| m.1), 5)}</span>
            </div>
            <div class="stat">
                <span class="stat-label">{move || {
                    let exact = lab.report.with(|r| r.as_ref().map_or(f64::NAN, |r| r.norms.r_thm33));
                    format!("Remark 3.4(b): R̂ of Thm 3.3 from the same draws (exact {})", sig(exact, 5))
                }}</span>
                <span class="stat-value" data-testid="tdp-mc-r-w" data-value=move || exact(lab.extras.with(|e| e.grid.as_ref().map_or(f64::NAN, |g| g.r_h1)))>
                    {move || lab.extras.with(|e| sig(e.grid.as_ref().map_or(f64::NAN, |g| g.r_h1), 5))}
                </span>
            </div>
            <div class="stat">
                <span class="stat-label">{move || lab.extras.with(|e| format!("R̂ from Langevin ({} steps)", e.langevin_steps.1))}</span>
                <span class="stat-value" data-testid="tdp-mc-r-langevin" data-value=move || exact(lab.extras.with(|e| e.langevin_r.unwrap_or(f64::NAN)))>
                    {move || lab.extras.with(|e| sig(e.langevin_r.unwrap_or(f64::NAN), 5))}
                </span>
            </div>
        </div>
    }
}
