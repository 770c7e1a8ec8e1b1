//! Where result files are fetched from. A task's status names its files'
//! addresses, and whoever can make the service (or something posing as
//! it) name an address could otherwise make the gateway fetch its own
//! `/metrics` or another machine on its network and publish the answer
//! under `/kept/`. So a file is fetched only from:
//!
//! - a public address ([`media_gen_gateway_base::public_only`]), over `https`;
//! - the service's own host and port (`--upstream`; a sandbox on loopback
//!   over plain `http` included);
//! - a host of `--keep-from HOST[:PORT]`, for a deployment whose service
//!   stores its media on a private host (`http` or `https`).
//!
//! Each redirect's target is judged again.

use std::fmt;
use std::str::FromStr;

use media_gen_api::kept::NotKept;
use url::{Host, Url};

use media_gen_gateway_base::public_only;
use media_gen_gateway_base::upstream::UpstreamClient;

/// A host results may be fetched from whatever its address: `HOST` (its
/// scheme's default port, 443 or 80) or `HOST:PORT`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaHost {
    host: Host<String>,
    port: Option<u16>,
}

impl MediaHost {
    /// The host and port `url` names, as a [`MediaHost`] matches them.
    fn of(url: &Url) -> Option<(Host<String>, u16)> {
        Some((url.host()?.to_owned(), url.port_or_known_default()?))
    }

    /// Whether `url` is on this host and port.
    fn matches(&self, url: &Url) -> bool {
        let Some((host, port)) = MediaHost::of(url) else {
            return false;
        };
        let port_matches = match self.port {
            Some(wanted) => port == wanted,
            None => Some(port) == default_port(url.scheme()),
        };
        host == self.host && port_matches
    }
}

/// The default port of `scheme`, for the schemes fetched.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    }
}

impl FromStr for MediaHost {
    type Err = String;

    fn from_str(text: &str) -> Result<MediaHost, String> {
        let refused = || {
            format!(
                "--keep-from takes HOST or HOST:PORT (media.internal, 10.0.0.5:9000, \
                 [fd00::5]:9000), not {text:?}"
            )
        };
        // Read as a URL's authority, so a host is spelled as in the
        // addresses it is compared with (lower case, IPv6 in brackets).
        let url = Url::parse(&format!("http://{}/", text.trim())).map_err(|_| refused())?;
        let host = url.host().ok_or_else(refused)?.to_owned();
        if !url.username().is_empty() || url.password().is_some() || url.path() != "/" {
            return Err(refused());
        }
        // `Url` drops the scheme's default port: `:80` was given.
        let port = url
            .port()
            .or_else(|| text.trim().ends_with(":80").then_some(80));
        Ok(MediaHost { host, port })
    }
}

impl fmt::Display for MediaHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => write!(f, "{}", self.host),
        }
    }
}

/// The hosts trusted and the clients that fetch from them.
#[derive(Debug, Clone)]
pub struct Sources {
    /// The service's host and port, and `--keep-from`'s.
    trusted: Vec<MediaHost>,
    /// Connects wherever a trusted host resolves.
    anywhere: UpstreamClient,
    /// Connects to public addresses only.
    public: UpstreamClient,
}

impl Sources {
    /// Files fetched from `upstream`'s host and port (the service's base
    /// URL), `keep_from`'s, and public addresses.
    pub fn new(upstream: Option<&str>, keep_from: &[MediaHost]) -> Sources {
        let service = upstream
            .and_then(|base| Url::parse(base).ok())
            .and_then(|url| MediaHost::of(&url))
            .map(|(host, port)| MediaHost {
                host,
                port: Some(port),
            });
        Sources {
            trusted: service
                .into_iter()
                .chain(keep_from.iter().cloned())
                .collect(),
            anywhere: UpstreamClient::new(),
            public: UpstreamClient::public_only(),
        }
    }

    /// The client to fetch `url` with, or why it is not fetched. An address
    /// that is not trusted is resolved here to say why it is refused; the
    /// client's connector checks again the addresses it dials.
    pub async fn client_for(&self, url: &Url) -> Result<&UpstreamClient, NotKept> {
        let scheme = url.scheme();
        if scheme != "https" && scheme != "http" {
            return Err(not_fetched(format!(
                "{scheme} addresses are not fetched, only https"
            )));
        }
        if self.trusted.iter().any(|host| host.matches(url)) {
            return Ok(&self.anywhere);
        }
        let port = url.port_or_known_default().unwrap_or(443);
        let checked = match url.host() {
            Some(Host::Ipv4(ip)) => public_only::check(&ip.to_string(), &[ip.into()]),
            Some(Host::Ipv6(ip)) => public_only::check(&ip.to_string(), &[ip.into()]),
            Some(Host::Domain(name)) => {
                let ips: Vec<std::net::IpAddr> = tokio::net::lookup_host((name, port))
                    .await
                    .map(|found| found.map(|address| address.ip()).collect())
                    .unwrap_or_default();
                public_only::check(name, &ips)
            }
            None => Err("the address names no host".to_owned()),
        };
        checked.map_err(|why| {
            not_fetched(format!(
                "{why}: results are fetched only from public addresses, the service's own \
                 host and --keep-from"
            ))
        })?;
        if scheme != "https" {
            return Err(not_fetched(
                "http addresses are fetched only from the service's own host and --keep-from, \
                 others over https"
                    .to_owned(),
            ));
        }
        Ok(&self.public)
    }
}

fn not_fetched(rule: String) -> NotKept {
    NotKept::NotFetched { rule }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn a_media_host_reads_as_an_authority_and_matches_its_port() {
        let host: MediaHost = "Media.Internal:9000".parse().unwrap();
        assert_eq!(host.to_string(), "media.internal:9000");
        assert!(host.matches(&url("http://media.internal:9000/a.mp4")));
        assert!(!host.matches(&url("http://media.internal:9001/a.mp4")));
        assert!(!host.matches(&url("https://media.internal/a.mp4")));
        let bare: MediaHost = "10.0.0.5".parse().unwrap();
        assert!(bare.matches(&url("https://10.0.0.5/a.mp4")));
        assert!(bare.matches(&url("http://10.0.0.5/a.mp4")));
        assert!(!bare.matches(&url("http://10.0.0.5:8080/a.mp4")));
        let v6: MediaHost = "[fd00::5]:9000".parse().unwrap();
        assert!(v6.matches(&url("http://[fd00::5]:9000/a")));
        let explicit: MediaHost = "media.internal:80".parse().unwrap();
        assert!(!explicit.matches(&url("https://media.internal/a")));
        for wrong in ["", "http://x", "user@host", "host/path", "host:port"] {
            let refused = wrong.parse::<MediaHost>().unwrap_err();
            assert!(
                refused.contains("--keep-from takes HOST"),
                "{wrong}: {refused}"
            );
        }
    }

    #[tokio::test]
    async fn the_service_and_keep_from_are_trusted_and_nothing_else_private_is() {
        let sources = Sources::new(
            Some("http://127.0.0.1:4000"),
            &["10.0.0.5:9000".parse().unwrap()],
        );
        assert!(sources
            .client_for(&url("http://127.0.0.1:4000/m.mp4"))
            .await
            .is_ok());
        assert!(sources
            .client_for(&url("http://10.0.0.5:9000/m.mp4"))
            .await
            .is_ok());
        for refused in [
            "http://127.0.0.1:4001/metrics",
            "http://localhost:4000/m.mp4",
            "http://2130706433:4001/",
            "http://[::1]:4001/",
            "http://[::ffff:127.0.0.1]:4001/",
            "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.5:9001/m.mp4",
        ] {
            let why = sources
                .client_for(&url(refused))
                .await
                .unwrap_err()
                .to_string();
            assert!(why.contains("not public"), "{refused}: {why}");
        }
        let plain = sources
            .client_for(&url("http://93.184.216.34/m.mp4"))
            .await
            .unwrap_err()
            .to_string();
        assert!(plain.contains("others over https"), "{plain}");
        assert!(sources
            .client_for(&url("https://93.184.216.34/m.mp4"))
            .await
            .is_ok());
        let ftp = sources
            .client_for(&url("ftp://93.184.216.34/m"))
            .await
            .unwrap_err();
        assert!(ftp.to_string().contains("only https"), "{ftp}");
    }
}
