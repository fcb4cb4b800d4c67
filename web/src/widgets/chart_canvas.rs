//! A chart drawn by plotters into a canvas that owns its size and device-pixel ratio, offered as a PNG
//! (drawn again at 2×), an SVG (the same chart function on plotters' SVG backend) and its data as CSV.

use crate::platform::browser::{
    device_pixel_ratio, download, download_url, now_ms, offscreen_canvas,
};
use crate::platform::fast_canvas::FastCanvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};

/// A canvas chart. `draw` runs again whenever a signal it reads changes, and when the canvas resizes.
/// The canvas carries `data-drawn` (how many times it was drawn while `ready`) and `data-draw-ms` (the
/// last draw's time).
#[component]
pub fn ChartCanvas<F>(
    /// Stable id of the canvas (`data-testid`).
    testid: &'static str,
    /// The chart's heading.
    title: Signal<String>,
    /// The text alternative: what the chart shows, with its key numbers.
    alt: Signal<String>,
    /// Height in CSS pixels.
    #[prop(into, default = Signal::stored(320.0))]
    height: Signal<f64>,
    /// Whether there is a chart to draw: while false the canvas is sized but left as it is, and
    /// `data-drawn` does not count (so that a test waiting for a drawn chart never takes an empty one).
    #[prop(into, default = Signal::stored(true))]
    ready: Signal<bool>,
    /// Draws into the canvas; the second argument is the device-pixel ratio.
    draw: F,
    /// The chart's data as CSV (header row first).
    csv: Signal<String>,
    /// The CSV file's name (the PNG and SVG take the same stem).
    csv_name: &'static str,
    /// The chart as an SVG document of the given CSS size.
    svg: Callback<(u32, u32), String>,
    /// One line under the title saying what a student should look for.
    #[prop(optional)]
    look_for: &'static str,
) -> impl IntoView
where
    F: Fn(&DrawingArea<FastCanvas, Shift>, f64) + 'static,
{
    // The figure itself is not generic: one copy of its code in a lab's module, whatever the number
    // of chart kinds (each kind's `draw` closure once made a copy of all of it).
    let draw: Draw = std::rc::Rc::new(draw);
    chart_figure(
        testid, title, alt, height, ready, draw, csv, csv_name, svg, look_for,
    )
}

/// A chart's drawing function, boxed.
type Draw = std::rc::Rc<dyn Fn(&DrawingArea<FastCanvas, Shift>, f64)>;

/// The figure of [`ChartCanvas`].
#[allow(clippy::too_many_arguments)]
fn chart_figure(
    testid: &'static str,
    title: Signal<String>,
    alt: Signal<String>,
    height: Signal<f64>,
    ready: Signal<bool>,
    draw: Draw,
    csv: Signal<String>,
    csv_name: &'static str,
    svg: Callback<(u32, u32), String>,
    look_for: &'static str,
) -> impl IntoView {
    let node = NodeRef::<leptos::html::Canvas>::new();
    // A chart is a part the link can leave out (`show=`), listed by its title.
    let shown = crate::widgets::parts::use_part(testid, &title.get_untracked(), false);
    let draw_png = draw.clone();
    // The CSS width, from a ResizeObserver: it reports after the browser's own layout, so drawing never
    // forces one (reading clientWidth in each chart's first draw forced a layout of the whole page per
    // chart: 160 ms of the mechanisms lab's start). The first draw waits for the first report.
    let css_width = RwSignal::new(None::<i32>);
    let observer = StoredValue::new_local(None::<crate::platform::browser::WidthObserver>);
    Effect::new(move |_| {
        if let Some(canvas) = node.get() {
            let seen = move |w: f64| {
                let w = (w.round() as i32).max(200);
                if css_width.try_get_untracked() != Some(Some(w)) {
                    // In a task of its own: the observer reports inside the frame's layout task, and the
                    // lab's first draws there made it 15–20 ms longer.
                    set_timeout(
                        move || {
                            css_width.try_set(Some(w));
                        },
                        std::time::Duration::ZERO,
                    );
                }
            };
            observer.set_value(crate::platform::browser::WidthObserver::new(&canvas, seen));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|o| o.take());
    });
    let draws = StoredValue::new(0u32);
    // Bumped to draw a chart that had to wait for a later task (crate::platform::draw_budget).
    let again = RwSignal::new(0u32);
    Effect::new(move |_| {
        again.track();
        let Some(css_width) = css_width.get() else {
            return;
        };
        let Some(canvas) = node.get() else { return };
        if !crate::platform::draw_budget::may_draw() {
            // This run reads none of the chart's data, so it stops following it; the later run reads
            // the data as it is then, and follows it again.
            crate::platform::draw_budget::later(move || {
                again.try_update(|n| *n = n.wrapping_add(1));
            });
            return;
        }
        let ratio = device_pixel_ratio();
        let height = height.get();
        let width = f64::from(css_width);
        let (w, h) = (
            (width * ratio).round() as u32,
            (height * ratio).round() as u32,
        );
        // Resizing a canvas invalidates the page's layout; do it only when the size changed.
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        if !ready.get() {
            return;
        }
        let start = now_ms();
        if let Some(backend) = FastCanvas::new(canvas.clone()) {
            let root = backend.into_drawing_area();
            draw(&root, ratio);
            if let Err(e) = root.present() {
                leptos::logging::warn!("chart {testid}: {e}");
            }
        }
        draws.update_value(|n| *n += 1);
        let _ = canvas.set_attribute("data-draw-ms", &format!("{:.2}", now_ms() - start));
        let _ = canvas.set_attribute("data-drawn", &draws.get_value().to_string());
    });
    let save = move |_| download(csv_name, "text/csv", &csv.get_untracked());
    let stem = csv_name.trim_end_matches(".csv");
    let css_size = move || {
        let width = css_width.get_untracked().unwrap_or(640);
        (width as u32, height.get_untracked().round() as u32)
    };
    // An exported figure stands without the page: a heading with its title and the link's parameters.
    let url = crate::platform::url::use_url();
    let params = move || {
        let q = dp_playground::link::embed::full_view(&url.query.get_untracked());
        format!(
            "dp-playground · {}",
            q.to_query_string().replace('&', ", ").replace('=', " = ")
        )
    };
    let heading = crate::charts::HEADING_HEIGHT;
    let save_png = move |_| {
        // Drawn again at twice the CSS size, whatever the screen's pixel ratio, under its heading
        // (written with the canvas's own text: plotters' would be a second copy of its text code).
        let (w, h) = css_size();
        let Some(canvas) = offscreen_canvas(2 * w, 2 * (h + heading)) else {
            return;
        };
        write_heading(
            &canvas,
            &title.get_untracked(),
            &crate::charts::fit_params(&params(), w),
        );
        if let Some(backend) = FastCanvas::new(canvas.clone()) {
            let root = backend.into_drawing_area();
            let (_, chart) = root.split_vertically(2 * heading);
            draw_png(&chart, 2.0);
            let _ = root.present();
        }
        match canvas.to_data_url() {
            Ok(url) => download_url(&format!("{stem}.png"), &url),
            Err(_) => leptos::logging::warn!("chart {testid}: no PNG"),
        }
    };
    let save_svg = move |_| {
        let (w, h) = css_size();
        let svg =
            crate::charts::stack_svg(&title.get_untracked(), &params(), &svg.run((w, h)), w, h);
        download(&format!("{stem}.svg"), "image/svg+xml", &svg)
    };
    let open = RwSignal::new(false);
    view! {
        <figure class="chart" data-part=testid hidden=move || !shown()>
            <figcaption>
                <span class="chart-title">{move || title.get()}</span>
                <span class="chart-buttons">
                    <button type="button" class="small" data-testid=format!("{testid}-png") on:click=save_png
                        aria-label="Download the chart as PNG">"PNG"</button>
                    <button type="button" class="small" data-testid=format!("{testid}-svg") on:click=save_svg
                        aria-label="Download the chart as SVG">"SVG"</button>
                    <button type="button" class="small" data-testid=format!("{testid}-csv") on:click=save
                        aria-label="Download the chart's data as CSV">"CSV"</button>
                </span>
            </figcaption>
            {(!look_for.is_empty()).then(|| view! { <p class="look-for">{look_for}</p> })}
            <canvas
                node_ref=node
                data-testid=testid
                role="img"
                aria-label=move || alt.get()
                style=move || format!("height:{}px", height.get())
            ></canvas>
            // On paper, what the chart shows in words (its key numbers); screen readers have the label.
            <p class="print-only chart-alt" aria-hidden="true">{move || alt.get()}</p>
            // The table is printed only while open: formatting it on every slider move would cost
            // more than drawing the chart.
            <details class="chart-data" on:toggle=move |ev| open.set(event_target::<web_sys::HtmlDetailsElement>(&ev).open())>
                <summary data-testid=format!("{testid}-show-data")>"Show the data"</summary>
                // Focusable, so that a keyboard can scroll it (WCAG 2.1.1).
                <pre data-testid=format!("{testid}-data") tabindex="0" role="region"
                    aria-label=move || format!("Data of the chart: {}", title.get())>
                    {move || open.get().then(|| csv.get())}
                </pre>
            </details>
        </figure>
    }
}

/// Writes an exported PNG's heading (at 2×) into the top of `canvas`: the title, and under it the
/// parameters, on white.
fn write_heading(canvas: &web_sys::HtmlCanvasElement, title: &str, params: &str) {
    let Some(ctx) = crate::platform::browser::context_2d(canvas) else {
        return;
    };
    ctx.set_fill_style_str("#fff");
    ctx.fill_rect(
        0.0,
        0.0,
        f64::from(canvas.width()),
        f64::from(2 * crate::charts::HEADING_HEIGHT),
    );
    ctx.set_fill_style_str("#212529");
    ctx.set_font("bold 30px sans-serif");
    let _ = ctx.fill_text(title, 20.0, 36.0);
    ctx.set_fill_style_str("#495057");
    ctx.set_font("22px sans-serif");
    let _ = ctx.fill_text(params, 20.0, 72.0);
}
