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

/// `x` with `digits` significant digits rounded up (toward +∞), written as [`sig`] writes: the
/// shown digits, read back, are never below `x`. For upper bounds (an ε or δ that must not be
/// understated) and for a σ offered for a target (pasting the shown σ still meets it).
///
/// ```
/// use dp_playground::link::format::sig_up;
/// assert_eq!(sig_up(3.000_047_8, 4), "3.001");
/// assert_eq!(sig_up(0.693_734, 4), "0.6938");
/// assert_eq!(sig_up(2.0, 4), "2");
/// ```
pub fn sig_up(x: f64, digits: usize) -> String {
    sig_directed(x, digits, true)
}

/// `x` with `digits` significant digits rounded down (toward −∞): the shown digits, read back, are
/// never above `x`. For lower bounds.
///
/// ```
/// use dp_playground::link::format::sig_down;
/// assert_eq!(sig_down(22.459, 4), "22.45");
/// assert_eq!(sig_down(2.999_99, 4), "2.999");
/// ```
pub fn sig_down(x: f64, digits: usize) -> String {
    sig_directed(x, digits, false)
}

/// [`sig_up`] (`up`) or [`sig_down`]: the nearest `digits`-digit decimal, moved one unit in its last
/// digit when it lies on the wrong side of `x`. The decimal is found in Rust's exact `{:e}` printing
/// and read back as the page's reader would ([`str::parse`]), so the check is on the number shown.
fn sig_directed(x: f64, digits: usize, up: bool) -> String {
    if !x.is_finite() || x == 0.0 {
        return sig(x, digits);
    }
    let d = digits.max(1);
    let wrong_side = |shown: f64| if up { shown < x } else { shown > x };
    // One unit in the last digit of x's own magnitude (moving down from 10ᵏ lands on 9.9…×10ᵏ⁻¹).
    let exponent = x.abs().log10().floor() as i32 - (d as i32 - 1);
    let unit: f64 = format!("1e{exponent}").parse().unwrap_or(0.0);
    let mut shown = decimal(x, d);
    // Twice is enough: a carry into a new leading digit, or the sum's own rounding.
    for _ in 0..3 {
        if !wrong_side(shown) {
            break;
        }
        shown = decimal(if up { shown + unit } else { shown - unit }, d);
    }
    sig(shown, d)
}

/// The `digits`-digit decimal nearest `x`, as the f64 that reads back from its printed digits.
fn decimal(x: f64, digits: usize) -> f64 {
    format!("{:.*e}", digits - 1, x).parse().unwrap_or(x)
}

/// The number a text starts with, read back as a reader reads what [`sig`] writes (`1.5×10⁻⁷`,
/// `0.6938`, `-1.23`); a trailing `.` or `-` (the end of a sentence, `1-DP`) is not part of it. `None`
/// when the text does not start with a number. For checking shown digits against their values.
///
/// ```
/// use dp_playground::link::format::{read_shown, sig};
/// assert_eq!(read_shown(&sig(1.5e-7, 3)), Some(1.5e-7));
/// assert_eq!(read_shown("1-DP: pure"), Some(1.0));
/// ```
pub fn read_shown(text: &str) -> Option<f64> {
    let token: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || ".-×⁰¹²³⁴⁵⁶⁷⁸⁹⁻".contains(*c))
        .collect();
    let plain: String = token
        .replace("×10", "e")
        .chars()
        .map(|c| match c {
            '⁻' => '-',
            c => SUPERSCRIPT
                .iter()
                .position(|&s| s == c)
                .and_then(|d| char::from_digit(d as u32, 10))
                .unwrap_or(c),
        })
        .collect();
    plain.trim_end_matches(['.', '-']).parse().ok()
}

/// A whole count with thin-space thousands separators (10 000 000).
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}

/// Six significant digits, as [`sig`] writes them: the precision of the share panel's Markdown.
pub fn sig6(x: f64) -> String {
    sig(x, 6)
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

    /// What the page's reader makes of a shown number (`1.5×10⁻⁷` included).
    fn read_back(text: &str) -> f64 {
        read_shown(text).unwrap()
    }

    /// Outward rounding over the whole range: the shown digits of an upper bound are never below it,
    /// of a lower bound never above, and never more than one unit in the last digit away.
    #[test]
    fn directed_digits_stay_on_their_side_everywhere() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(48);
        let mut xs: Vec<f64> = (0..20_000)
            .map(|_| 10f64.powf(rng.random_range(-300.0..300.0)) * rng.random_range(1.0..10.0))
            .collect();
        xs.extend([
            3.000_047_8,
            0.693_734,
            9.999_95,
            0.999_999_9,
            1e-5,
            22.459,
            1.0,
            1e300,
        ]);
        for &x in &xs {
            for digits in [1, 3, 4, 6] {
                let (up, down) = (
                    read_back(&sig_up(x, digits)),
                    read_back(&sig_down(x, digits)),
                );
                assert!(up >= x && down <= x, "{x} at {digits}: {up} {down}");
                let unit = 10f64.powi(x.log10().floor() as i32 - digits as i32 + 1);
                assert!(
                    up - x <= 1.000_001 * unit && x - down <= 1.000_001 * unit,
                    "{x}"
                );
            }
        }
        assert_eq!(sig_up(f64::INFINITY, 4), "—");
        assert_eq!(sig_down(0.0, 4), "0");
        assert_eq!(sig_up(-1.23456, 3), "-1.23");
    }

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
