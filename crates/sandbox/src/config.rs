//! Start-up flags (`media-gen-sandbox --help` lists them all).

use media_gen_api::service::{Faults, Timing};
use std::net::IpAddr;

/// The token the sandbox accepts when none is given.
pub const DEMO_TOKEN: &str = "demo-token";

/// How the sandbox is started.
#[derive(Debug, Clone, clap::Parser)]
#[command(
    name = "media-gen-sandbox",
    version,
    about = "A local stand-in of the Media Generation Service"
)]
pub struct Config {
    /// Address to listen on. Loopback by default: the sandbox is not meant to face a network.
    #[arg(long, default_value = "127.0.0.1", env = "MEDIA_GEN_SANDBOX_HOST")]
    pub host: IpAddr,

    /// Port to listen on; 0 picks a free one (the chosen address is printed).
    #[arg(long, default_value_t = 8080, env = "MEDIA_GEN_SANDBOX_PORT")]
    pub port: u16,

    /// Bearer token accepted on `/v1/*`; repeat the flag to accept several.
    #[arg(long = "token", default_value = DEMO_TOKEN)]
    pub tokens: Vec<String>,

    /// Do not print the token at start (a launcher that hands it to the
    /// gateway keeps it out of the terminal).
    #[arg(long)]
    pub private: bool,

    /// Typical time from submit to the end of a task, in milliseconds.
    #[arg(long, default_value_t = 4000)]
    pub task_ms: u64,

    /// How much task times vary either way, 0 to 1 (0.5: half to one and a half times --task-ms).
    #[arg(long, default_value_t = 0.5)]
    pub task_spread: f64,

    /// Tasks held in memory; past this the oldest finished ones are forgotten.
    #[arg(long, default_value_t = 100_000)]
    pub max_tasks: usize,

    /// Browser origin allowed to call the API (CORS), such as
    /// https://app.example.com, or `*` for any; repeat for several. Default: any origin.
    #[arg(long = "allow-origin", value_name = "ORIGIN", value_parser = media_gen_api::validate::parse_origin)]
    pub allowed_origins: Vec<String>,

    /// The address browsers reach this sandbox at, for the URLs of result
    /// files (default: the address it listens on). Never taken from a
    /// request's `Host` header, which a client can set to anything.
    #[arg(long, value_name = "URL", env = "MEDIA_GEN_SANDBOX_PUBLIC_URL", value_parser = media_gen_api::validate::parse_base_url)]
    pub public_url: Option<String>,

    /// Send callbacks to any host. By default only loopback addresses
    /// (localhost, 127.0.0.0/8, ::1) are called, so the sandbox is never an open relay.
    #[arg(long)]
    pub callbacks_to_any_host: bool,

    /// Fetch each image and video a submission names, as the service does,
    /// and fail its tasks when one is missing, too large or not media
    /// (`GET /sandbox/fetched` lists what was fetched, with hashes).
    #[arg(long, env = "MEDIA_GEN_SANDBOX_FETCH_INPUTS")]
    pub fetch_inputs: bool,

    /// With --fetch-inputs, fetch from any address, loopback and private
    /// networks included. Without it only public addresses are fetched, so a
    /// submission cannot make the sandbox reach this machine or its network.
    #[arg(long, env = "MEDIA_GEN_SANDBOX_FETCH_PRIVATE")]
    pub fetch_private: bool,

    /// Remove each task's result files this many seconds after the task
    /// ends: their URLs then answer 404, as the service's do once it stops
    /// keeping them (how long it keeps them is not documented). Without
    /// it, a result is served for as long as its task is held.
    #[arg(long, value_name = "SECONDS", env = "MEDIA_GEN_SANDBOX_MEDIA_TTL")]
    pub media_ttl: Option<u64>,

    /// Wait before the first callback retry, in milliseconds; doubled for the second.
    #[arg(long, default_value_t = 1000)]
    pub callback_retry_ms: u64,

    /// Faults to inject into `/v1/*` answers (changeable at run time via `/sandbox/faults`).
    #[command(flatten)]
    pub faults: Faults,
}

impl Config {
    /// A configuration for tests: loopback, a free port, the demo token, no
    /// tasks of about 100 ms, quick callback retries, no faults.
    pub fn for_tests() -> Self {
        Self {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            tokens: vec![DEMO_TOKEN.to_owned()],
            private: false,
            task_ms: 100,
            task_spread: 0.2,
            max_tasks: 100_000,
            allowed_origins: Vec::new(),
            public_url: None,
            callbacks_to_any_host: false,
            callback_retry_ms: 20,
            fetch_inputs: false,
            fetch_private: false,
            media_ttl: None,
            faults: Faults::default(),
        }
    }

    /// Task timing from the flags.
    pub fn timing(&self) -> Timing {
        Timing {
            typical_ms: self.task_ms,
            spread: self.task_spread,
        }
    }
}
