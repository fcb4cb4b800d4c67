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
/// (a power of two, at least each part's length), read out at `out_len` points from index `lo` (mod
/// `size`): the composed masses, with the FFT's rounding noise still in them (values slightly below 0
/// included). A PLD's masses, or any law's (the random-allocation sampler's likelihood ratio).
pub(crate) fn convolve_powers(
    parts: &[(&[f64], u64)],
    size: usize,
    lo: i64,
    out_len: usize,
) -> Vec<f64> {
    let (forward, inverse) =
        PLANNER.with_borrow_mut(|p| (p.plan_fft_forward(size), p.plan_fft_inverse(size)));
    let mut product = vec![Complex::new(1.0, 0.0); size / 2 + 1];
    let mut input = vec![0.0; size];
    let mut spectrum = forward.make_output_vec();
    for (masses, times) in parts {
        input.fill(0.0);
        input[..masses.len()].copy_from_slice(masses);
        // Errors only on buffers of the wrong length, which these are not.
        let _ = forward.process(&mut input, &mut spectrum);
        multiply_by_powers(&mut product, &mut spectrum, *times);
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

/// [`convolve_powers`] of one PLD for each (count, `lo`, `out_len`) of `reads`, all on `size` points,
/// from one forward transform.
pub(super) fn convolve_each(pld: &Pld, reads: &[(u64, i64, usize)], size: usize) -> Vec<Vec<f64>> {
    let (forward, inverse) =
        PLANNER.with_borrow_mut(|p| (p.plan_fft_forward(size), p.plan_fft_inverse(size)));
    let mut input = vec![0.0; size];
    input[..pld.probs.len()].copy_from_slice(&pld.probs);
    let mut spectrum = forward.make_output_vec();
    let _ = forward.process(&mut input, &mut spectrum);
    let mut output = inverse.make_output_vec();
    let scale = 1.0 / size as f64;
    let counts: Vec<u64> = reads.iter().map(|r| r.0).collect();
    let powers = powers_each(&mut spectrum, &counts);
    reads
        .iter()
        .zip(powers)
        .map(|(&(_, lo, out_len), mut product)| {
            for i in [0, size / 2] {
                product[i].im = 0.0;
            }
            let _ = inverse.process(&mut product, &mut output);
            let start = lo.rem_euclid(size as i64) as usize;
            (0..out_len)
                .map(|k| output[(start + k) % size] * scale)
                .collect()
        })
        .collect()
}

/// `product[i] *= base[i]^n` for every i, by repeated squaring (⌈log₂ n⌉ squarings and as many
/// products: cheaper than polar form's three transcendental functions, and as accurate for |z| ≤ 1).
/// Every point takes the same steps, so they run level by level across the array, independent of one
/// another (one point at a time, each squaring waited for the one before: 15% of a band's time). A
/// point whose base falls below 1e-150 in modulus before its last squaring vanishes (most high
/// frequencies), and is set to 0 at once rather than squared into subnormals.
fn multiply_by_powers(product: &mut [Complex<f64>], base: &mut [Complex<f64>], n: u64) {
    // In blocks, each a call of its own: see `powers_of_block`.
    for (p, b) in product.chunks_mut(BLOCK).zip(base.chunks_mut(BLOCK)) {
        powers_of_block(p, b, n);
    }
}

/// `base[i]^n` for every i and each n of `counts`, as [`multiply_by_powers`] gives each (the same
/// products in the same order, a vanished point 0): the squarings are shared, each count multiplying
/// in the levels of its set bits. `base` is left squared.
fn powers_each(base: &mut [Complex<f64>], counts: &[u64]) -> Vec<Vec<Complex<f64>>> {
    let mut out: Vec<Vec<Complex<f64>>> = counts
        .iter()
        .map(|_| vec![Complex::new(1.0, 0.0); base.len()])
        .collect();
    for (k, b) in base.chunks_mut(BLOCK).enumerate() {
        let mut block: Vec<&mut [Complex<f64>]> = out
            .iter_mut()
            .map(|o| &mut o[k * BLOCK..k * BLOCK + b.len()])
            .collect();
        powers_each_block(b, counts, &mut block);
    }
    out
}

/// [`powers_each`] on one block (a call of its own, as [`powers_of_block`]).
#[inline(never)]
fn powers_each_block(base: &mut [Complex<f64>], counts: &[u64], out: &mut [&mut [Complex<f64>]]) {
    let zero = Complex::new(0.0, 0.0);
    let mut level = 0;
    // Points past `live` have vanished, as in `powers_of_block`: each level stops there.
    let mut live = base.len();
    loop {
        for (&n, acc) in counts.iter().zip(out.iter_mut()) {
            if (n >> level) & 1 == 1 {
                for (a, b) in acc[..live].iter_mut().zip(base[..live].iter()) {
                    *a *= *b;
                }
            }
        }
        level += 1;
        if counts.iter().all(|&n| level >= 64 || n >> level == 0) {
            return;
        }
        let mut last = 0;
        for (i, b) in base[..live].iter_mut().enumerate() {
            *b = *b * *b;
            if b.norm_sqr() < 1e-300 {
                *b = zero;
            } else {
                last = i + 1;
            }
        }
        // A count with a set bit still to come would multiply the vanished points by 0 there.
        for (&n, acc) in counts.iter().zip(out.iter_mut()) {
            if level < 64 && n >> level != 0 {
                acc[last..live].fill(zero);
            }
        }
        live = last;
    }
}

/// Points per call of [`powers_of_block`].
const BLOCK: usize = 2048;

/// [`multiply_by_powers`] on one block. Not inlined, and called once per block: in a browser's first
/// run only a function called again gets compiled by the optimizing tier (WebAssembly does not replace
/// a running loop), so one call over all points ran wholly in baseline code.
#[inline(never)]
fn powers_of_block(product: &mut [Complex<f64>], base: &mut [Complex<f64>], mut n: u64) {
    let zero = Complex::new(0.0, 0.0);
    let mut acc = vec![Complex::new(1.0, 0.0); base.len()];
    // Points past `live` have vanished (their `acc` and base are 0 and stay so): each level stops
    // there. High frequencies vanish first, so most of a block's work after the first levels is gone.
    let mut live = base.len();
    while n > 0 && live > 0 {
        let bit = n & 1 == 1;
        n >>= 1;
        let mut last = 0;
        for (i, (a, b)) in acc[..live]
            .iter_mut()
            .zip(base[..live].iter_mut())
            .enumerate()
        {
            if bit {
                *a *= *b;
            }
            *b = *b * *b;
            if n > 0 && b.norm_sqr() < 1e-300 {
                *a = zero;
                *b = zero;
            } else {
                last = i + 1;
            }
        }
        live = if n > 0 { last } else { live };
    }
    for (z, a) in product.iter_mut().zip(&acc) {
        *z *= *a;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// z^n one point at a time, as the accountant first did: the reference for the level-by-level
    /// version.
    fn complex_power(z: Complex<f64>, mut n: u64) -> Complex<f64> {
        let (mut base, mut acc) = (z, Complex::new(1.0, 0.0));
        while n > 0 {
            if n & 1 == 1 {
                acc *= base;
            }
            base = base * base;
            n >>= 1;
            if base.norm_sqr() < 1e-300 && n > 0 {
                return Complex::new(0.0, 0.0);
            }
        }
        acc
    }

    /// Moduli falling with the index (a PLD's spectrum: the high frequencies vanish first), and
    /// interleaved (a point that vanishes between two that do not, and the block's last point live).
    fn spectra() -> [Vec<Complex<f64>>; 2] {
        let falling = (0..5000)
            .map(|k| Complex::from_polar(1.0 - k as f64 / 5200.0, 0.37 * k as f64))
            .collect();
        let interleaved = (0..5000)
            .map(|k| {
                let r = [0.999_99, 0.3, 0.9, 1e-40][k % 4] * (1.0 - k as f64 / 1e6);
                Complex::from_polar(r, 0.37 * k as f64)
            })
            .collect();
        [falling, interleaved]
    }

    #[test]
    fn shared_powers_equal_each_power_alone() {
        let counts = [1u64, 2, 7, 1000, 1758, 3516, 7032, 10_548, 1 << 40];
        for points in spectra() {
            let shared = powers_each(&mut points.clone(), &counts);
            for (&n, got) in counts.iter().zip(&shared) {
                let mut want = vec![Complex::new(1.0, 0.0); points.len()];
                multiply_by_powers(&mut want, &mut points.clone(), n);
                for (g, w) in got.iter().zip(&want) {
                    // Equal, up to the sign of a vanished point's zeros.
                    assert!(g.re == w.re && g.im == w.im, "n = {n}: {g} vs {w}");
                }
            }
        }
    }

    #[test]
    fn powers_level_by_level_equal_one_at_a_time() {
        let points: Vec<Complex<f64>> = (0..500)
            .map(|k| Complex::from_polar(1.0 - k as f64 / 700.0, 0.37 * k as f64))
            .chain([
                Complex::new(1.0, 0.0),
                Complex::new(0.0, 0.0),
                Complex::new(-1.0, 0.0),
            ])
            .chain(spectra().concat())
            .collect();
        for n in [1u64, 2, 3, 7, 64, 1000, 14_062, 100_000, 1 << 40] {
            let mut product = vec![Complex::new(0.5, -0.25); points.len()];
            let mut base = points.clone();
            multiply_by_powers(&mut product, &mut base, n);
            for (p, z) in product.iter().zip(&points) {
                let want = Complex::new(0.5, -0.25) * complex_power(*z, n);
                assert!(
                    p.re == want.re && p.im == want.im,
                    "n = {n}, z = {z}: {p} vs {want}"
                );
            }
        }
    }
}
