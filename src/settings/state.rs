//! The connection settings every page reads: base URL and token.

use leptos::prelude::*;

use media_gen_client::{Auth, Client, ClientOptions, TokenProvider};
use media_gen_ui::store::settings as stored;

/// Where the current token came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenSource {
    /// No token in the page.
    None,
    /// The user entered it (kept in this tab's session storage).
    User,
}

/// How the app reaches the service.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Connection {
    /// Through the site that served the app (its gateway adds the token):
    /// no token in the page.
    Gateway,
    /// Straight to a service at another address, with the user's token.
    Direct,
    /// To another address with no token: calls will be refused unless a
    /// proxy there adds one.
    NoToken,
}

impl Connection {
    /// The connection for a base URL and a token source. The site's own
    /// address is its gateway whatever the token: the gateway sends the
    /// service its own token and drops any other, so a token typed here is
    /// neither used nor sent there.
    pub fn of(base_url: &str, token: TokenSource) -> Connection {
        if base_url == crate::address::site_url() {
            return Connection::Gateway;
        }
        match token {
            TokenSource::User => Connection::Direct,
            TokenSource::None => Connection::NoToken,
        }
    }

    /// Its name in the header.
    pub fn short(self) -> &'static str {
        match self {
            Connection::Gateway => "Through this site",
            Connection::Direct => "Token set",
            Connection::NoToken => "No token",
        }
    }
}

/// Reactive connection settings, provided as context by [`provide_settings`].
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// The service's base URL, without a trailing slash.
    pub base_url: RwSignal<String>,
    /// The bearer token; empty when there is none.
    pub token: RwSignal<String>,
    /// Where [`Settings::token`] came from.
    pub token_source: RwSignal<TokenSource>,
    /// Whether the token is remembered on this device rather than this tab.
    pub remember: RwSignal<bool>,
}

impl Settings {
    /// The settings provided by the app.
    pub fn expect() -> Self {
        expect_context::<Settings>()
    }

    /// Use `base_url` from now on and keep it where the token is kept.
    pub fn set_base_url(&self, base_url: &str) {
        let base_url = base_url.trim().trim_end_matches('/');
        stored::save_base_url(Some(base_url), self.remember.get_untracked());
        self.base_url.set(base_url.to_owned());
    }

    /// Keep the token (and base URL) on this device, or only in this tab.
    pub fn set_remember(&self, remember: bool) {
        self.remember.set(remember);
        if self.token_source.get_untracked() == TokenSource::User {
            stored::save_token(Some(&self.token.get_untracked()), remember);
        }
        stored::save_base_url(Some(&self.base_url.get_untracked()), remember);
    }

    /// The token for "copy as cURL", `None` without one.
    pub fn curl_token(&self) -> Signal<Option<String>> {
        let (token, kind) = (self.token, self.connection_kind());
        Signal::derive(move || {
            let used = kind.get() != Connection::Gateway;
            token.with(|token| (used && !token.is_empty()).then(|| token.clone()))
        })
    }

    /// How the app reaches the service now.
    pub fn connection_kind(&self) -> Signal<Connection> {
        let (base_url, token) = (self.base_url, self.token_source);
        Signal::derive(move || base_url.with(|url| Connection::of(url, token.get())))
    }

    /// Client options for the current settings. The token is read at each
    /// call, so one entered later is used; without a token no
    /// `Authorization` header is sent (a gateway adds its own). The base URL
    /// is the one current now.
    pub fn client_options(&self) -> ClientOptions {
        let (token, base_url) = (self.token, self.base_url);
        let provider: TokenProvider = std::rc::Rc::new(move || {
            Box::pin(async move {
                // Never to the site's gateway, which would drop it anyway.
                let to_site =
                    base_url.try_get_untracked().unwrap_or_default() == crate::address::site_url();
                let token = token.try_get_untracked().unwrap_or_default();
                (!to_site && !token.is_empty()).then_some(token)
            })
        });
        ClientOptions::new(self.base_url.get_untracked(), Auth::Provider(provider))
    }

    /// A number that changes whenever the base URL or the token does, so
    /// views that read from the service can read again; the token itself is
    /// not exposed.
    pub fn connection_version(&self) -> Signal<u64> {
        let (base_url, token) = (self.base_url, self.token);
        Signal::derive(move || {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            base_url.with(|url| url.hash(&mut hasher));
            token.with(|token| token.hash(&mut hasher));
            hasher.finish()
        })
    }

    /// A client for the current settings (see [`Settings::client_options`]).
    pub fn client(&self) -> Client {
        Client::new(self.client_options())
    }

    /// Use `token` from now on and keep it (empty forgets it).
    pub fn set_token(&self, token: &str) {
        let token = token.trim();
        stored::save_token(Some(token), self.remember.get_untracked());
        self.token.set(token.to_owned());
        self.token_source.set(if token.is_empty() {
            TokenSource::None
        } else {
            TokenSource::User
        });
    }
}

/// Load the stored settings and provide them as context.
pub fn provide_settings() -> Settings {
    let saved = stored::load();
    let base_url = saved.base_url.unwrap_or_else(crate::address::site_url);
    let token_source = if saved.token.is_some() {
        TokenSource::User
    } else {
        TokenSource::None
    };
    let settings = Settings {
        base_url: RwSignal::new(base_url),
        token: RwSignal::new(saved.token.unwrap_or_default()),
        token_source: RwSignal::new(token_source),
        remember: RwSignal::new(saved.remembered),
    };
    provide_context(settings);
    settings
}
