//! The `strata` binary: everything lives in the library; this only hands over the exit code.
//! (The system allocator: since values are a few large blocks rather than millions of small
//! ones, mimalloc no longer ran faster and held more memory; docs/PERF.md, "Allocator".)

fn main() -> std::process::ExitCode {
    strata::cli::main()
}
