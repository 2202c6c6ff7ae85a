//! `hextris`: the tool. Its subcommands live in [`hextris::cli`].

fn main() -> std::process::ExitCode {
    hextris::cli::main()
}
