//! The `strata` binary: everything lives in the library; this only hands over the exit code.
//! It runs on the system allocator: for strata's tree of few, larger blocks it holds less memory
//! than mimalloc did (the W1 memory target needs it) at ~5 % of time (docs/PERF.md, "Allocator").

fn main() -> std::process::ExitCode {
    strata::cli::main()
}
