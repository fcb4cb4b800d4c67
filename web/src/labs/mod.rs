//! Which labs a page module holds. Each lab is built into a module of its own (`src/bin/lab-*.rs`), so
//! a link downloads only the lab it opens; `index.html` picks the module from the link's `lab` key. The
//! all-labs module (`src/main.rs`) serves the single-file build, where nothing can be fetched.
//!
//! A bin names only the render functions it needs, so the linker drops every other lab's components.

mod about;
mod attack;
mod compose;
mod dpsgd;
mod images;
mod mechanisms;
mod mf;
mod rr;
mod start;
mod tangent;
mod teach;
mod train;
mod wdp;

use about::About;
use attack::AttackLab;
use compose::ComposeLab;
use dp_playground::labs::Lab;
use dpsgd::DpsgdLab;
use images::ImagesLab;
use leptos::prelude::*;
use mechanisms::MechLab;
use mf::MfLab;
use rr::RrLab;
use start::Start;
use tangent::TangentLab;
use teach::Teach;
use train::TrainLab;
use wdp::WdpLab;

/// The labs a page module can show.
#[derive(Clone, Copy)]
pub struct Labs {
    /// The labs this module holds, or `None` for all of them.
    pub only: Option<&'static [Lab]>,
    /// Draws a lab this module holds.
    pub render: fn(Lab) -> AnyView,
}

impl Labs {
    /// A module holding `labs` (one, or the About page with the landing view).
    pub fn some(labs: &'static [Lab], render: fn(Lab) -> AnyView) -> Self {
        Labs {
            only: Some(labs),
            render,
        }
    }

    /// The module holding every lab.
    pub fn all() -> Self {
        Labs {
            only: None,
            render: any,
        }
    }

    /// Whether this module can show `lab` (otherwise opening it takes a page load).
    pub fn has(&self, lab: Lab) -> bool {
        self.only.is_none_or(|only| only.contains(&lab))
    }
}

/// Any lab (the all-labs module).
pub fn any(lab: Lab) -> AnyView {
    match lab {
        Lab::RandomizedResponse => rr(lab),
        Lab::Mechanisms => mechanisms(lab),
        Lab::Compose => compose(lab),
        Lab::Dpsgd => dpsgd(lab),
        Lab::Wdp => wdp(lab),
        Lab::Tangent => tangent(lab),
        Lab::Mf => mf(lab),
        Lab::Attack => attack(lab),
        Lab::Train => train(lab),
        Lab::Images => images(lab),
        Lab::About => about(lab),
        Lab::Start => start(lab),
        Lab::Teach => teach(lab),
    }
}

/// The randomized-response lab.
pub fn rr(_: Lab) -> AnyView {
    view! { <RrLab /> }.into_any()
}

/// The mechanisms lab.
pub fn mechanisms(_: Lab) -> AnyView {
    view! { <MechLab /> }.into_any()
}

/// The composition workbench.
pub fn compose(_: Lab) -> AnyView {
    view! { <ComposeLab /> }.into_any()
}

/// The DP-SGD lab.
pub fn dpsgd(_: Lab) -> AnyView {
    view! { <DpsgdLab /> }.into_any()
}

/// The Wasserstein DP lab.
pub fn wdp(_: Lab) -> AnyView {
    view! { <WdpLab /> }.into_any()
}

/// The tangent DP lab.
pub fn tangent(_: Lab) -> AnyView {
    view! { <TangentLab /> }.into_any()
}

/// The correlated-noise lab.
pub fn mf(_: Lab) -> AnyView {
    view! { <MfLab /> }.into_any()
}

/// The attack lab.
pub fn attack(_: Lab) -> AnyView {
    view! { <AttackLab /> }.into_any()
}

/// The training lab.
pub fn train(_: Lab) -> AnyView {
    view! { <TrainLab /> }.into_any()
}

/// The image lab.
pub fn images(_: Lab) -> AnyView {
    view! { <ImagesLab /> }.into_any()
}

/// The formulas page.
pub fn about(_: Lab) -> AnyView {
    view! { <About /> }.into_any()
}

/// The landing view.
pub fn start(_: Lab) -> AnyView {
    view! { <Start /> }.into_any()
}

/// The teaching view (exercises, problem sets, the code reader).
pub fn teach(_: Lab) -> AnyView {
    view! { <Teach /> }.into_any()
}
