//! `media-gen-gateway`: run the gateway until SIGTERM or Ctrl+C.

use std::process::ExitCode;

use media_gen_gateway::config::{Command, LogFormat, TOKEN_VAR};
use media_gen_gateway::config_file::{load, LoadError, Loaded};
use media_gen_gateway::library::LibraryAt;
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

/// A runtime for one of the owner's commands.
fn command_runtime(name: &str) -> Option<tokio::runtime::Runtime> {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => Some(runtime),
        Err(error) => {
            eprintln!("media-gen-gateway {name}: {error}");
            None
        }
    }
}

/// Where the owner's commands find the library, or why the flag is wrong.
fn library_at(config: &Config) -> Result<Option<LibraryAt>, String> {
    Ok(config
        .library_flag()
        .map_err(|error| error.to_string())?
        .resolve(true, config.data_dir.as_deref(), config.redis.is_some()))
}

/// `keys add | list | revoke`: the key alone on standard output for `add`.
fn keys(action: &media_gen_gateway::keys_cli::KeysAction, config: &Config) -> ExitCode {
    use media_gen_gateway::keys_cli::{run, KeysAt};
    let at = match library_at(config) {
        Ok(library) => KeysAt {
            library,
            data_dir: config.data_dir.clone(),
            redis: config.redis.clone(),
            uploads: (config.upload_dir.is_some() || config.upload_store.is_some())
                .then(|| (config.upload_dir.clone(), config.upload_store.clone())),
        },
        Err(error) => {
            eprintln!("media-gen-gateway keys: {error}");
            return ExitCode::FAILURE;
        }
    };
    if at.is_nowhere() {
        eprintln!(
            "media-gen-gateway keys: --data-dir (MEDIA_GEN_DATA_DIR), --library \
             (MEDIA_GEN_LIBRARY) or --redis (MEDIA_GEN_REDIS) names where the keys are kept"
        );
        return ExitCode::FAILURE;
    }
    let Some(runtime) = command_runtime("keys") else {
        return ExitCode::FAILURE;
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

/// `usage` and `library export`: what they print, or why they failed.
fn library_command(config: &Config, name: &str) -> ExitCode {
    use media_gen_gateway::config::Command;
    use media_gen_gateway::library::cli;
    let Some(runtime) = command_runtime(name) else {
        return ExitCode::FAILURE;
    };
    let done = library_at(config).and_then(|at| {
        runtime.block_on(async {
            match &config.command {
                Some(Command::Usage(args)) => cli::usage(args, at.as_ref())
                    .await
                    .map(|text| print!("{text}")),
                Some(Command::Library { action }) => {
                    cli::library(action, at.as_ref(), &mut std::io::stdout().lock()).await
                }
                _ => Ok(()),
            }
        })
    });
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("media-gen-gateway {name}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `check`: every part's line; fails when one does.
fn check(loaded: &Loaded) -> ExitCode {
    let Some(runtime) = command_runtime("check") else {
        return ExitCode::FAILURE;
    };
    let lines = runtime.block_on(media_gen_gateway::check::run(loaded, &|var| {
        std::env::var(var).ok()
    }));
    let (report, passed) = media_gen_gateway::check::report(&lines);
    print!("{report}");
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn main() -> ExitCode {
    let loaded = match load(std::env::args_os()) {
        Ok(loaded) => loaded,
        Err(LoadError::Flags(error)) => error.exit(),
        Err(LoadError::File(error)) => {
            eprintln!("media-gen-gateway: {error}");
            return ExitCode::from(2);
        }
    };
    let config = loaded.config.clone();
    match &config.command {
        Some(Command::Keys { action }) => return keys(action, &config),
        Some(Command::Usage(_)) => return library_command(&config, "usage"),
        Some(Command::Library { .. }) => return library_command(&config, "library"),
        Some(Command::Config) => {
            print!(
                "{}",
                media_gen_gateway::config_shown::shown(&loaded, |var| std::env::var(var).ok())
            );
            return ExitCode::SUCCESS;
        }
        Some(Command::Check) => return check(&loaded),
        None => {}
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
