//! The code stays formatted (`cargo fmt --check`) and free of lint and documentation warnings: `cargo clippy
//! --release --all-targets -- -D warnings` and `RUSTDOCFLAGS="-D warnings" cargo doc --no-deps` pass. Run in the default `cargo test`, so CI keeps
//! them at zero. They need the `clippy` and `rustfmt` components of the toolchain (`rustup component add clippy
//! rustfmt`; `.ci/run` adds them when missing).

use std::process::Command;

/// Runs cargo with `args` (and `env`) in the repository and fails with its whole output unless it succeeds.
fn cargo(args: &[&str], env: &[(&str, &str)]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start `cargo {}`: {e}", args.join(" ")));
    assert!(
        out.status.success(),
        "`cargo {}` failed ({}):\n{}{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn clippy_has_no_warnings() {
    let version = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["clippy", "--version"])
        .output();
    assert!(
        version.is_ok_and(|o| o.status.success()),
        "cargo clippy is not installed: `rustup component add clippy`"
    );
    cargo(
        &[
            "clippy",
            "--release",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &[],
    );
}

#[test]
fn the_documentation_builds_without_warnings() {
    cargo(&["doc", "--no-deps"], &[("RUSTDOCFLAGS", "-D warnings")]);
}

#[test]
fn the_code_is_formatted() {
    cargo(&["fmt", "--check"], &[]);
}
