//! Start-up flags (`media-gen-sandbox --help` lists them all).

use std::net::IpAddr;
use std::path::PathBuf;

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

    /// Folder served at `/` (the built app); paths without a file extension
    /// fall back to its `index.html` so the app's own routes open directly.
    #[arg(long = "static", value_name = "DIR")]
    pub static_dir: Option<PathBuf>,

    /// Do not hand the first token to the app at `GET /sandbox/demo`.
    ///
    /// By default the app served by the sandbox picks the token up from there,
    /// so it works with no set-up. The sandbox's tokens guard nothing real.
    #[arg(long)]
    pub private: bool,
}

impl Config {
    /// A configuration for tests: loopback, a free port, the demo token, no static folder.
    pub fn for_tests() -> Self {
        Self {
            host: IpAddr::from([127, 0, 0, 1]),
            port: 0,
            tokens: vec![DEMO_TOKEN.to_owned()],
            static_dir: None,
            private: false,
        }
    }
}
