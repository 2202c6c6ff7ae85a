//! `play_icfp2015`: the contest's command-line contract; see [`hextris::cli::contest`].

fn main() -> std::process::ExitCode {
    hextris::cli::contest::main()
}
