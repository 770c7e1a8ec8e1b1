//! An S3-compatible server that checks signatures: `s3s-fs`'s file system
//! behind `s3s`'s service, in the test's own process on a free loopback
//! port, keeping its objects in a folder of its own; stopped and its folder
//! deleted when dropped. A library here rather than a program installed
//! beside the project: it shares the workspace's compiled `hyper` and
//! `tokio` instead of a second build of them.

use std::path::PathBuf;

use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto::Builder;
use s3s::auth::SimpleAuth;
use s3s::service::S3ServiceBuilder;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The bucket every test's uploads go to.
pub const BUCKET: &str = "media";

/// A running S3 server.
pub struct S3Server {
    server: JoinHandle<()>,
    /// The folder its objects are kept in (`{root}/{bucket}/…`).
    pub root: PathBuf,
    /// `http://127.0.0.1:<port>`.
    pub endpoint: String,
    /// Its access key and secret.
    pub credentials: (String, String),
}

impl S3Server {
    /// Start one with the bucket [`BUCKET`], listening when this returns.
    pub async fn start() -> S3Server {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("listen on a loopback port");
        let address = listener.local_addr().expect("the listener's address");
        let root = std::env::temp_dir().join(format!(
            "media-gen-s3-{}-{}",
            std::process::id(),
            address.port()
        ));
        std::fs::create_dir_all(root.join(BUCKET)).expect("make the bucket's folder");
        let credentials = (
            "media-gen-test".to_owned(),
            "a-secret-of-the-tests".to_owned(),
        );
        let files = s3s_fs::FileSystem::new(&root).expect("an S3 store in the folder");
        let mut service = S3ServiceBuilder::new(files);
        service.set_auth(SimpleAuth::from_single(
            credentials.0.clone(),
            credentials.1.clone(),
        ));
        let service = service.build();
        let server = tokio::spawn(async move {
            let connections = Builder::new(TokioExecutor::new());
            while let Ok((socket, _)) = listener.accept().await {
                let connection = connections
                    .serve_connection(TokioIo::new(socket), service.clone())
                    .into_owned();
                tokio::spawn(connection);
            }
        });
        S3Server {
            server,
            root,
            endpoint: format!("http://{address}"),
            credentials,
        }
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

    /// The same settings as the gateway binary's environment (`AWS_*`),
    /// for a gateway started as a process.
    pub fn environment(&self) -> [(&'static str, &str); 4] {
        [
            ("AWS_ENDPOINT_URL", self.endpoint.as_str()),
            ("AWS_ACCESS_KEY_ID", self.credentials.0.as_str()),
            ("AWS_SECRET_ACCESS_KEY", self.credentials.1.as_str()),
            ("AWS_REGION", "us-east-1"),
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
        self.server.abort();
        let _ = std::fs::remove_dir_all(&self.root);
    }
}
