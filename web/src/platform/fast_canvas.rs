//! A plotters backend for a canvas that measures text with the canvas itself.
//!
//! plotters-canvas leaves `estimate_text_size` to plotters' web font code, which measures every tick
//! label by appending a `<span>` to the page and reading its `offsetHeight`: a forced layout of the
//! whole page per label, which cost more than the drawing itself on a slider move. This wrapper
//! answers with `CanvasRenderingContext2d.measureText` (no layout) and passes everything else through.

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// [`CanvasBackend`] with fast text measurement.
pub struct FastCanvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl FastCanvas {
    /// Wraps a canvas element; `None` if it has no 2-D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(FastCanvas {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            context,
        })
    }
}

impl DrawingBackend for FastCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (width, height): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        // One putImageData, where plotters' default would fill a rectangle per pixel.
        // Byte by byte: in a module built for size, a three-byte `copy_from_slice` is a call to memcpy
        // per pixel.
        let mut rgba = vec![255u8; src.len() / 3 * 4];
        for (out, p) in rgba.chunks_exact_mut(4).zip(src.chunks_exact(3)) {
            out[0] = p[0];
            out[1] = p[1];
            out[2] = p[2];
        }
        let put = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&rgba), width, height)
            .and_then(|data| {
                self.context
                    .put_image_data(&data, f64::from(pos.0), f64::from(pos.1))
            });
        // CanvasError cannot be built outside plotters-canvas; a failed image is a blank plot area
        // and a console warning, never a broken page.
        if let Err(e) = put {
            leptos::logging::warn!("bitmap {width}×{height}: {e:?}");
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        // The same font string plotters-canvas draws with; the height is the CSS line box of a span
        // (about 1.2 × the size), which is what plotters' own measurement returned.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        Ok((width.ceil() as u32, (style.size() * 1.2).ceil() as u32))
    }
}
