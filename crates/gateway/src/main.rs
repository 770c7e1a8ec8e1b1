//! `media-gen-gateway`: run the gateway until SIGTERM or Ctrl+C.

use std::process::ExitCode;

use clap::Parser;
use media_gen_gateway::config::{LogFormat, TOKEN_VAR};
use media_gen_gateway::{Config, Settings};

// A proxy allocates and frees small buffers for every request; mimalloc's
// per-thread free lists do that in a fraction of glibc's time.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "media_gen_gateway=info,tower_http=info".into());
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false);
    match format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().init(),
    }
}

async fn shutdown_signal() {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing requests in flight");
}

/// `keys add | list | revoke`: the key alone on standard output for `add`.
fn keys(action: &media_gen_gateway::access::cli::KeysAction, config: &Config) -> ExitCode {
    use media_gen_gateway::access::cli::{run, KeysAt};
    let at = match (&config.redis, &config.data_dir) {
        (Some(url), _) => KeysAt::Redis(url.clone()),
        (None, Some(dir)) => KeysAt::Dir(dir.clone()),
        (None, None) => {
            eprintln!(
                "media-gen-gateway keys: --data-dir (MEDIA_GEN_DATA_DIR) or --redis \
                 (MEDIA_GEN_REDIS) names where the keys are kept"
            );
            return ExitCode::FAILURE;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("media-gen-gateway keys: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(action, &at, config.tasks_per_day)) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("media-gen-gateway keys: {error}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let config = Config::parse();
    if let Some(media_gen_gateway::config::Command::Keys { action }) = &config.command {
        return keys(action, &config);
    }
    // One thread: accepting, answering and reading the service all on it,
    // with no hand-over between threads on the way.
    let mut runtime = match config.worker_threads {
        Some(threads) if threads.get() == 1 => tokio::runtime::Builder::new_current_thread(),
        Some(threads) => {
            let mut runtime = tokio::runtime::Builder::new_multi_thread();
            runtime.worker_threads(threads.get());
            runtime
        }
        None => tokio::runtime::Builder::new_multi_thread(),
    };
    match runtime.enable_all().build() {
        Ok(runtime) => runtime.block_on(run(config)),
        Err(error) => {
            eprintln!("media-gen-gateway: cannot start its threads: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> ExitCode {
    init_logs(config.log_format);
    let settings = match Settings::from_config(&config, std::env::var(TOKEN_VAR).ok()) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("media-gen-gateway: {error}");
            return ExitCode::FAILURE;
        }
    };
    let listener = match tokio::net::TcpListener::bind(config.listen).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!(
                "media-gen-gateway: cannot listen on {}: {error}",
                config.listen
            );
            return ExitCode::FAILURE;
        }
    };
    let address = listener
        .local_addr()
        .map_or(config.listen, |address| address);
    let upstream = settings
        .upstream
        .as_ref()
        .map_or_else(|| "none".to_owned(), |upstream| upstream.shown());
    // The first line says where it listens; launchers read it.
    println!("media-gen-gateway listening on http://{address} (upstream: {upstream})");
    match media_gen_gateway::serve(listener, &settings, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("media-gen-gateway: {error}");
            ExitCode::FAILURE
        }
    }
}
