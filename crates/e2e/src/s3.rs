//! An S3-compatible server that checks signatures: `s3s-fs` (`S3S_FS`,
//! else `s3s-fs` on PATH, installed by `cargo xtask test`) on a free
//! loopback port, keeping its objects in a folder of its own; stopped
//! and its folder deleted when dropped.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tokio::process::{Child, Command};

/// The bucket every test's uploads go to.
pub const BUCKET: &str = "media";

/// A running `s3s-fs`.
pub struct S3Server {
    _process: Child,
    /// The folder its objects are kept in (`{root}/{bucket}/…`).
    pub root: PathBuf,
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
    /// Its access key and secret.
    pub credentials: (String, String),
}

impl S3Server {
    /// Start one with the bucket [`BUCKET`]; waits until it listens.
    pub async fn start() -> S3Server {
        let port = crate::free_port();
        let root = std::env::temp_dir().join(format!("media-gen-s3-{}-{port}", std::process::id()));
        std::fs::create_dir_all(root.join(BUCKET)).expect("make the bucket's folder");
        let credentials = (
            "media-gen-test".to_owned(),
            "a-secret-of-the-tests".to_owned(),
        );
        let program = std::env::var("S3S_FS").unwrap_or_else(|_| "s3s-fs".to_owned());
        let process = Command::new(&program)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--access-key",
                &credentials.0,
                "--secret-key",
                &credentials.1,
            ])
            .arg(&root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start the S3 server `{program}`: {error}"));
        let address = format!("127.0.0.1:{port}");
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(&address).await.is_ok() {
                return S3Server {
                    _process: process,
                    root,
                    endpoint: format!("http://{address}"),
                    credentials,
                };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{program} did not listen on {address}");
    }

    /// The gateway's settings of this storage (`--upload-store`'s
    /// `AWS_*`), `wrong_secret` to sign with a secret it does not know.
    pub fn options(&self, wrong_secret: bool) -> Vec<(String, String)> {
        let secret = if wrong_secret {
            "not-the-secret".to_owned()
        } else {
            self.credentials.1.clone()
        };
        vec![
            ("aws_endpoint_url".to_owned(), self.endpoint.clone()),
            ("aws_access_key_id".to_owned(), self.credentials.0.clone()),
            ("aws_secret_access_key".to_owned(), secret),
            ("aws_region".to_owned(), "us-east-1".to_owned()),
        ]
    }

    /// The files kept under `prefix` in the bucket (their names), its
    /// multipart bookkeeping aside.
    pub fn objects(&self, prefix: &str) -> Vec<String> {
        let dir = self.root.join(BUCKET).join(prefix);
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}
