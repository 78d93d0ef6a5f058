//! The `strata` binary: everything lives in the library; this only hands over the exit code
//! (and picks the allocator: mimalloc, measured in docs/PERF.md).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    strata::cli::main()
}
