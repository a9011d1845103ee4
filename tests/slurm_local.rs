//! `scripts/slurm-local.sh` without root or Slurm: the Slurm commands it calls are stand-ins on `PATH`
//! (`sbatch`, `cargo`, `hostname`, `pgrep`, `slurmctld`, `slurmd`, and a `sinfo` that ends the script where
//! the cluster would start working), so what it does to the machine before and after a run is checked:
//! it never overwrites a Slurm configuration in place; a configuration it writes is gone at the end; it
//! stops the daemons it started and only those; and its comparison of the merged run with one process's
//! run fails when a file differs.

#[path = "common/scratch.rs"]
mod scratch_dir;
use scratch_dir::Scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn scratch(name: &str) -> Scratch {
    Scratch::new(&format!("slurm-local-{name}"))
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-local.sh")
}

fn stub(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The stand-ins. `running`: the daemons `pgrep` says are running already. A started daemon is a `sleep`
/// whose pid goes where the configuration in use (`$SLURM_CONF`) says, as the real daemons do. `sinfo`
/// answers the script's wait with an idle node, and its plain call (the script's first look at the cluster)
/// copies the configuration in use to `seen.conf` and fails with status 7, ending the script there.
fn stubs(dir: &Path, running: &[&str]) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in ["sbatch", "cargo", "apt-get", "scontrol", "squeue", "sacct"] {
        stub(&bin, name, "exit 0");
    }
    stub(&bin, "hostname", "echo testhost");
    let mut pgrep = String::from("for a; do last=\"$a\"; done\ncase \"$last\" in\n");
    for r in running {
        pgrep.push_str(&format!("  {r}) exit 0 ;;\n"));
    }
    pgrep.push_str("esac\nexit 1");
    stub(&bin, "pgrep", &pgrep);
    for (daemon, key) in [
        ("slurmctld", "SlurmctldPidFile"),
        ("slurmd", "SlurmdPidFile"),
    ] {
        stub(
            &bin,
            daemon,
            &format!(
                "f=\"$(sed -n 's/^{key}=//p' \"$SLURM_CONF\" | tail -1)\"\n\
                 setsid sleep 300 >/dev/null 2>&1 </dev/null &\n\
                 echo $! > \"$f\"\n\
                 echo started >> \"{}\"",
                dir.join(format!("{daemon}.started")).display()
            ),
        );
    }
    stub(
        &bin,
        "sinfo",
        &format!(
            "if [ $# -gt 0 ]; then echo idle; exit 0; fi\ncp \"$SLURM_CONF\" \"{}\" 2>/dev/null\nexit 7",
            dir.join("seen.conf").display()
        ),
    );
    bin
}

fn run(dir: &Path, bin: &Path, conf: &Path, args: &[&str]) -> Output {
    Command::new("bash")
        .arg(script())
        .args(args)
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin:/usr/sbin:/sbin", bin.display()),
        )
        .env("SLURM_CONF", conf)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn alive(pid: &str) -> bool {
    Path::new(&format!("/proc/{}", pid.trim())).exists()
        && !std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .unwrap_or_default()
            .contains(") Z ")
}

/// A configuration in place is used as it is, byte for byte. slurmd was running already (pgrep finds it):
/// it is neither started nor stopped; slurmctld was not: the script starts it and stops it at the end,
/// even though the script fails (status 7 from `sinfo`).
#[test]
fn a_configuration_in_place_is_kept_and_only_the_daemons_started_are_stopped() {
    let d = scratch("in-place");
    let bin = stubs(&d, &["munged", "slurmd"]);
    let conf = d.join("slurm.conf");
    let text = format!(
        "# the site's own configuration\nClusterName=site\nSlurmctldPidFile={0}/ctld.pid\nSlurmdPidFile={0}/d.pid\n",
        d.display()
    );
    std::fs::write(&conf, &text).unwrap();
    // The slurmd that runs already.
    let mut theirs = Command::new("setsid")
        .args(["sleep", "300"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::fs::write(d.join("d.pid"), theirs.id().to_string()).unwrap();
    let out = run(&d, &bin, &conf, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(7), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&conf).unwrap(),
        text,
        "the configuration was changed"
    );
    assert!(
        stdout.contains("using the Slurm configuration in place"),
        "{stdout}"
    );
    assert!(
        d.join("slurmctld.started").exists(),
        "slurmctld was not started"
    );
    assert!(
        !d.join("slurmd.started").exists(),
        "a running slurmd was started again"
    );
    let ctld = std::fs::read_to_string(d.join("ctld.pid")).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(!alive(&ctld), "the slurmctld the script started still runs");
    assert!(
        alive(&theirs.id().to_string()),
        "the slurmd it did not start was stopped"
    );
    assert!(
        stdout.contains("stopped the daemons this script started (1)"),
        "{stdout}"
    );
    let _ = theirs.kill();
    let _ = theirs.wait();
}

/// Without a configuration, the script writes a one-node one where `SLURM_CONF` says, and removes it at the
/// end, here at a failure.
#[test]
fn a_configuration_the_script_writes_is_removed_at_the_end() {
    let d = scratch("written");
    let bin = stubs(&d, &["munged", "slurmctld", "slurmd"]);
    let conf = d.join("etc/slurm.conf");
    let out = run(&d, &bin, &conf, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(7), "{stdout}");
    assert!(
        stdout.contains("wrote a one-node configuration"),
        "{stdout}"
    );
    let seen = std::fs::read_to_string(d.join("seen.conf")).unwrap_or_default();
    assert!(
        seen.contains("ClusterName=dagaz-local") && seen.contains("NodeName=testhost"),
        "{seen}"
    );
    assert!(!conf.exists(), "the configuration it wrote is still there");
}

/// The merged run against one process's run: equal files pass, one differing file fails the script (it
/// printed the difference and exited 0 before).
#[test]
fn the_comparison_fails_when_a_file_differs() {
    let d = scratch("compare");
    let (a, b) = (d.join("single"), d.join("merged"));
    for dir in [&a, &b] {
        std::fs::create_dir_all(dir).unwrap();
        for f in [
            "games.csv",
            "standings.csv",
            "end_conditions.csv",
            "pairwise.csv",
            "results_long.csv",
            "report.md",
            "report.html",
            "games.pgn",
        ] {
            std::fs::write(dir.join(f), format!("{f}\n")).unwrap();
        }
    }
    let bin = stubs(&d, &[]);
    let (sa, sb) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = run(&d, &bin, &d.join("none.conf"), &["--compare", sa, sb]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    std::fs::write(b.join("report.html"), "other\n").unwrap();
    let out = run(&d, &bin, &d.join("none.conf"), &["--compare", sa, sb]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAILED: report.html differs"), "{stdout}");
    assert!(
        !d.join("seen.conf").exists(),
        "--compare went on to the cluster"
    );
}
