//! How numbers read for people, everywhere they are shown: cards, tables, chart ticks and annotations,
//! the Markdown export. Links and `data-value` keep full precision ([`crate::link::query::fmt_f64`]).

/// Superscript digits and minus sign, for exponents.
const SUPERSCRIPT: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/// `x` with `digits` significant digits, without trailing zeros; for magnitudes below 1e-4 or from 1e6
/// up, one style of scientific notation, `1.5×10⁻⁷`. "—" for NaN or ±∞, which should never reach the page
/// but must not look like a number.
///
/// ```
/// use dp_playground::link::format::sig;
/// assert_eq!(sig(0.731_058_578_6, 4), "0.7311");
/// assert_eq!(sig(1.5e-7, 3), "1.5×10⁻⁷");
/// assert_eq!(sig(1e-5, 4), "1×10⁻⁵");
/// ```
pub fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let digits = digits.max(1);
    let mag = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&mag) {
        let text = format!("{:.*e}", digits - 1, x);
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = trim_zeros(mantissa);
        return format!("{mantissa}×10{}", superscript(exponent));
    }
    let decimals = (digits as i32 - 1 - mag).max(0) as usize;
    trim_zeros(&format!("{x:.decimals$}"))
}

/// An exponent such as `-5` in superscript (`⁻⁵`).
pub fn superscript(exponent: &str) -> String {
    exponent
        .chars()
        .filter_map(|c| match c {
            '-' => Some('⁻'),
            d => d.to_digit(10).map(|d| SUPERSCRIPT[d as usize]),
        })
        .collect()
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// A rate in (0, 1] as link text: the shortest exact fraction `a/b` (denominator up to 10⁶) when it is
/// shorter than the decimal, so that `256.0 / 60000.0` is written `8/1875`, not `0.004266666666666667`;
/// the decimal otherwise (`0.01`). Either reads back to the same float
/// ([`crate::link::query::parse_number`] takes ratios).
pub fn rate_text(q: f64) -> String {
    let decimal = crate::link::query::fmt_f64(q);
    if !(q > 0.0 && q < 1.0) {
        return decimal;
    }
    // Convergents h/k of the continued fraction of q (hand-written: a few lines, no crate needed).
    let (mut h0, mut h1, mut k0, mut k1) = (0u64, 1u64, 1u64, 0u64);
    let mut x = q;
    for _ in 0..40 {
        let a = x.floor();
        if a > 1e12 {
            break;
        }
        let a = a as u64;
        let (h, k) = (a * h1 + h0, a * k1 + k0);
        if k > 1_000_000 {
            break;
        }
        if h as f64 / k as f64 == q {
            let ratio = format!("{h}/{k}");
            return if ratio.len() < decimal.len() {
                ratio
            } else {
                decimal
            };
        }
        (h0, h1, k0, k1) = (h1, h, k1, k);
        let frac = x - a as f64;
        if frac == 0.0 {
            break;
        }
        x = 1.0 / frac;
    }
    decimal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_written_as_short_exact_ratios() {
        assert_eq!(rate_text(256.0 / 60_000.0), "8/1875");
        assert_eq!(rate_text(0.01), "0.01");
        assert_eq!(rate_text(1.0), "1");
        assert_eq!(rate_text(1.0 / 3.0), "1/3");
        assert_eq!(
            rate_text(std::f64::consts::PI / 10.0),
            crate::link::query::fmt_f64(std::f64::consts::PI / 10.0)
        );
        for q in [
            256.0 / 60_000.0,
            1.0 / 3.0,
            0.1,
            7.0 / 12_345.0,
            1e-9,
            0.999_999,
        ] {
            let back = crate::link::query::parse_number("q", &rate_text(q)).unwrap();
            assert_eq!(back, q, "{q}");
        }
    }

    #[test]
    fn significant_digits_and_one_scientific_style() {
        assert_eq!(sig(0.731_058_578_6, 4), "0.7311");
        assert_eq!(sig(2.0, 4), "2");
        assert_eq!(sig(-0.012_345_6, 3), "-0.0123");
        assert_eq!(sig(1234.5678, 4), "1235");
        assert_eq!(sig(5.2e21, 3), "5.2×10²¹");
        assert_eq!(sig(-1.0e-5, 4), "-1×10⁻⁵");
        assert_eq!(sig(8.121_547_033_831_973, 4), "8.122");
        assert_eq!(sig(9.99996e6, 4), "1×10⁷");
        assert_eq!(sig(f64::NAN, 3), "—");
        assert_eq!(sig(f64::INFINITY, 3), "—");
        assert_eq!(superscript("-17"), "⁻¹⁷");
    }
}
