//! Answer codes: what a student hands in for an exercise, and what the instructor's view reads back.
//!
//! A code holds the task, its variant, the answer (as an `f32`), and 16 bits of a hash of the
//! student's name, with a 16-bit checksum over them, in 18 Crockford base-32 characters
//! (`K7Q2-…`). The instructor's view decodes it, draws the task again and checks the answer with the
//! same computation as the page: it needs no list of answers.
//!
//! What it does not do: prove anything. There is no server and no secret, so anyone who reads this
//! source can write a code for any answer; and the page's "Check" button tells right from wrong, so a
//! student can search for the right answer by trying. The checksum catches typing errors, the name
//! hash a code copied from a classmate without changing the name, and per-student variants
//! (`vary=student`) make a classmate's answer wrong for everyone else. That is the level of a
//! homework sheet, not of an exam.

use super::{Task, TASKS};

/// Variants are 20-bit numbers.
pub const VARIANT_MASK: u32 = (1 << 20) - 1;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// One SplitMix64 step: advances `state` and returns the next number.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A stable 64-bit hash of `text` (FNV-1a, then one SplitMix64 step to spread it).
pub fn hash64(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    splitmix(&mut h)
}

/// 16 bits of the student's name (case and surrounding spaces ignored).
pub fn name_tag(name: &str) -> u16 {
    hash64(&name.trim().to_lowercase()) as u16
}

/// What a code says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    /// The task's position in [`TASKS`].
    pub task: usize,
    /// Its variant.
    pub variant: u32,
    /// The answer given.
    pub value: f32,
    /// [`name_tag`] of the student's name.
    pub name: u16,
}

impl Answer {
    /// The answer given to `task` by the student called `name`.
    pub fn new(task: &Task, value: f64, name: &str) -> Self {
        Answer {
            task: usize::from(task.index),
            variant: task.variant & VARIANT_MASK,
            value: as_f32(task, value),
            name: name_tag(name),
        }
    }

    /// The 74 bits of the fields, before the checksum.
    fn payload(&self) -> u128 {
        (self.task as u128 & 0x3f)
            | (u128::from(self.variant & VARIANT_MASK) << 6)
            | (u128::from(self.value.to_bits()) << 26)
            | (u128::from(self.name) << 58)
    }

    /// The code: 18 base-32 characters in groups of six.
    pub fn code(&self) -> String {
        let payload = self.payload();
        let sum = checksum(payload);
        let bits = payload | (u128::from(sum) << 74);
        let chars: Vec<u8> = (0..18)
            .map(|i| ALPHABET[((bits >> (5 * (17 - i))) & 31) as usize])
            .collect();
        chars
            .chunks(6)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// Reads a code (dashes, spaces and case ignored; O read as 0, I and L as 1), or says why not.
    pub fn decode(code: &str) -> Result<Answer, String> {
        let mut bits: u128 = 0;
        let mut n = 0;
        for c in code.chars().filter(|c| !matches!(c, '-' | ' ')) {
            let c = match c.to_ascii_uppercase() {
                'O' => '0',
                'I' | 'L' => '1',
                c => c,
            };
            let v = ALPHABET
                .iter()
                .position(|&a| a as char == c)
                .ok_or_else(|| format!("\"{c}\" is not a letter of an answer code"))?;
            bits = (bits << 5) | v as u128;
            n += 1;
        }
        if n != 18 {
            return Err(format!("an answer code has 18 letters, this one {n}"));
        }
        let payload = bits & ((1u128 << 74) - 1);
        if (bits >> 74) as u16 != checksum(payload) || bits >> 90 != 0 {
            return Err("the code's checksum does not match: a letter is mistyped".into());
        }
        let answer = Answer {
            task: (payload & 0x3f) as usize,
            variant: ((payload >> 6) as u32) & VARIANT_MASK,
            value: f32::from_bits((payload >> 26) as u32),
            name: (payload >> 58) as u16,
        };
        if answer.task >= TASKS.len() {
            return Err("the code names an exercise this playground does not have".into());
        }
        Ok(answer)
    }

    /// The task the code answers, drawn again in its variant.
    pub fn task(&self) -> Task {
        TASKS[self.task.min(TASKS.len() - 1)].task(self.variant)
    }

    /// Whether the answer is right by `task`'s check: [`Answer::task`], settled first when it is
    /// answered by a training run ([`Task::settle`]).
    pub fn is_right(&self, task: &Task) -> bool {
        task.is_right(f64::from(self.value))
    }
}

/// `value` as the code's `f32`: the nearest one, but where `value` is right and the nearest `f32` falls
/// just outside the accepted interval (an exact σ* rounds below σ*), the next one toward it, so that
/// the instructor's view reads a right answer as right. Every interval is far wider than an `f32` step.
fn as_f32(task: &Task, value: f64) -> f32 {
    let near = value as f32;
    if !task.is_right(value) || task.is_right(f64::from(near)) {
        return near;
    }
    let step = |x: f32, up: bool| {
        let bits = x.to_bits();
        // Away from zero is bits + 1 for either sign; toward zero bits − 1.
        f32::from_bits(if up == (x >= 0.0) { bits + 1 } else { bits - 1 })
    };
    step(near, f64::from(near) < task.accept.0)
}

/// 16 bits of a hash of the payload, salted so that a shifted payload does not check.
fn checksum(payload: u128) -> u16 {
    let mut s = (payload as u64) ^ 0x5bd1_e995_dead_beef;
    let a = splitmix(&mut s);
    let mut t = ((payload >> 64) as u64) ^ a;
    (splitmix(&mut t) >> 48) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_catch_typos() {
        for def in TASKS {
            for variant in [0, 5, VARIANT_MASK] {
                let task = crate::course::settled(def.task(variant));
                let right = 0.5 * (task.accept.0 + task.accept.1);
                // An answer exactly on either end is right, and its code reads as right.
                for end in [task.accept.0, task.accept.1] {
                    assert!(Answer::decode(&Answer::new(&task, end, "x").code())
                        .unwrap()
                        .is_right(&task));
                }
                let a = Answer::new(&task, right, "Ann Smith");
                let code = a.code();
                assert_eq!(code.len(), 20);
                let back = Answer::decode(&code.to_lowercase()).unwrap();
                assert_eq!(back, a);
                assert_eq!(crate::course::settled(back.task()), task);
                assert!(back.is_right(&task), "{}: {code}", task.key);
                assert_eq!(back.name, name_tag(" ann smith "));
                let wrong = Answer::new(&task, task.accept.1 * 2.0 + 1.0, "Ann Smith");
                assert!(!Answer::decode(&wrong.code()).unwrap().is_right(&task));
                // Every single-letter change is caught.
                let letters: Vec<char> = code.chars().collect();
                for i in (0..letters.len()).filter(|&i| letters[i] != '-') {
                    let mut typo = letters.clone();
                    typo[i] = if typo[i] == 'Z' { 'Y' } else { 'Z' };
                    let typo: String = typo.into_iter().collect();
                    assert!(Answer::decode(&typo).is_err(), "{code} → {typo}");
                }
            }
        }
        assert!(Answer::decode("").is_err() && Answer::decode("UUUU").is_err());
    }
}
