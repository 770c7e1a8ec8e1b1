//! Starts a sandbox on an ephemeral loopback port for one test.

use media_gen_sandbox::Config;
use tokio::net::TcpListener;

/// A running sandbox; it stops when the test's runtime ends.
pub struct Running {
    /// `http://127.0.0.1:<port>`, no trailing slash.
    pub base_url: String,
}

/// Start a sandbox with `config` (its host and port are ignored: loopback, any free port).
pub async fn start(config: Config) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind a free loopback port");
    let base_url = format!("http://{}", listener.local_addr().expect("bound address"));
    tokio::spawn(async move { media_gen_sandbox::serve(listener, &config).await });
    Running { base_url }
}
