//! The URL query string, the single source of truth for every shareable parameter.
//!
//! [`Query`] is an ordered list of key/value pairs. Reading never fails: a lab reads each key with
//! [`read_param`], which falls back to the default and records a [`Notice`] when the value is bad, so a
//! mangled link still opens a working page that says what it ignored. Unknown keys are kept untouched, so
//! that writing one parameter never drops another (embedding flags, for instance).

use crate::error::{Error, Result};
use std::fmt::Write as _;

/// An ordered list of query pairs, decoded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

/// A value in the link that could not be used, and what was used instead. Shown on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The query key the notice is about.
    pub key: String,
    /// A sentence for the user: what was wrong and what the page uses instead.
    pub message: String,
    /// The value the page uses instead, as link text, when it is a value (a control shows it).
    pub using: Option<String>,
}

impl Query {
    /// Parses `a=1&b=2`, with or without the leading `?`. Percent escapes and `+` are decoded;
    /// empty segments are skipped; a key without `=` has the empty value.
    pub fn parse(search: &str) -> Self {
        let search = search.strip_prefix('?').unwrap_or(search);
        let pairs = search
            .split('&')
            .filter(|s| !s.is_empty())
            .map(|seg| match seg.split_once('=') {
                Some((k, v)) => (decode(k), decode(v)),
                None => (decode(seg), String::new()),
            })
            .collect();
        Query { pairs }
    }

    /// The first value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `key` to `value`: replaces its first occurrence in place (removing any repeats) or appends it.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.pairs.iter().position(|(k, _)| k == key) {
            Some(i) => {
                self.pairs[i].1 = value;
                let mut seen = 0;
                self.pairs.retain(|(k, _)| {
                    if k == key {
                        seen += 1;
                        seen == 1
                    } else {
                        true
                    }
                });
            }
            None => self.pairs.push((key.to_owned(), value)),
        }
    }

    /// Removes every occurrence of `key`.
    pub fn remove(&mut self, key: &str) {
        self.pairs.retain(|(k, _)| k != key);
    }

    /// Builder form of [`Query::set`].
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.set(key, value);
        self
    }

    /// The pairs, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    /// Prints `a=1&b=2` (no leading `?`), percent-encoding what a URL must not carry raw.
    pub fn to_query_string(&self) -> String {
        let mut out = String::new();
        for (i, (k, v)) in self.pairs.iter().enumerate() {
            if i > 0 {
                out.push('&');
            }
            encode_into(&mut out, k);
            out.push('=');
            encode_into(&mut out, v);
        }
        out
    }
}

/// Reads `key` with `parse`: a missing or empty key gives `default` silently; a bad value gives `default`
/// and a notice naming the key, the value, why it was refused and what is used instead.
pub fn read_param<T: Clone + std::fmt::Display>(
    query: &Query,
    key: &str,
    default: T,
    parse: impl Fn(&str) -> Result<T>,
    notices: &mut Vec<Notice>,
) -> T {
    read_param_with(query, key, default, T::to_string, parse, notices)
}

/// [`read_param`] for values whose link text is not their `Display` (a list, an index into a table, a
/// switch): `show` prints the default the notice falls back to.
pub fn read_param_with<T: Clone>(
    query: &Query,
    key: &str,
    default: T,
    show: impl Fn(&T) -> String,
    parse: impl Fn(&str) -> Result<T>,
    notices: &mut Vec<Notice>,
) -> T {
    match query.get(key).map(str::trim) {
        None | Some("") => default,
        Some(raw) => match parse(raw) {
            Ok(v) => v,
            Err(e) => {
                notices.push(Notice {
                    key: key.to_owned(),
                    message: format!("{e}; using {} instead.", show(&default)),
                    using: Some(show(&default)),
                });
                default
            }
        },
    }
}

/// Parses a seed: any whole number from 0 to 2^64 − 1.
pub fn parse_seed(s: &str) -> Result<u64> {
    s.trim().parse::<u64>().map_err(|_| {
        Error::invalid(
            "seed",
            s,
            "must be a whole number from 0 to 18446744073709551615",
        )
    })
}

/// Parses a number (`1e-5`, ` 2.5 `) or a ratio of two (`256/60000`); NaN and infinities (also `1/0`)
/// parse here and are refused by the checks. `-0` reads as 0.
///
/// # Errors
/// Not a number, or a subnormal one (nonzero and below 2.2e-308 in size, also as a ratio): no lab
/// computes with those (their reciprocals and squares overflow or vanish, and σ = 1e-320 blocked the
/// page for half a minute), so every number key refuses them here, before any lab's own range.
pub fn parse_number(name: &'static str, s: &str) -> Result<f64> {
    let number = |t: &str| t.trim().parse::<f64>().ok();
    let x = match s.split_once('/') {
        // A ratio such as a sampling rate's `256/60000`, as links write it.
        Some((a, b)) => number(a).zip(number(b)).map(|(a, b)| a / b),
        None => number(s),
    };
    let x = x.ok_or_else(|| Error::invalid(name, s, "is not a number"))?;
    if x.is_subnormal() {
        return Err(Error::invalid(
            name,
            s,
            "is too close to 0 to compute with (a subnormal number, below 2.2e-308 in size)",
        ));
    }
    Ok(x + 0.0)
}

/// A whole number, written plainly or as a float with no fractional part (`1e6`).
pub fn parse_whole(name: &'static str, s: &str) -> Result<u64> {
    if let Ok(v) = s.trim().parse::<u64>() {
        return Ok(v);
    }
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x < 1.8e19 => Ok(x as u64),
        _ => Err(Error::invalid(name, s, "is not a whole number")),
    }
}

/// Parses a number in (lo, hi] (or (lo, hi) when `hi_included` is false).
pub fn parse_number_in(
    name: &'static str,
    s: &str,
    lo: f64,
    hi: f64,
    hi_included: bool,
) -> Result<f64> {
    let x = parse_number(name, s)?;
    if x > lo && (x < hi || (hi_included && x == hi)) {
        return Ok(x);
    }
    let top = if hi_included { "]" } else { ")" };
    let hi_text = if hi >= 1e6 {
        format!("{hi:e}")
    } else {
        format!("{hi}")
    };
    Err(Error::invalid(
        name,
        s,
        format!("must be a number in ({lo}, {hi_text}{top}"),
    ))
}

/// Parses a whole number from lo to hi (also written as `1e6`).
pub fn parse_whole_in(name: &'static str, s: &str, lo: u64, hi: u64) -> Result<u64> {
    let v = parse_whole(name, s)?;
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(Error::invalid(
            name,
            s,
            format!("must be a whole number from {lo} to {hi}"),
        ))
    }
}

/// Reads an optional `key`: missing or empty gives `None` silently; a bad value gives `None` and a notice
/// ending with `instead` (what the page does without it, e.g. "using the calibrated value instead").
pub fn read_optional<T>(
    query: &Query,
    key: &str,
    parse: impl Fn(&str) -> Result<T>,
    instead: &str,
    notices: &mut Vec<Notice>,
) -> Option<T> {
    let raw = query.get(key).map(str::trim).filter(|s| !s.is_empty())?;
    match parse(raw) {
        Ok(v) => Some(v),
        Err(e) => {
            notices.push(Notice {
                key: key.to_owned(),
                message: format!("{e}; {instead}."),
                using: None,
            });
            None
        }
    }
}

/// An interval (lo, hi] or (lo, hi) a number key must lie in: the lower end is always excluded (every
/// range in the playground starts above a bound: ε > 0, δ > 0, σ > 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Within {
    lo: f64,
    hi: f64,
    hi_included: bool,
}

impl Within {
    /// (lo, hi].
    pub const fn up_to(lo: f64, hi: f64) -> Self {
        Within {
            lo,
            hi,
            hi_included: true,
        }
    }

    /// (lo, hi).
    pub const fn below(lo: f64, hi: f64) -> Self {
        Within {
            lo,
            hi,
            hi_included: false,
        }
    }
}

/// Reads a lab's keys, collecting a [`Notice`] for each value it refuses: the compact form of
/// [`read_param`] every parameters type uses (`r.number("delta", d.delta, Within::below(0.0, 1.0))`).
pub struct Reader<'q> {
    query: &'q Query,
    notices: Vec<Notice>,
}

impl<'q> Reader<'q> {
    /// A reader of `query` with no notices yet.
    pub fn new(query: &'q Query) -> Self {
        Reader {
            query,
            notices: Vec::new(),
        }
    }

    /// The query being read (for a key another key's value constrains).
    pub fn query(&self) -> &'q Query {
        self.query
    }

    /// A number in `range`, or `default` (with a notice when the value was bad).
    pub fn number(&mut self, key: &'static str, default: f64, range: Within) -> f64 {
        let Within {
            lo,
            hi,
            hi_included,
        } = range;
        let parse = |s: &str| parse_number_in(key, s, lo, hi, hi_included);
        read_param(self.query, key, default, parse, &mut self.notices)
    }

    /// A whole number in [lo, hi] (also written `1e6`), or `default`.
    pub fn whole(&mut self, key: &'static str, default: u64, lo: u64, hi: u64) -> u64 {
        let parse = |s: &str| parse_whole_in(key, s, lo, hi);
        read_param(self.query, key, default, parse, &mut self.notices)
    }

    /// An optional number in `range`: absent or bad gives `None` (bad with a notice ending `instead`).
    pub fn optional_number(
        &mut self,
        key: &'static str,
        range: Within,
        instead: &str,
    ) -> Option<f64> {
        let Within {
            lo,
            hi,
            hi_included,
        } = range;
        let parse = |s: &str| parse_number_in(key, s, lo, hi, hi_included);
        read_optional(self.query, key, parse, instead, &mut self.notices)
    }

    /// An optional value with its own parser: absent or bad gives `None` (bad with a notice ending
    /// `instead`).
    pub fn optional<T>(
        &mut self,
        key: &str,
        parse: impl Fn(&str) -> Result<T>,
        instead: &str,
    ) -> Option<T> {
        read_optional(self.query, key, parse, instead, &mut self.notices)
    }

    /// An optional whole number in [lo, hi].
    pub fn optional_whole(
        &mut self,
        key: &'static str,
        lo: u64,
        hi: u64,
        instead: &str,
    ) -> Option<u64> {
        let parse = |s: &str| parse_whole_in(key, s, lo, hi);
        read_optional(self.query, key, parse, instead, &mut self.notices)
    }

    /// Any value with its own parser (a choice, a list, a seed), or `default`.
    pub fn parse<T: Clone + std::fmt::Display>(
        &mut self,
        key: &str,
        default: T,
        parse: impl Fn(&str) -> Result<T>,
    ) -> T {
        read_param(self.query, key, default, parse, &mut self.notices)
    }

    /// [`Reader::parse`] for values whose link text is not their `Display` (`show` prints the default).
    pub fn parse_with<T: Clone>(
        &mut self,
        key: &str,
        default: T,
        show: impl Fn(&T) -> String,
        parse: impl Fn(&str) -> Result<T>,
    ) -> T {
        read_param_with(self.query, key, default, show, parse, &mut self.notices)
    }

    /// Adds a notice of the reader's own (a value that is fine alone but not with another).
    pub fn notice(&mut self, key: &str, message: String) {
        self.notices.push(Notice {
            key: key.to_owned(),
            message,
            using: None,
        });
    }

    /// The parameters read, with every notice.
    pub fn finish<T>(self, value: T) -> (T, Vec<Notice>) {
        (value, self.notices)
    }
}

/// A lab's parameters: read from the link (never failing: a bad value falls back with a notice) and
/// printed back. The link is the single source of truth, so `from_query(to_query(p)) == p`.
pub trait LinkParams: Sized {
    /// Reads the lab's keys.
    fn from_query(query: &Query) -> (Self, Vec<Notice>);
    /// Prints every key, `lab=…` first.
    fn to_query(&self) -> Query;
}

/// Prints an `f64` as the shortest decimal that reads back to the same value (Rust's `Display`).
pub fn fmt_f64(x: f64) -> String {
    format!("{x}")
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn encode_into(out: &mut String, s: &str) {
    for b in s.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b','
            | b':'
            | b'/' => out.push(b as char),
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn parses_and_prints_round_trip() {
        let q = Query::parse("?lab=rr&eps=1.5&truth=0.3,0.7&note=a%20b%26c");
        assert_eq!(q.get("lab"), Some("rr"));
        assert_eq!(q.get("truth"), Some("0.3,0.7"));
        assert_eq!(q.get("note"), Some("a b&c"));
        assert_eq!(Query::parse(&q.to_query_string()), q);
    }

    #[test]
    fn set_replaces_in_place_and_keeps_unknown_keys() {
        let q = Query::parse("lab=rr&embed=1&eps=1&eps=2").with("eps", "3");
        assert_eq!(q.to_query_string(), "lab=rr&embed=1&eps=3");
        assert_eq!(
            q.with("seed", "9").to_query_string(),
            "lab=rr&embed=1&eps=3&seed=9"
        );
    }

    #[test]
    fn ugly_strings_do_not_panic() {
        for s in [
            "%", "%%", "%4", "a=%zz", "=&=&", "&&&", "k", "é=ü", "a=%FF%FE", "?",
        ] {
            let q = Query::parse(s);
            let _ = Query::parse(&q.to_query_string());
        }
        assert_eq!(Query::parse("a=%4").get("a"), Some("%4"));
    }

    #[test]
    fn subnormal_numbers_are_refused_and_minus_zero_is_zero() {
        for s in [
            "1e-320",
            "4.9e-324",
            "-1e-310",
            "2.2e-308",
            "1e-300/1e10",
            "-4.9e-324",
        ] {
            let e = parse_number("sigma", s).unwrap_err().to_string();
            assert!(e.contains("too close to 0"), "{s}: {e}");
        }
        for (s, x) in [
            ("2.3e-308", 2.3e-308),
            ("1e-300", 1e-300),
            ("1e-400", 0.0),
            ("0", 0.0),
        ] {
            assert_eq!(parse_number("x", s).unwrap(), x, "{s}");
        }
        let zero = parse_number("x", "-0").unwrap();
        assert!(zero == 0.0 && zero.is_sign_positive());
        assert!(parse_number_in("sigma", "1e-320", 0.0, 1.0, true).is_err());
    }

    #[test]
    fn read_param_falls_back_with_notice() {
        let q = Query::parse("x=abc&y=&z=2");
        let parse = |s: &str| {
            s.parse::<f64>()
                .map_err(|_| Error::invalid("x", s, "is not a number"))
        };
        let mut notices = Vec::new();
        assert_eq!(read_param(&q, "x", 1.0, parse, &mut notices), 1.0);
        assert_eq!(read_param(&q, "y", 1.0, parse, &mut notices), 1.0);
        assert_eq!(read_param(&q, "z", 1.0, parse, &mut notices), 2.0);
        assert_eq!(read_param(&q, "w", 1.0, parse, &mut notices), 1.0);
        assert_eq!(notices.len(), 1);
        assert_eq!(notices[0].key, "x");
        assert!(notices[0].message.contains("using 1 instead"));
    }
}
