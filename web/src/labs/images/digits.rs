//! A row of MNIST digits drawn pixel for pixel (28 × 28 canvases scaled up without smoothing), each
//! with its label, and for a mistake the model's answer.

use dp_playground::labs::images::jobs::Digit;
use leptos::prelude::*;

/// Draws `digit`'s pixels (white ink on black, as the files store them: 0 is the background) into
/// `canvas`.
fn draw(canvas: &web_sys::HtmlCanvasElement, digit: &Digit) {
    let side = (digit.pixels.len() as f64).sqrt() as u32;
    canvas.set_width(side);
    canvas.set_height(side);
    let Some(ctx) = crate::platform::browser::context_2d(canvas) else {
        return;
    };
    let rgba: Vec<u8> = digit
        .pixels
        .iter()
        .flat_map(|&p| [255 - p, 255 - p, 255 - p, 255])
        .collect();
    if let Ok(data) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        wasm_bindgen::Clamped(&rgba),
        side,
        side,
    ) {
        let _ = ctx.put_image_data(&data, 0.0, 0.0);
    }
}

/// One digit with its caption.
#[component]
fn DigitCell(digit: Digit) -> impl IntoView {
    let node = NodeRef::<leptos::html::Canvas>::new();
    let caption = if digit.label == digit.predicted {
        format!("{}", digit.label)
    } else {
        format!("{} read as {}", digit.label, digit.predicted)
    };
    let alt = format!(
        "Test image {}: a handwritten {}",
        digit.index + 1,
        digit.label
    );
    let shown = digit.clone();
    Effect::new(move |_| {
        if let Some(c) = node.get() {
            draw(&c, &shown);
        }
    });
    view! {
        <figure class="digit">
            <canvas node_ref=node class="digit-canvas" role="img" aria-label=alt></canvas>
            <figcaption>{caption}</figcaption>
        </figure>
    }
}

/// A row of digits under a heading (nothing while empty).
#[component]
pub fn DigitRow(
    /// Stable id of the row (its `data-value` is how many digits it shows).
    testid: &'static str,
    /// The heading.
    title: &'static str,
    /// The digits.
    digits: Signal<Vec<Digit>>,
) -> impl IntoView {
    move || {
        let shown = digits.get();
        (!shown.is_empty()).then(|| {
            let count = shown.len();
            view! {
                <section class="digits" data-testid=testid data-value=count.to_string()>
                    <h4>{title}</h4>
                    <div class="digit-row">
                        {shown.into_iter().map(|d| view! { <DigitCell digit=d /> }).collect_view()}
                    </div>
                </section>
            }
        })
    }
}
