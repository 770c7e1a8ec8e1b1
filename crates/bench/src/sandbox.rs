//! The workspace's servers in their own processes (release builds next to
//! the benchmark), so their memory can be read from /proc: the sandbox,
//! and the gateway in front of it.

use std::path::PathBuf;

/// The token a sandbox started without `--token` accepts.
pub const DEMO_TOKEN: &str = "demo-token";

/// A running server process (release build); killed when dropped.
pub struct Server(media_gen_launch::Server);

/// The sandbox is the server most parts start.
pub type Sandbox = Server;

impl std::ops::Deref for Server {
    type Target = media_gen_launch::Server;
    fn deref(&self) -> &media_gen_launch::Server {
        &self.0
    }
}

pub fn binary(name: &str) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let path = exe.with_file_name(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} is missing: build it with `cargo build --release -p {name}`",
            path.display()
        ))
    }
}

impl Server {
    /// Start the release build of `name` with `args` and `env`; wait until
    /// it listens (a few milliseconds, so blocking here costs nothing).
    pub async fn launch(name: &str, args: &[&str], env: &[(&str, &str)]) -> Result<Server, String> {
        media_gen_launch::Server::launch(&binary(name)?, args, env)
            .map(Server)
            .map_err(|error| error.to_string())
    }

    /// Start the release sandbox with `args` on a free port; wait until it listens.
    pub async fn start(args: &[&str]) -> Result<Server, String> {
        let mut all = vec!["--port", "0"];
        all.extend_from_slice(args);
        Server::launch("media-gen-sandbox", &all, &[]).await
    }

    /// Start the release gateway on a free port in front of `upstream` (a
    /// sandbox started without `--token`), with budgets out of the way of a
    /// load test, on one thread.
    pub async fn gateway(upstream: &str) -> Result<Server, String> {
        let args = [
            "--listen",
            "127.0.0.1:0",
            "--upstream",
            upstream,
            "--requests-per-minute",
            "4000000000",
            "--tasks-per-hour",
            "4000000000",
            "--max-connections",
            "4096",
            // One thread, as nginx gets one worker: on two cores shared with
            // the load generator, the comparison is one core each.
            "--worker-threads",
            "1",
        ];
        Server::launch(
            "media-gen-gateway",
            &args,
            &[("MEDIA_GEN_TOKEN", DEMO_TOKEN)],
        )
        .await
    }

    /// Start the release gateway with `--access keys`, its keys in
    /// `data_dir`, no upstream, budgets out of the way, on one thread.
    pub async fn keys_gateway(data_dir: &std::path::Path) -> Result<Server, String> {
        let data_dir = data_dir.to_string_lossy();
        let args = [
            "--listen",
            "127.0.0.1:0",
            "--access",
            "keys",
            "--data-dir",
            &data_dir,
            "--requests-per-minute",
            "4000000000",
            "--worker-threads",
            "1",
        ];
        Server::launch("media-gen-gateway", &args, &[]).await
    }

    /// Start the release gateway in front of `upstream` relaying its
    /// callbacks: `--public-url` is its own loopback address (a port found
    /// free just before), budgets out of the way.
    pub async fn relaying_gateway(upstream: &str) -> Result<Server, String> {
        Server::relaying_gateway_with(upstream, &[]).await
    }

    /// [`Server::relaying_gateway`] with `more` flags.
    pub async fn relaying_gateway_with(upstream: &str, more: &[&str]) -> Result<Server, String> {
        Server::relaying_gateway_env(upstream, more, &[]).await
    }

    /// [`Server::relaying_gateway_with`] with `env` set too.
    pub async fn relaying_gateway_env(
        upstream: &str,
        more: &[&str],
        env: &[(&str, &str)],
    ) -> Result<Server, String> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        let listen = format!("127.0.0.1:{port}");
        let public_url = format!("http://{listen}");
        let args = [
            "--listen",
            &listen,
            "--upstream",
            upstream,
            "--public-url",
            &public_url,
            "--requests-per-minute",
            "4000000000",
            "--tasks-per-hour",
            "4000000000",
            // Room for the thousands of event streams `relay` holds: sized
            // as for a host that serves that many (the streams' own cap is
            // its default, three quarters of this). The caps on one visitor
            // stay the defaults: the benchmark's streams come from many
            // loopback addresses (`loopback.rs`), as many visitors' would.
            "--max-connections",
            "20000",
        ];
        let mut all = args.to_vec();
        all.extend_from_slice(more);
        let mut all_env = vec![("MEDIA_GEN_TOKEN", DEMO_TOKEN)];
        all_env.extend_from_slice(env);
        let server = Server::launch("media-gen-gateway", &all, &all_env).await?;
        // With `--redis`, its connection is made in the background: the
        // benchmark starts once the gateway says it is ready.
        if more.contains(&"--redis")
            && !media_gen_e2e::ready_within(&server.base_url, std::time::Duration::from_secs(20))
                .await
        {
            return Err("the gateway did not become ready (redis)".to_owned());
        }
        Ok(server)
    }

    /// One counter of `/sandbox/stats` (`status_reads`, `tasks_created`, ...).
    pub async fn counter(&self, client: &reqwest::Client, name: &str) -> Result<u64, String> {
        counter(client, &self.base_url, name).await
    }
}

/// `GET url` with the demo token; the JSON answer.
pub async fn get_json(client: &reqwest::Client, url: &str) -> Result<serde_json::Value, String> {
    json_answer(client.get(url).bearer_auth(DEMO_TOKEN)).await
}

/// `POST url` with the demo token and the JSON `body`; the JSON answer.
pub async fn post_json(
    client: &reqwest::Client,
    url: &str,
    body: &serde_json::Value,
) -> Result<serde_json::Value, String> {
    json_answer(client.post(url).bearer_auth(DEMO_TOKEN).json(body)).await
}

/// Send `request`; its answer as JSON.
async fn json_answer(request: reqwest::RequestBuilder) -> Result<serde_json::Value, String> {
    request
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())
}

/// One counter of the sandbox at `base_url`'s `/sandbox/stats`.
pub async fn counter(client: &reqwest::Client, base_url: &str, name: &str) -> Result<u64, String> {
    let stats: serde_json::Value = client
        .get(format!("{base_url}/sandbox/stats"))
        .send()
        .await
        .map_err(|e| e.to_string())?
        .json()
        .await
        .map_err(|e| e.to_string())?;
    Ok(stats["data"][name].as_u64().unwrap_or_default())
}
