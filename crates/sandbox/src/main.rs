//! `media-gen-sandbox`: run the local stand-in of the service.

use std::io::IsTerminal;

use clap::Parser;
use media_gen_sandbox::Config;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        // Colours only on a terminal, so logs piped to a file stay plain text.
        .with_ansi(std::io::stdout().is_terminal())
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "media_gen_sandbox=info,tower_http=info".into()),
        )
        .init();
    match media_gen_sandbox::run(Config::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("media-gen-sandbox: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
