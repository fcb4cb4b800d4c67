//! How numbers read on the page: a few significant digits for people, full precision in `data-value`.

/// `x` with `sig` significant digits (the core's one formatter: `1.5×10⁻⁷` style for tiny and huge).
pub use dp_playground::link::format::sig;

/// A whole count with thin-space thousands separators (10 000 000).
pub use dp_playground::link::format::count;

/// Outward rounding for bounds: an upper bound's digits never below it, a lower bound's never above.
pub use dp_playground::link::format::{sig_down, sig_up};

/// Full precision for machines (`data-value` attributes): the shortest decimal that reads back exactly.
pub fn exact(x: f64) -> String {
    format!("{x}")
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
        assert_eq!(sig(5.2e21, 3), "5.2×10²¹");
        assert_eq!(sig(f64::NAN, 3), "—");
        assert_eq!(count(10_000_000), "10\u{202f}000\u{202f}000");
        assert_eq!(count(999), "999");
    }
}
