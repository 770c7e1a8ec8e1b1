//! Chromiums shared between the end-to-end tests of one process. Each test
//! gets a browser context of its own (its own cookies, storage and cache,
//! as a fresh profile's), made and removed through Chromium's DevTools
//! connection: ChromeDriver's page-level passthrough may not make one.

use std::path::Path;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use fantoccini::wd::WindowHandle;
use fantoccini::Client;
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::chromium::Chromium;

/// How long a DevTools call may take.
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The runtime the shared Chromiums' connections live on: each test has a
/// runtime of its own, gone when the test ends, and a connection made on
/// one would die with it.
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("shared-chromium")
            .enable_all()
            .build()
            .expect("start the shared browsers' runtime")
    })
}

/// The shared Chromiums no test is using.
static FREE: Mutex<Vec<Shared>> = Mutex::new(Vec::new());

/// A Chromium kept between tests.
struct Shared {
    chromium: Chromium,
    client: Client,
    devtools: DevTools,
    /// The default context's window, kept open (ChromeDriver ends a
    /// session whose last window closes) and never used by a test.
    home: WindowHandle,
    /// Stops the Chromium when this process ends, however it ends: a
    /// shared one is never dropped.
    _watcher: tokio::process::Child,
}

/// A test's browser context in a shared Chromium; given back, its context
/// removed, when dropped.
pub(crate) struct Lease {
    shared: Option<Shared>,
    context: String,
}

impl Lease {
    /// A new browser context with one window, current for WebDriver, in a
    /// free shared Chromium (one started when none is free).
    pub(crate) async fn take() -> Lease {
        runtime()
            .spawn(async {
                let mut last_error = String::new();
                // A Chromium that cannot open a context (it crashed, its
                // connection broke) is stopped and another one tried.
                for _ in 0..3 {
                    let free = FREE.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    let mut shared = match free {
                        Some(shared) => shared,
                        None => Shared::start().await,
                    };
                    match shared.open_context().await {
                        Ok(context) => {
                            return Lease {
                                shared: Some(shared),
                                context,
                            }
                        }
                        Err(error) => last_error = error,
                    }
                }
                panic!("no browser context in a shared Chromium: {last_error}")
            })
            .await
            .unwrap_or_else(|error| std::panic::resume_unwind(error.into_panic()))
    }

    /// A new window in this lease's browser context (WebDriver's own "new
    /// window" opens one in the default context, which shares nothing with
    /// the test's).
    pub(crate) async fn new_tab(&self) -> WindowHandle {
        let context = self.context.clone();
        let devtools = self.shared().devtools.clone();
        runtime()
            .spawn(async move {
                devtools
                    .open_page(&context, false)
                    .await
                    .unwrap_or_else(|error| panic!("a new tab: {error}"))
            })
            .await
            .unwrap_or_else(|error| std::panic::resume_unwind(error.into_panic()))
    }

    /// The WebDriver client of this lease's Chromium.
    pub(crate) fn client(&self) -> Client {
        self.shared().client.clone()
    }

    /// The folder the shared Chromium keeps its temporary files in.
    pub(crate) fn temporary_dir(&self) -> &Path {
        self.shared().chromium.temporary_dir()
    }

    fn shared(&self) -> &Shared {
        self.shared
            .as_ref()
            .expect("a lease holds its Chromium until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let Some(mut shared) = self.shared.take() else {
            return;
        };
        let context = std::mem::take(&mut self.context);
        let (done, given_back) = std::sync::mpsc::channel();
        runtime().spawn(async move {
            let closed = tokio::time::timeout(CALL_TIMEOUT, shared.close_context(&context)).await;
            // Given back only when its context is gone; otherwise dropped,
            // which stops it.
            match closed {
                Ok(Ok(())) => FREE.lock().unwrap_or_else(|e| e.into_inner()).push(shared),
                Ok(Err(error)) => eprintln!("a shared Chromium is stopped: {error}"),
                Err(_) => eprintln!("a shared Chromium is stopped: its context was not closed within {CALL_TIMEOUT:?}"),
            }
            let _ = done.send(());
        });
        // Back in the pool before the next test asks for one.
        let _ = given_back.recv_timeout(CALL_TIMEOUT + Duration::from_secs(1));
    }
}

impl Shared {
    async fn start() -> Shared {
        let (chromium, client) = Chromium::start().await;
        let watcher = chromium.stop_when_this_process_ends();
        let address = client
            .capabilities()
            .and_then(|capabilities| capabilities.get("goog:chromeOptions"))
            .and_then(|options| options.get("debuggerAddress"))
            .and_then(|address| address.as_str())
            .expect("ChromeDriver names Chromium's DevTools address")
            .to_owned();
        let devtools = DevTools::connect(&address)
            .await
            .unwrap_or_else(|error| panic!("Chromium's DevTools at {address}: {error}"));
        let home = client.window().await.expect("the first window's handle");
        Shared {
            chromium,
            client,
            devtools,
            home,
            _watcher: watcher,
        }
    }

    /// A new browser context with a window of the usual size, made current.
    async fn open_context(&mut self) -> Result<String, String> {
        let made = self
            .devtools
            .call(
                "Target.createBrowserContext",
                serde_json::json!({ "disposeOnDetach": false }),
            )
            .await?;
        let context = made["browserContextId"]
            .as_str()
            .ok_or("no browserContextId")?
            .to_owned();
        let window = self.devtools.open_page(&context, true).await?;
        self.client
            .switch_to_window(window)
            .await
            .map_err(|error| error.to_string())?;
        Ok(context)
    }

    /// Remove `context` with its windows, the default window current again.
    async fn close_context(&mut self, context: &str) -> Result<(), String> {
        self.client
            .switch_to_window(self.home.clone())
            .await
            .map_err(|error| error.to_string())?;
        self.devtools
            .call(
                "Target.disposeBrowserContext",
                serde_json::json!({ "browserContextId": context }),
            )
            .await
            .map(drop)
    }
}

/// Chromium's browser-level DevTools connection, one call at a time.
#[derive(Clone)]
struct DevTools {
    connection: std::sync::Arc<tokio::sync::Mutex<Connection>>,
}

struct Connection {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    last_id: u64,
}

impl DevTools {
    /// Connect to the browser target of the Chromium at `address`
    /// (`host:port`, as ChromeDriver's `debuggerAddress` gives it).
    async fn connect(address: &str) -> Result<DevTools, String> {
        let version: serde_json::Value = reqwest::get(format!("http://{address}/json/version"))
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|error| error.to_string())?
            .json()
            .await
            .map_err(|error| error.to_string())?;
        let url = version["webSocketDebuggerUrl"]
            .as_str()
            .ok_or("no webSocketDebuggerUrl")?;
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|error| error.to_string())?;
        Ok(DevTools {
            connection: std::sync::Arc::new(tokio::sync::Mutex::new(Connection {
                socket,
                last_id: 0,
            })),
        })
    }

    /// A blank page in the browser context `context`, as WebDriver names
    /// windows: a window of the usual size for a context's first page
    /// (`first`), a tab beside it otherwise (Chromium sizes new windows
    /// only).
    async fn open_page(&self, context: &str, first: bool) -> Result<WindowHandle, String> {
        let mut params = serde_json::json!({ "url": "about:blank", "browserContextId": context });
        if first {
            params["width"] = 1280.into();
            params["height"] = 800.into();
        }
        let made = self.call("Target.createTarget", params).await?;
        let target = made["targetId"].as_str().ok_or("no targetId")?.to_owned();
        WindowHandle::try_from(target).map_err(|error| error.to_string())
    }

    /// Call `method` and wait for its answer (no domain is enabled on this
    /// connection, so nothing else arrives on it).
    async fn call(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, String> {
        let mut connection = self.connection.lock().await;
        connection.last_id += 1;
        let id = connection.last_id;
        let request = serde_json::json!({ "id": id, "method": method, "params": params });
        let answer = async {
            connection
                .socket
                .send(Message::text(request.to_string()))
                .await
                .map_err(|error| error.to_string())?;
            while let Some(message) = connection.socket.next().await {
                let Message::Text(text) = message.map_err(|error| error.to_string())? else {
                    continue;
                };
                let answer: serde_json::Value =
                    serde_json::from_str(&text).map_err(|error| error.to_string())?;
                if answer["id"].as_u64() != Some(id) {
                    continue;
                }
                if let Some(error) = answer.get("error") {
                    return Err(format!("{method}: {error}"));
                }
                return Ok(answer["result"].clone());
            }
            Err("the DevTools connection closed".to_owned())
        };
        tokio::time::timeout(CALL_TIMEOUT, answer)
            .await
            .map_err(|_| format!("{method}: no answer within {CALL_TIMEOUT:?}"))?
    }
}
