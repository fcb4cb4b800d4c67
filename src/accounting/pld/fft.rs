//! The PLD composition's transforms: real-input FFTs (realfft on rustfft) from one planner per thread,
//! so each size's plan and twiddle factors are built once (building them took a tenth of a band's time,
//! most of it in sin/cos).

use super::Pld;
use realfft::num_complex::Complex;
use realfft::RealFftPlanner;
use std::cell::RefCell;

thread_local! {
    static PLANNER: RefCell<RealFftPlanner<f64>> = RefCell::new(RealFftPlanner::new());
}

/// The circular convolution of each part's masses with itself its number of times, on `size` points
/// (a power of two), read out at `out_len` points from index `lo` (mod `size`): the composed masses,
/// with the FFT's rounding noise still in them (values slightly below 0 included).
pub(super) fn convolve_powers(
    parts: &[(&Pld, u64)],
    size: usize,
    lo: i64,
    out_len: usize,
) -> Vec<f64> {
    let (forward, inverse) =
        PLANNER.with_borrow_mut(|p| (p.plan_fft_forward(size), p.plan_fft_inverse(size)));
    let mut product = vec![Complex::new(1.0, 0.0); size / 2 + 1];
    let mut input = vec![0.0; size];
    let mut spectrum = forward.make_output_vec();
    for (pld, times) in parts {
        input.fill(0.0);
        input[..pld.probs.len()].copy_from_slice(&pld.probs);
        // Errors only on buffers of the wrong length, which these are not.
        let _ = forward.process(&mut input, &mut spectrum);
        for (z, x) in product.iter_mut().zip(&spectrum) {
            *z *= complex_power(*x, *times);
        }
    }
    // A real signal's transform is real at 0 and at size/2; so are their powers, up to the sign of a
    // zero imaginary part, which the inverse checks.
    for i in [0, size / 2] {
        product[i].im = 0.0;
    }
    let mut output = inverse.make_output_vec();
    let _ = inverse.process(&mut product, &mut output);
    let scale = 1.0 / size as f64;
    let start = lo.rem_euclid(size as i64) as usize;
    (0..out_len)
        .map(|k| output[(start + k) % size] * scale)
        .collect()
}

/// z^n by repeated squaring (⌈log₂ n⌉ squarings and as many products: cheaper than polar form's three
/// transcendental functions, and as accurate for |z| ≤ 1).
fn complex_power(z: Complex<f64>, mut n: u64) -> Complex<f64> {
    let (mut base, mut acc) = (z, Complex::new(1.0, 0.0));
    while n > 0 {
        if n & 1 == 1 {
            acc *= base;
        }
        base = base * base;
        n >>= 1;
        if base.norm_sqr() < 1e-300 && n > 0 {
            // Vanishes after the remaining squarings (most high frequencies).
            return Complex::new(0.0, 0.0);
        }
    }
    acc
}
