//! Stamps the build with its git commit (`DP_PLAYGROUND_COMMIT`), which every guarantee statement
//! names as the tool's version. `unknown` outside a git checkout (a source tarball).

use std::process::Command;

fn main() {
    let commit = std::env::var("DP_PLAYGROUND_COMMIT").ok().or_else(|| {
        let out = Command::new("git")
            .args(["rev-parse", "--short=12", "HEAD"])
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    });
    println!(
        "cargo:rustc-env=DP_PLAYGROUND_COMMIT={}",
        commit
            .filter(|c| !c.is_empty())
            .unwrap_or_else(|| "unknown".into())
    );
    println!("cargo:rerun-if-env-changed=DP_PLAYGROUND_COMMIT");
    // A new commit moves HEAD's reflog (a branch checkout moves HEAD itself).
    for path in [".git/HEAD", ".git/logs/HEAD"] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
