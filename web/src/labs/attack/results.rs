//! The attack lab's results: risk numbers, the trade-off curve on linear and log α, the calibrated σ's
//! and the audit.

use crate::charts::specs::attack as specs;
use crate::format::sig;
use crate::labs::attack::use_attack;
use crate::widgets::after_paint::AfterPaint;
use crate::widgets::diagnostics::Diagnostics;
use crate::widgets::stat::Stat;
use crate::widgets::xy_canvas::XyCanvas;
use dp_playground::accounting::guarantee::Side;
use dp_playground::attacks::audit::{audit_point, epsilon_lower_bound};
use dp_playground::labs::attack::params::Source;
use dp_playground::labs::attack::report::AttackReport;
use leptos::prelude::*;

/// Results of the lab.
#[component]
pub fn AttackResults() -> impl IntoView {
    let lab = use_attack();
    let bg = lab.background;
    let report = move || {
        bg.with(|b| {
            b.report
                .as_ref()
                .and_then(|r| r.as_ref().ok())
                .map(|r| r.0.clone())
        })
    };
    let num = move |f: fn(&AttackReport) -> f64| {
        Signal::derive(move || report().map_or(f64::NAN, |r| f(&r)))
    };
    let ok = |x: &Option<Result<f64, String>>| {
        x.as_ref()
            .and_then(|r| r.as_ref().ok())
            .copied()
            .unwrap_or(f64::NAN)
    };
    let sigma_adv = Signal::derive(move || bg.with(|b| ok(&b.sigma_adv)));
    let sigma_tpr = Signal::derive(move || bg.with(|b| ok(&b.sigma_tpr)));
    let is_list = move || lab.params.with(|p| matches!(p.source, Source::List(_)));
    let audit = Memo::new(move |_| {
        lab.params.with(|p| {
            p.counts.map(|c| {
                (
                    epsilon_lower_bound(c, p.conf, p.delta).map_err(|e| e.to_string()),
                    audit_point(c, p.conf),
                )
            })
        })
    });
    let audit_eps = Signal::derive(move || {
        audit.with(|a| {
            a.as_ref()
                .and_then(|x| x.0.clone().ok())
                .unwrap_or(f64::NAN)
        })
    });
    let audit_ratio = Signal::derive(move || {
        let (a, e) = (audit_eps.get(), num(|r| r.eps).get());
        if e > 0.0 {
            a / e
        } else {
            f64::NAN
        }
    });
    let errors = move || {
        bg.with(|b| {
            [&b.sigma_adv, &b.sigma_tpr]
                .into_iter()
                .filter_map(|x| x.as_ref().and_then(|r| r.as_ref().err()).cloned())
                .chain(b.report.as_ref().and_then(|r| r.as_ref().err()).cloned())
                .chain(audit.with(|a| a.as_ref().and_then(|x| x.0.clone().err())))
                .collect::<Vec<_>>()
        })
    };
    let chart = move |log: bool| {
        Memo::new(move |_| {
            let r = report()?;
            let p = lab.params.get();
            let audit = audit.get().and_then(|(ok, pt)| ok.ok().and(pt));
            Some(specs::tradeoff_chart(
                &r,
                p.delta,
                p.alpha,
                audit.as_ref(),
                log,
            ))
        })
    };
    let (linear, logarithmic) = (chart(false), chart(true));
    let clt_warning = move || {
        report().and_then(|r| r.clt_understates()).map(|(a, b)| {
            format!(
                "The central-limit approximation lies above the certified curve for α from {} to {}: there it promises the attacker more error than the mechanism guarantees, so it under-states the risk.",
                sig(a, 2),
                sig(b, 2)
            )
        })
    };
    view! {
        {move || errors().into_iter().map(|e| view! { <p class="notices" role="alert">{e}</p> }).collect_view()}
        <div class="stats">
            <Stat label="β at α, certified (lower bound on the attacker's FNR)" testid="attack-beta-at-alpha" value=num(|r| r.beta_at_alpha) />
            <Stat label="β at α, optimistic" testid="attack-beta-at-alpha-optimistic" value=num(|r| r.beta_at_alpha_optimistic) />
            <Stat label="TPR at FPR α (upper bound)" testid="attack-tpr-at-fpr" side=Side::Upper value=num(|r| r.tpr_at_fpr) />
            <Stat label="advantage TPR − FPR (upper bound)" testid="attack-advantage" side=Side::Upper value=num(|r| r.advantage) />
            <Stat label="attacker right at most (posterior, this prior)" testid="attack-posterior" value=num(|r| r.posterior) />
        </div>
        <div class="stats">
            <Stat label="ε at δ (certified)" testid="attack-eps" side=Side::Upper value=num(|r| r.eps) />
            <Stat label="best-fitting Gaussian-DP μ" testid="attack-gdp-mu" value=num(|r| r.gdp_mu_fit) />
            <Stat label="central-limit μ (Bu et al., an estimate)" testid="attack-gdp-mu-clt" value=num(|r| r.gdp_mu_clt.unwrap_or(f64::NAN)) />
        </div>
        <Diagnostics>
            <Stat label="computed in (ms)" testid="attack-ms" value=Signal::derive(move || bg.with(|b| b.report.as_ref().and_then(|r| r.as_ref().ok()).map_or(f64::NAN, |r| r.1))) digits=3 />
            <Stat label="both calibrations computed in (ms)" testid="attack-sigma-ms" value=Signal::derive(move || bg.with(|b| if b.sigma_tpr.is_some() { b.calibration_ms } else { f64::NAN })) digits=3 />
        </Diagnostics>
        {move || clt_warning().map(|w| view! { <p class="notices" role="note" data-testid="attack-clt-warning">{w}</p> })}
        {move || lab.params.with(|p| p.relation_note()).map(|n| view! { <p class="notices" role="note" data-testid="attack-relation-note">{n}</p> })}
        <p class="status" role="status" data-testid="attack-status">{move || bg.with(|b| b.status.clone())}</p>
        <AfterPaint>
            <div class="chart-grid">
                <XyCanvas testid="attack-chart-linear" look_for="Notice that no attack can fall below the certified curve; the (ε, δ) curve sits at or below it, so one (ε, δ) pair can understate the protection." title="Trade-off curve: the best attack's errors" alt=Signal::derive(move || format!("At α = {} no attack has a false-negative rate below {}.", sig(lab.params.with(|p| p.alpha), 3), sig(num(|r| r.beta_at_alpha).get(), 4))) chart=linear csv_name="attack-tradeoff.csv" />
                <XyCanvas testid="attack-chart-log" look_for="Look at small false-positive rates: 1 − β there is the largest share of members any attack can catch with very few false alarms." title="The same on a log α axis (small false-positive rates)" alt=Signal::derive(move || format!("Certified TPR at α: {}.", sig(num(|r| r.tpr_at_fpr).get(), 4))) chart=logarithmic csv_name="attack-tradeoff-log.csv" />
            </div>
            <section class="panel" aria-labelledby="calibrate-title" data-part="calibrate" hidden={let shown = crate::widgets::parts::use_part("calibrate", "Calibration", false); move || !shown()}>
                <h3 id="calibrate-title">"Noise for a risk target"</h3>
                <Show when=move || !is_list() fallback=|| view! { <p class="help">"Calibration applies to DP-SGD links (source=dpsgd)."</p> }>
                    <div class="stats">
                        <Stat label="σ for the advantage target" testid="attack-sigma-for-adv" value=sigma_adv />
                        <Stat label="σ for the TPR target at α" testid="attack-sigma-for-tpr" value=sigma_tpr />
                        <Stat label="ε at δ of that σ (advantage target)" testid="attack-eps-at-sigma" value=Signal::derive(move || bg.with(|b| b.eps_at_sigma.unwrap_or(f64::NAN))) />
                    </div>
                    <p class="help">"The same risk can mean very different ε: compare ε at this σ with the ε your team would have picked."</p>
                </Show>
            </section>
            <section class="panel" aria-labelledby="audit-title" data-part="audit" hidden={let shown = crate::widgets::parts::use_part("audit", "Audit", false); move || !shown()}>
                <h3 id="audit-title">"Audit"</h3>
                <Show when=move || audit.with(Option::is_some) fallback=|| view! { <p class="help">"Give tp, fn, fp and tn (or try the example counts) to see the ε an attack proves."</p> }>
                    <div class="stats">
                        <Stat label="ε the counts prove (lower bound)" testid="audit-eps-lower" side=Side::AuditLower value=audit_eps />
                        <Stat label="share of the guarantee reached" testid="audit-ratio" value=audit_ratio />
                    </div>
                    <p class="help">{move || format!("This attack reaches {}% of the guarantee's ε at δ (Clopper–Pearson, {}% confidence).", sig(100.0 * audit_ratio.get(), 3), sig(100.0 * lab.params.with(|p| p.conf), 3))}</p>
                    {move || {
                        let point = audit.with(|a| a.as_ref().and_then(|x| x.1));
                        let contradicted = report().zip(point).is_some_and(|(r, pt)| r.contradicted_by(&pt));
                        contradicted.then(|| view! {
                            <p class="notices" role="alert" data-testid="audit-contradiction">
                                "These counts lie below the certified curve with their whole confidence box: if they come from this mechanism, its implementation does not meet the guarantee (or the counts are not independent)."
                            </p>
                        })
                    }}
                </Show>
            </section>
        </AfterPaint>
    }
}
