//! How numbers read on the page: a few significant digits for people, full precision in `data-value`.

/// `x` with `sig` significant digits, without trailing zeros; exponent form for very large or small
/// magnitudes; "—" for NaN or ±∞, which should never reach the page but must not look like a number.
pub fn sig(x: f64, sig: usize) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let mag = x.abs().log10().floor() as i32;
    if !(-4..6).contains(&mag) {
        return format!("{:.*e}", sig.saturating_sub(1), x);
    }
    let decimals = (sig as i32 - 1 - mag).max(0) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Full precision for machines (`data-value` attributes): the shortest decimal that reads back exactly.
pub fn exact(x: f64) -> String {
    format!("{x}")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn significant_digits() {
        assert_eq!(sig(0.731_058_578_6, 4), "0.7311");
        assert_eq!(sig(2.0, 4), "2");
        assert_eq!(sig(-0.012_345_6, 3), "-0.0123");
        assert_eq!(sig(1234.5678, 4), "1235");
        assert_eq!(sig(5.2e21, 3), "5.20e21");
        assert_eq!(sig(f64::NAN, 3), "—");
        assert_eq!(count(10_000_000), "10\u{202f}000\u{202f}000");
        assert_eq!(count(999), "999");
    }
}
