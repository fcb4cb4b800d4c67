//! Every lab's keys with their defaults ([`Lab::defaults`], printed by each lab's own parameters type)
//! and its optional keys, as `tests/e2e/lab-keys.json` for the browser fuzzer (`tests/e2e/fuzz.test.mjs`),
//! so that a new key is fuzzed the day it lands. `LABS_RECORD=1 cargo test --test integration
//! lab_keys` rewrites the file.
use dp_playground::labs::Lab;

/// A JSON string.
fn json(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn manifest() -> String {
    let lines: Vec<String> = Lab::ALL
        .iter()
        .filter(|lab| !matches!(**lab, Lab::About | Lab::Start | Lab::Teach))
        .map(|lab| {
            let defaults: Vec<String> = lab
                .defaults()
                .iter()
                .map(|(k, v)| format!("{}: {}", json(k), json(v)))
                .collect();
            let optional: Vec<String> = lab.optional_keys().iter().map(|k| json(k)).collect();
            format!(
                "  {}: {{\"defaults\": {{{}}}, \"optional\": [{}]}}",
                json(lab.key()),
                defaults.join(", "),
                optional.join(", ")
            )
        })
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

#[test]
fn the_fuzzers_key_list_matches_the_labs() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/lab-keys.json");
    if std::env::var_os("LABS_RECORD").is_some() {
        std::fs::write(&path, manifest()).unwrap();
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        written,
        manifest(),
        "tests/e2e/lab-keys.json is stale: run LABS_RECORD=1 cargo test --test integration lab_keys"
    );
}
