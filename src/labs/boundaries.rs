//! The architecture's import rules, checked on the source tree (a lint that runs with `cargo test`):
//!
//! - no lab imports another lab, in either crate: what two labs share is core maths or a core type;
//! - the maths folders never import a lab;
//! - `attacks` reads `accounting`, never the other way round.

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// Lines of the files under `dir` (comments included: a doc link to another lab is a dependency
/// too) that name one of `forbidden` module paths, as `path:line: text`.
fn offending(dir: &Path, forbidden: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for file in sources(dir) {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if forbidden.iter().any(|f| line.contains(f.as_str())) {
                out.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    out
}

/// The labs' folder names.
fn labs(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root.join("src/labs"))
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().is_dir())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn no_lab_imports_another_lab() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let labs = labs(root);
    assert!(labs.len() >= 9, "{labs:?}");
    let mut found = Vec::new();
    for lab in &labs {
        let others: Vec<String> = labs
            .iter()
            .filter(|o| *o != lab)
            .map(|o| format!("labs::{o}::"))
            .chain(
                labs.iter()
                    .filter(|o| *o != lab)
                    .map(|o| format!("labs::{o};")),
            )
            .collect();
        for crate_dir in ["src/labs", "web/src/labs"] {
            found.extend(offending(&root.join(crate_dir).join(lab), &others));
        }
    }
    assert!(
        found.is_empty(),
        "a lab imports another lab:\n{}",
        found.join("\n")
    );
}

#[test]
fn maths_never_imports_a_lab_and_accounting_never_imports_attacks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lab = vec!["crate::labs::".to_string()];
    let mut found = Vec::new();
    for dir in [
        "accounting",
        "attacks",
        "mechanisms",
        "numerics",
        "learning",
        "tangent",
        "wdp",
    ] {
        found.extend(offending(&root.join("src").join(dir), &lab));
    }
    found.extend(offending(
        &root.join("src/accounting"),
        &["crate::attacks".to_string()],
    ));
    assert!(
        found.is_empty(),
        "a dependency runs the wrong way:\n{}",
        found.join("\n")
    );
}
