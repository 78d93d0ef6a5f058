//! With `STRATA_RECORD=FILE`, each test target appends the strata command lines it runs (the
//! working directory, then the arguments, as one JSON array per line) to FILE, for
//! `scripts/same-output.py` to replay with two binaries.

/// Records one command line run in `dir` (nothing without `STRATA_RECORD`).
pub(crate) fn record(dir: &std::path::Path, args: &[&str]) {
    if let Some(file) = std::env::var_os("STRATA_RECORD") {
        let mut line = vec![dir.display().to_string()];
        line.extend(args.iter().map(|a| a.to_string()));
        let text = serde_json::to_string(&line).expect("JSON of strings") + "\n";
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .expect("STRATA_RECORD file");
        std::io::Write::write_all(&mut f, text.as_bytes()).expect("write STRATA_RECORD");
    }
}
