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

#[cfg(test)]
mod tests {
    use super::*;

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
