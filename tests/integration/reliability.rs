//! Reliability (docs/RELIABILITY.md): fuzz findings kept as regression tests, resource limits
//! that stay bounded in time and memory, and output that is never half-written (`--out` through
//! a temporary file and a rename, a full disk or a closed pipe failing cleanly).

use crate::util::{command, strata, Run};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("strata")
}

fn run(cmd: &mut Command) -> Run {
    let out = cmd.output().expect("run");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `strata ARGS` in a shell with `ulimit` settings first (`-v` KiB of address space, `-f`
/// blocks of file size), so a test can prove memory stays bounded or make a write fail.
fn limited(ulimit: &str, args: &[&str], dir: &Path) -> Run {
    let mut script = format!("{ulimit}; exec \"$0\"");
    for i in 1..=args.len() {
        script.push_str(&format!(" \"${{{i}}}\""));
    }
    run(Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin())
        .args(args)
        .current_dir(dir))
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---- fuzz findings -------------------------------------------------------------------------

/// fuzz json_load: a `"\u0080"` string was written raw by the JSON writer, and strata (like
/// any YAML reader) refuses a raw C1 control character, so its own output did not load.
#[test]
fn json_output_escapes_characters_yaml_readers_refuse() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("in.json");
    std::fs::write(&input, r#"{"a": "x\u0080y\u007fz\uffff", "\u0085k": 1}"#).expect("write");
    let out = dir.path().join("out.json");
    let path = |p: &Path| p.to_str().expect("utf-8 path").to_string();
    strata(&[
        "merge",
        "--output",
        "json",
        "-o",
        &path(&out),
        &path(&input),
    ])
    .ok();
    let text = std::fs::read_to_string(&out).expect("output");
    assert!(text.contains(r"x\u0080y\u007fz\uffff"), "{text}");
    // The output loads again, as JSON and as YAML, to the same values.
    let again = strata(&["merge", "--output", "json", &path(&out)]);
    assert_eq!(again.ok(), text);
    let yaml = dir.path().join("out.yaml");
    std::fs::copy(&out, &yaml).expect("copy");
    assert_eq!(
        strata(&["merge", "--output", "json", &path(&yaml)]).ok(),
        text
    );
}

/// Found by review while fuzzing: an anchor aliased inside another anchor nests as deep as
/// both, so a chain of ninety 240-deep anchors (44 KB) built a 21 600-deep tree past the
/// nesting limit and overflowed the stack. The limit now counts nesting through aliases.
#[test]
fn nesting_through_aliases_counts_against_the_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let chain = |depth: usize, anchors: usize| -> String {
        (0..anchors)
            .map(|k| {
                let inner = if k == 0 {
                    "x".to_string()
                } else {
                    format!("*a{}", k - 1)
                };
                format!(
                    "a{k}: &a{k} {}{inner}{}\n",
                    "[".repeat(depth),
                    "]".repeat(depth)
                )
            })
            .collect()
    };
    std::fs::write(dir.path().join("deep.yaml"), chain(240, 90)).expect("write");
    let start = Instant::now();
    let r = limited(MEMORY_CAP, &["merge", "deep.yaml"], dir.path());
    let err = r.fails(1);
    assert!(
        err.contains("nesting deeper than 256 levels (through aliases)"),
        "{err}"
    );
    assert!(err.contains("deep.yaml:2:"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    // Within the limit (2 x 120 levels) the same construction is fine.
    std::fs::write(dir.path().join("ok.yaml"), chain(120, 2)).expect("write");
    run(command().arg("merge").arg(dir.path().join("ok.yaml"))).ok();
}

/// The same through `#cloud-config-jsonp`: each patch added a 240-deep value at the bottom of
/// the one before, part after part, until rendering overflowed the stack. A patch operation
/// that would nest the config past the limit is now a limit error.
#[test]
fn json_patches_cannot_nest_past_the_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let deep = |d: usize| format!("{}{}", "[".repeat(d), "]".repeat(d));
    std::fs::write(
        dir.path().join("p0.yaml"),
        format!("#cloud-config\na: {}\n", deep(100)),
    )
    .expect("write");
    let patch = |depth: usize, value: usize| {
        format!(
            "#cloud-config-jsonp\n[{{\"op\": \"add\", \"path\": \"/a{}/-\", \"value\": {}}}]\n",
            "/0".repeat(depth - 1),
            deep(value)
        )
    };
    // 100 + 100 levels: fine.
    std::fs::write(dir.path().join("p1.txt"), patch(100, 100)).expect("write");
    let out = run(command()
        .args(["cloud-init", "--output", "json", "p0.yaml", "p1.txt"])
        .current_dir(dir.path()))
    .ok()
    .to_string();
    assert_eq!(out.matches('[').count(), 200, "{out}");
    // Another 100 below those: past 256.
    std::fs::write(dir.path().join("p2.txt"), patch(200, 100)).expect("write");
    let r = run(command()
        .args(["cloud-init", "p0.yaml", "p1.txt", "p2.txt"])
        .current_dir(dir.path()));
    let err = r.fails(1);
    assert!(
        err.contains("nests the config 301 levels deep, more than the limit of 256"),
        "{err}"
    );
    assert!(err.contains("p2.txt:2:2"), "{err}");
}

// ---- limits: clear errors, bounded time and memory ------------------------------------------

/// Address space for a limited run: far below what an unbounded expansion would need.
const MEMORY_CAP: &str = "ulimit -v 400000";

#[test]
fn billion_laughs_fails_in_milliseconds_within_a_memory_cap() {
    let start = Instant::now();
    let r = limited(
        MEMORY_CAP,
        &["merge", "bad/billion-laughs.yaml"],
        &crate::util::fixtures(),
    );
    let err = r.fails(1);
    assert!(err.contains("alias expansion exceeds"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn deep_nesting_is_a_limit_error_within_a_memory_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("deep.yaml"),
        format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000)),
    )
    .expect("write");
    std::fs::write(
        dir.path().join("deep.json"),
        format!("{}{}", "{\"a\":".repeat(500_000), "}".repeat(500_000)),
    )
    .expect("write");
    for file in ["deep.yaml", "deep.json"] {
        let start = Instant::now();
        let r = limited(MEMORY_CAP, &["merge", file], dir.path());
        let err = r.fails(1);
        assert!(err.contains("nesting deeper than"), "{file}: {err}");
        assert!(err.contains(file), "{err}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
    }
}

#[test]
fn too_many_documents_is_a_limit_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("docs.yaml"), "--- 1\n".repeat(100_001)).expect("write");
    let start = Instant::now();
    let r = limited(MEMORY_CAP, &["merge", "docs.yaml"], dir.path());
    let err = r.fails(1);
    assert!(err.contains("documents"), "{err}");
    assert!(err.contains("docs.yaml:"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}

/// A file larger than `--max-input-size` is refused from its size alone: a 4 GiB (sparse) file
/// fails at once under a memory cap far below its size.
#[test]
fn max_input_size_is_checked_before_reading() {
    let dir = tempfile::tempdir().expect("tempdir");
    let big = std::fs::File::create(dir.path().join("big.yaml")).expect("create");
    big.set_len(4 << 30).expect("sparse file");
    let start = Instant::now();
    let r = limited(
        MEMORY_CAP,
        &["merge", "--max-input-size", "1000", "big.yaml"],
        dir.path(),
    );
    let err = r.fails(1);
    assert!(
        err.contains("big.yaml is 4294967296 bytes, more than the limit of 1000"),
        "{err}"
    );
    assert!(err.contains("--max-input-size"), "{err}");
    // The default limit (512 MiB) applies too.
    let err = limited(MEMORY_CAP, &["cloud-init", "big.yaml"], dir.path())
        .fails(1)
        .to_string();
    assert!(err.contains("more than the limit of 536870912"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// Standard input has no size to look at: reading stops one byte past the limit.
#[test]
fn max_input_size_bounds_stdin() {
    let mut child = command()
        .args(["merge", "--max-input-size", "100000", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    // Far more than the limit; the writer stops when strata has hung up.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let chunk = vec![b'a'; 65536];
        for _ in 0..1024 {
            if stdin.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("<stdin> is more than the limit of 100000"),
        "{err}"
    );
}

#[test]
fn gzip_expansion_is_bounded_by_the_input_limit() {
    use flate2::write::GzEncoder;
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(b"#cloud-config\n").expect("gzip");
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..64 {
        gz.write_all(&chunk).expect("gzip");
    }
    std::fs::write(dir.path().join("bomb.gz"), gz.finish().expect("gzip")).expect("write");
    let start = Instant::now();
    let r = limited(
        MEMORY_CAP,
        &["cloud-init", "--max-input-size", "1000000", "bomb.gz"],
        dir.path(),
    );
    let err = r.fails(1);
    assert!(err.contains("expands to more than 1000000 bytes"), "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

/// Found by review: each warning's column was counted from the start of its line, so 400 000
/// duplicate keys on one 2.4 MB line took minutes to report (quadratic). Columns far into a
/// line now come from checkpoints; the whole run is linear.
#[test]
fn many_warnings_on_one_long_line_take_linear_time() {
    // 400 000 warnings, each with its line shown: linear is seconds (release: 2.7 s; this
    // unoptimised test binary ~18 s), quadratic in the line's 2.4 MB would be hours.
    let dir = tempfile::tempdir().expect("tempdir");
    let n = 400_000;
    std::fs::write(
        dir.path().join("dups.yaml"),
        format!("{{{}}}\n", vec!["a: 1"; n].join(", ")),
    )
    .expect("write");
    let start = Instant::now();
    let r = run(command().arg("merge").arg(dir.path().join("dups.yaml")));
    assert_eq!(r.ok(), "a: 1\n");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), n - 1);
    let last = warnings.last().copied().unwrap_or("");
    assert!(
        last.contains(&format!("dups.yaml:1:{}:", 6 * (n - 1) + 2)),
        "{last}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
}

// ---- nothing half-written --------------------------------------------------------------------

const OLD: &str = "old: content\n";

fn out_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("out.yaml"), OLD).expect("write");
    std::fs::write(
        dir.path().join("big.yaml"),
        (0..20_000)
            .map(|i| format!("key{i}: value number {i}\n"))
            .collect::<String>(),
    )
    .expect("write");
    dir
}

/// A write that fails part-way (the file-size limit hit after 8 KiB: EFBIG, as on a full
/// disk) leaves the old file as it was, removes the temporary file, and exits 1.
#[test]
fn a_write_failing_midway_keeps_the_old_file() {
    let dir = out_dir();
    let r = limited(
        "ulimit -f 16; trap '' XFSZ",
        &["merge", "big.yaml", "--out", "out.yaml"],
        dir.path(),
    );
    let err = r.fails(1);
    assert!(err.contains("cannot write out.yaml"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.yaml")).expect("read"),
        OLD
    );
    assert_eq!(files_in(dir.path()), ["big.yaml", "out.yaml"]);
}

/// The process killed in the middle of writing (SIGXFSZ's default action) still leaves the
/// old file whole: the new content only ever went to the temporary file.
#[test]
fn a_process_killed_midway_keeps_the_old_file() {
    let dir = out_dir();
    let r = limited(
        "ulimit -f 16",
        &["merge", "big.yaml", "--out", "out.yaml"],
        dir.path(),
    );
    assert_ne!(r.code, 0, "the write should have been cut off");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out.yaml")).expect("read"),
        OLD
    );
}

/// The rename failing (the target is a directory) leaves it alone and no temporary file.
#[test]
fn a_failed_rename_leaves_the_target_and_no_temp_file() {
    let dir = out_dir();
    std::fs::create_dir(dir.path().join("taken")).expect("mkdir");
    std::fs::write(dir.path().join("taken/keep"), "x").expect("write");
    let err = run(command().args([
        "merge",
        "cloud-init/runcmd/01-base.yaml",
        "--out",
        dir.path().join("taken").to_str().expect("path"),
    ]))
    .fails(1)
    .to_string();
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(files_in(dir.path()), ["big.yaml", "out.yaml", "taken"]);
    assert_eq!(files_in(&dir.path().join("taken")), ["keep"]);
}

#[test]
fn a_successful_out_replaces_the_file_and_leaves_no_temp_file() {
    let dir = out_dir();
    run(command().args([
        "merge",
        "cloud-init/runcmd/01-base.yaml",
        "--out",
        dir.path().join("out.yaml").to_str().expect("path"),
    ]))
    .ok();
    let text = std::fs::read_to_string(dir.path().join("out.yaml")).expect("read");
    assert!(text.contains("runcmd"), "{text}");
    assert_eq!(files_in(dir.path()), ["big.yaml", "out.yaml"]);
}

#[test]
fn a_full_disk_on_stdout_fails_cleanly() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let r = run(command()
        .args(["merge", "cloud-init/runcmd/01-base.yaml"])
        .stdout(full));
    let err = r.fails(1);
    assert!(err.contains("cannot write <stdout>"), "{err}");
}

/// `strata ... | head -c 10`: the reader goes away; strata stops quietly with exit 0.
#[test]
fn a_closed_pipe_exits_quietly() {
    let dir = out_dir();
    let mut child = Command::new(bin())
        .args(["merge", "big.yaml"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).expect("read");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.is_empty(), "{err}");
}

/// Issue 16, "files written with care": `-o -` is stdout; `-o FILE` keeps an existing file's
/// permissions; a symlink is written through (the link stays a link).
#[test]
fn out_keeps_permissions_writes_through_links_and_dash_is_stdout() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("in.yaml");
    std::fs::write(&input, "secret: s3cr3t\n").expect("write");
    let input = input.display().to_string();
    let r = run(Command::new(bin()).args(["merge", "-o", "-", &input]));
    assert_eq!((r.code, r.stdout.as_str()), (0, "secret: s3cr3t\n"));
    assert!(!dir.path().join("-").exists(), "'-' is not a file name");

    let target = dir.path().join("user-data.yaml");
    std::fs::write(&target, "old\n").expect("write");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let link = dir.path().join("current.yaml");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    let r = run(Command::new(bin()).args(["merge", "-o", &link.display().to_string(), &input]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(std::fs::symlink_metadata(&link)
        .expect("link")
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(&target).expect("read"),
        "secret: s3cr3t\n"
    );
    let mode = std::fs::metadata(&target)
        .expect("meta")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600, "an existing file keeps its permissions");

    let dangling = dir.path().join("dangling.yaml");
    std::os::unix::fs::symlink(dir.path().join("nowhere/x.yaml"), &dangling).expect("symlink");
    let r = run(Command::new(bin()).args(["merge", "-o", &dangling.display().to_string(), &input]));
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("symbolic link whose target does not exist"),
        "{}",
        r.stderr
    );
}

/// UTF-16 with a byte-order mark is read (PyYAML reads it); UTF-32 is refused by name, not
/// called a binary file; standard input given twice is a usage error naming the second `-`.
#[test]
fn utf16_is_read_utf32_refused_and_stdin_read_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = "a: 1\nb: \"é\"\n";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let path = dir.path().join("u16.yaml");
    std::fs::write(&path, &utf16).expect("write");
    let r = run(Command::new(bin()).args(["merge", &path.display().to_string()]));
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "a: 1\nb: \"é\"\n"),
        "{}",
        r.stderr
    );
    let mut utf16be = vec![0xFE, 0xFF];
    utf16be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    std::fs::write(&path, &utf16be).expect("write");
    let r = run(Command::new(bin()).args(["merge", &path.display().to_string()]));
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "a: 1\nb: \"é\"\n"),
        "{}",
        r.stderr
    );

    let path = dir.path().join("u32.yaml");
    std::fs::write(&path, [0xFF, 0xFE, 0, 0, b'a', 0, 0, 0]).expect("write");
    let r = run(Command::new(bin()).args(["merge", &path.display().to_string()]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("is UTF-32 text"), "{}", r.stderr);

    let r = strata(&["merge", "-", "merge/base.yaml", "-"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("input 3 is the second one"),
        "{}",
        r.stderr
    );
}

// ---- -o onto what is not a regular file (issue 35) -------------------------------------------

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let probe = dir.path().join("probe");
    std::fs::write(&probe, "").expect("write");
    std::fs::metadata(&probe).expect("meta").uid() == 0
}

fn layer(dir: &Path) -> String {
    let input = dir.join("in.yaml");
    std::fs::write(&input, "a: 1\n").expect("write");
    input.display().to_string()
}

/// A FIFO is opened and written in place: the reader gets the output and the FIFO stays one.
/// The reader opens it before strata runs, without blocking (so strata's open finds a reader
/// at once, and a strata that replaced the FIFO would leave the reader with nothing, not hang).
#[test]
fn out_onto_a_fifo_writes_into_it() {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    const O_NONBLOCK: i32 = 0o4000; // Linux
    let dir = tempfile::tempdir().expect("tempdir");
    let input = layer(dir.path());
    let fifo = dir.path().join("pipe");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(&fifo)
        .expect("open the FIFO for reading");
    let r = run(Command::new(bin()).args(["merge", &input, "-o", &fifo.display().to_string()]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut got = String::new();
    let _ = reader.read_to_string(&mut got);
    assert_eq!(got, "a: 1\n");
    let kind = std::fs::symlink_metadata(&fifo).expect("meta").file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");
    assert_eq!(files_in(dir.path()), ["in.yaml", "pipe"]);
}

/// Device nodes made with mknod in a temporary folder (never the system's /dev; root only):
/// a copy of /dev/null takes the output and stays a device, a copy of /dev/full fails with
/// the device's error and stays a device.
#[test]
fn out_onto_a_device_writes_into_it() {
    use std::os::unix::fs::FileTypeExt;
    if !is_root() {
        eprintln!("skipped: making device nodes needs root");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let input = layer(dir.path());
    let null = dir.path().join("null");
    let full = dir.path().join("full");
    for (path, minor) in [(&null, "3"), (&full, "7")] {
        let made = Command::new("mknod")
            .arg(path)
            .args(["c", "1", minor])
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mknod failed");
            return;
        }
    }
    if std::fs::OpenOptions::new().write(true).open(&null).is_err() {
        eprintln!("skipped: device nodes cannot be opened here (a nodev mount)");
        return;
    }
    let r = run(Command::new(bin()).args(["merge", &input, "-o", &null.display().to_string()]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let err = run(Command::new(bin()).args(["merge", &input, "-o", &full.display().to_string()]));
    assert_eq!(err.code, 1, "{}", err.stderr);
    assert!(
        err.stderr.contains("cannot write") && err.stderr.contains("No space left"),
        "{}",
        err.stderr
    );
    for dev in [&null, &full] {
        let kind = std::fs::symlink_metadata(dev).expect("meta").file_type();
        assert!(
            kind.is_char_device(),
            "{} was replaced: {kind:?}",
            dev.display()
        );
    }
    assert_eq!(files_in(dir.path()), ["full", "in.yaml", "null"]);
}

/// `/dev/stdout` and `/proc/self/fd/1` are standard output: a pipe, or a file that the shell
/// opened (appended to, not replaced, so output before strata's stays).
#[test]
fn out_onto_stdout_by_name_is_stdout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = layer(dir.path());
    for name in ["/dev/stdout", "/proc/self/fd/1", "/dev/fd/1"] {
        if !Path::new(name).exists() {
            eprintln!("skipped {name}: not on this system");
            continue;
        }
        let r = run(Command::new(bin()).args(["merge", &input, "-o", name]));
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "a: 1\n"),
            "{name}: {}",
            r.stderr
        );
    }
    let log = dir.path().join("log.txt");
    std::fs::write(&log, "before\n").expect("write");
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .expect("open");
    let r = run(Command::new(bin())
        .args(["merge", &input, "-o", "/dev/stdout"])
        .stdout(file));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&log).expect("read"),
        "before\na: 1\n"
    );
}

/// A 0444 file is refused, for root too (it was made read-only; root passes every other
/// check): exit 1, the file unchanged, nothing left beside it. A directory and a socket are
/// refused by name.
#[test]
fn out_refuses_a_read_only_file_a_directory_and_a_socket() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let input = layer(dir.path());
    let ro = dir.path().join("ro.yaml");
    std::fs::write(&ro, "old\n").expect("write");
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let r = run(Command::new(bin()).args(["merge", &input, "-o", &ro.display().to_string()]));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("read-only (mode 0444)"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&ro).expect("read"), "old\n");
    let mode = std::fs::metadata(&ro).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o444);

    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).expect("mkdir");
    let r = run(Command::new(bin()).args(["merge", &input, "-o", &sub.display().to_string()]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("it is a directory"), "{}", r.stderr);

    let sock = dir.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).expect("bind");
    let r = run(Command::new(bin()).args(["merge", &input, "-o", &sock.display().to_string()]));
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("it is a socket"), "{}", r.stderr);
    assert_eq!(files_in(dir.path()), ["in.yaml", "ro.yaml", "sock", "sub"]);
}

/// As root, a replaced file keeps another user's ownership and its mode.
#[test]
fn out_keeps_the_owner_of_a_replaced_file() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("skipped: giving a file away needs root");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let input = layer(dir.path());
    let target = dir.path().join("theirs.yaml");
    std::fs::write(&target, "old\n").expect("write");
    std::os::unix::fs::chown(&target, Some(4321), Some(4322)).expect("chown");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let r = run(Command::new(bin()).args(["merge", &input, "-o", &target.display().to_string()]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let meta = std::fs::metadata(&target).expect("meta");
    assert_eq!(
        (meta.uid(), meta.gid(), meta.permissions().mode() & 0o7777),
        (4321, 4322, 0o640)
    );
    assert_eq!(std::fs::read_to_string(&target).expect("read"), "a: 1\n");
}

/// A user who is not root (`nobody`, through `setpriv`; skipped where that is not possible):
/// a file they may not write is refused, and so is someone else's file they may write, whose
/// owner a replacement could not keep. Both stay as they were; nothing is left beside them.
#[test]
fn out_refuses_a_file_the_user_may_not_write() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("skipped: switching to another user needs root");
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let input = layer(dir.path());
    let as_nobody = |target: &Path| {
        run(Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin())
            .args(["merge", &input, "-o", &target.display().to_string()]))
    };
    let probe = as_nobody(&dir.path().join("probe.yaml"));
    if probe.code != 0 {
        eprintln!("skipped: cannot run strata as nobody: {}", probe.stderr);
        return;
    }
    std::fs::remove_file(dir.path().join("probe.yaml")).expect("rm");
    let roots = dir.path().join("roots.yaml");
    std::fs::write(&roots, "old\n").expect("write");
    std::fs::set_permissions(&roots, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let r = as_nobody(&roots);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("Permission denied"), "{}", r.stderr);

    let shared = dir.path().join("shared.yaml");
    std::fs::write(&shared, "old\n").expect("write");
    std::os::unix::fs::chown(&shared, Some(4321), Some(4321)).expect("chown");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    let r = as_nobody(&shared);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("belongs to user 4321"), "{}", r.stderr);
    for f in [&roots, &shared] {
        assert_eq!(std::fs::read_to_string(f).expect("read"), "old\n");
    }
    assert_eq!(std::fs::metadata(&shared).expect("meta").uid(), 4321);
    assert_eq!(
        files_in(dir.path()),
        ["in.yaml", "roots.yaml", "shared.yaml"]
    );
}
