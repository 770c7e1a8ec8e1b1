//! Faults the service model injects into its answers, on purpose: set at
//! start, changed at run time (the sandbox's `PUT /sandbox/faults`, the
//! test service's options).
//!
//! Faults that mean "the service did no work" come before the call is
//! carried out: HTTP 429 (with `Retry-After`), HTTP 503 and a business
//! error in HTTP 200. Faults that mean "the work was done but the answer
//! was lost" come after it: HTTP 500, a dropped connection and a malformed
//! body. The second group is what makes blindly retried submits create
//! duplicate tasks.

use serde::{Deserialize, Serialize};

/// Which faults to inject, and how often. Rates are shares of `/v1` calls,
/// 0 to 1, and together at most 1.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
#[serde(default, deny_unknown_fields)]
pub struct Faults {
    /// Share of `/v1` requests answered HTTP 500 after the work is done.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-500", default_value_t = 0.0, value_name = "RATE")
    )]
    pub http_500: f64,
    /// Share answered HTTP 503 before any work.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-503", default_value_t = 0.0, value_name = "RATE")
    )]
    pub http_503: f64,
    /// Share answered HTTP 429 with `Retry-After` before any work.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-429", default_value_t = 0.0, value_name = "RATE")
    )]
    pub http_429: f64,
    /// The `Retry-After` seconds sent with injected 429s.
    #[cfg_attr(
        feature = "cli",
        arg(
            long = "fault-retry-after",
            default_value_t = 1,
            value_name = "SECONDS"
        )
    )]
    pub retry_after_secs: u64,
    /// Share whose connection is dropped after the work is done.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-drop", default_value_t = 0.0, value_name = "RATE")
    )]
    pub drop_connection: f64,
    /// Share answered HTTP 200 with a truncated, malformed JSON body after the work is done.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-malformed", default_value_t = 0.0, value_name = "RATE")
    )]
    pub malformed_body: f64,
    /// Share answered HTTP 200 with a non-zero `code` before any work.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-business", default_value_t = 0.0, value_name = "RATE")
    )]
    pub business_error: f64,
    /// Delay added to every `/v1` request, in milliseconds.
    #[cfg_attr(
        feature = "cli",
        arg(long = "fault-latency-ms", default_value_t = 0, value_name = "MS")
    )]
    pub latency_ms: u64,
    /// Apply these faults to the next N `/v1` requests only, then stop (none: no limit).
    #[cfg_attr(feature = "cli", arg(long = "fault-limit", value_name = "N"))]
    pub limit: Option<u64>,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            http_500: 0.0,
            http_503: 0.0,
            http_429: 0.0,
            retry_after_secs: 1,
            drop_connection: 0.0,
            malformed_body: 0.0,
            business_error: 0.0,
            latency_ms: 0,
            limit: None,
        }
    }
}

/// The longest latency a fault may add to a request.
pub const MAX_LATENCY_MS: u64 = 60_000;
/// The longest `Retry-After` a fault may ask for.
pub const MAX_RETRY_AFTER_SECS: u64 = 86_400;

/// One call's fate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// HTTP 500, after the work.
    ServerError,
    /// HTTP 503, no work.
    Unavailable,
    /// HTTP 429 with `Retry-After`, no work.
    RateLimited,
    /// Connection dropped, after the work.
    Drop,
    /// Malformed HTTP 200 body, after the work.
    Malformed,
    /// `code != 0` in HTTP 200, no work.
    Business,
}

impl Faults {
    fn rates(&self) -> [(Fault, f64); 6] {
        [
            (Fault::ServerError, self.http_500),
            (Fault::Unavailable, self.http_503),
            (Fault::RateLimited, self.http_429),
            (Fault::Drop, self.drop_connection),
            (Fault::Malformed, self.malformed_body),
            (Fault::Business, self.business_error),
        ]
    }

    /// Check the settings: each rate 0 to 1, together at most 1; the
    /// latency at most [`MAX_LATENCY_MS`] (an unbounded one would hold every
    /// request for ever); `Retry-After` at most a day.
    pub fn check(&self) -> Result<(), String> {
        if self.latency_ms > MAX_LATENCY_MS {
            return Err(format!(
                "latency_ms is at most {MAX_LATENCY_MS} (one minute), not {}",
                self.latency_ms
            ));
        }
        if self.retry_after_secs > MAX_RETRY_AFTER_SECS {
            return Err(format!(
                "retry_after_secs is at most {MAX_RETRY_AFTER_SECS} (a day), not {}",
                self.retry_after_secs
            ));
        }
        let rates = self.rates();
        if let Some((fault, rate)) = rates.iter().find(|(_, rate)| !(0.0..=1.0).contains(rate)) {
            return Err(format!("{fault:?}: a rate is between 0 and 1 (got {rate})"));
        }
        let total: f64 = rates.iter().map(|(_, rate)| rate).sum();
        if total > 1.0 + 1e-9 {
            return Err(format!("the fault rates add up to {total}, more than 1"));
        }
        Ok(())
    }

    /// The fault for a call, given a uniform roll in `[0, 1)`.
    pub fn pick(&self, roll: f64) -> Option<Fault> {
        let mut threshold = 0.0;
        for (fault, rate) in self.rates() {
            threshold += rate;
            if roll < threshold {
                return Some(fault);
            }
        }
        None
    }

    /// The faults for one call, counting it against `limit`: these
    /// settings while calls are left, none after.
    pub fn take(&mut self) -> Faults {
        match self.limit {
            Some(0) => Faults::default(),
            Some(remaining) => {
                self.limit = Some(remaining - 1);
                self.clone()
            }
            None => self.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_faults_by_cumulative_rate() {
        let faults = Faults {
            http_500: 0.1,
            http_429: 0.2,
            ..Faults::default()
        };
        assert_eq!(faults.pick(0.05), Some(Fault::ServerError));
        assert_eq!(faults.pick(0.15), Some(Fault::RateLimited));
        assert_eq!(faults.pick(0.29), Some(Fault::RateLimited));
        assert_eq!(faults.pick(0.31), None);
        assert_eq!(Faults::default().pick(0.0), None);
    }

    #[test]
    fn a_limit_counts_calls_down_then_stops() {
        let mut faults = Faults {
            http_503: 1.0,
            limit: Some(2),
            ..Faults::default()
        };
        assert_eq!(faults.take().http_503, 1.0);
        assert_eq!(faults.take().http_503, 1.0);
        assert_eq!(faults.take(), Faults::default());
        assert_eq!(faults.limit, Some(0));
    }

    #[test]
    fn latency_and_retry_after_are_bounded() {
        let latency = |latency_ms| {
            Faults {
                latency_ms,
                ..Faults::default()
            }
            .check()
        };
        assert!(latency(MAX_LATENCY_MS).is_ok());
        assert_eq!(
            latency(u64::MAX),
            Err(format!(
                "latency_ms is at most 60000 (one minute), not {}",
                u64::MAX
            ))
        );
        assert!(Faults {
            retry_after_secs: u64::MAX,
            ..Faults::default()
        }
        .check()
        .is_err());
    }

    #[test]
    fn rates_are_checked() {
        assert!(Faults::default().check().is_ok());
        for (a, b, ok) in [
            (1.5, 0.0, false),
            (-0.1, 0.0, false),
            (0.6, 0.6, false),
            (0.5, 0.5, true),
        ] {
            let faults = Faults {
                http_500: a,
                drop_connection: b,
                ..Faults::default()
            };
            assert_eq!(faults.check().is_ok(), ok, "{a} {b}");
        }
    }
}
