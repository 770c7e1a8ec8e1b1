//! When a failed request is tried again, and after how long.
//!
//! Reads (status, language list) are retried on network failures, timeouts,
//! 408, 429 and 5xx, with exponential backoff and full jitter, honouring
//! `Retry-After` up to a cap, within a retry budget. Submits are never retried
//! automatically, except 429 and 503 that carry `Retry-After`: there the
//! service did no work. A blindly retried submit can create, and bill,
//! duplicate tasks.

use std::time::Duration;

/// Whether a request only reads or creates work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// `GET`: status reads, the language list. Safe to repeat.
    Read,
    /// `POST`: submits. Repeating one may create duplicate tasks.
    Submit,
    /// `DELETE`: taking something back. Safe to repeat, as a read is.
    Remove,
    /// `PATCH`: setting a thing's parts to given values (a name). Safe to
    /// repeat, as a read is.
    Change,
    /// `PUT`: a thing put whole under its name. Safe to repeat, as a read
    /// is.
    Replace,
}

/// What went wrong with one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptFailure {
    /// No answer: connection refused or dropped, DNS, CORS.
    Network,
    /// No answer within the per-attempt timeout.
    Timeout,
    /// An HTTP status that is not 2xx.
    Status(u16),
    /// A 2xx answer that is not the documented shape, or a business error.
    BadAnswer,
}

/// The numbers of the retry policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (the budget).
    pub max_retries: u32,
    /// Backoff ceiling for the first retry; doubled each retry.
    pub base: Duration,
    /// The largest backoff ceiling.
    pub max_backoff: Duration,
    /// The longest `Retry-After` honoured; a longer one ends the retries.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    /// 4 retries; backoff ceilings 0.5, 1, 2, 4 s (at most 8 s); `Retry-After` up to 60 s.
    fn default() -> Self {
        RetryPolicy {
            max_retries: 4,
            base: Duration::from_millis(500),
            max_backoff: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

/// Whether a failure may be retried at all (the budget aside).
pub fn is_retryable(kind: RequestKind, failure: AttemptFailure, has_retry_after: bool) -> bool {
    match (kind, failure) {
        (
            RequestKind::Read | RequestKind::Remove | RequestKind::Change | RequestKind::Replace,
            AttemptFailure::Network | AttemptFailure::Timeout,
        ) => true,
        (
            RequestKind::Read | RequestKind::Remove | RequestKind::Change | RequestKind::Replace,
            AttemptFailure::Status(status),
        ) => status == 408 || status == 429 || status >= 500,
        (RequestKind::Submit, AttemptFailure::Status(429 | 503)) => has_retry_after,
        _ => false,
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0 for the first retry), or `None`
    /// when the budget is spent or `Retry-After` asks for longer than the cap.
    /// `unit` is a uniform random number in `[0, 1)`: full jitter spreads
    /// clients out so they do not retry in step.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>, unit: f64) -> Option<Duration> {
        if retry >= self.max_retries {
            return None;
        }
        if let Some(wait) = retry_after {
            return (wait <= self.max_retry_after).then_some(wait);
        }
        let ceiling = self
            .base
            .saturating_mul(2u32.saturating_pow(retry))
            .min(self.max_backoff);
        Some(ceiling.mul_f64(unit_interval(unit)))
    }
}

/// A jitter's random number held to `[0, 1]`, NaN read as 0 (`mul_f64`
/// panics on NaN).
pub(crate) fn unit_interval(unit: f64) -> f64 {
    if unit.is_nan() {
        0.0
    } else {
        unit.clamp(0.0, 1.0)
    }
}

/// `Retry-After` as a wait: delay-seconds (`120`) or an HTTP-date relative
/// to `now_unix` seconds, in any of the formats RFC 9110 (section 5.6.7)
/// has recipients accept: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and
/// the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime
/// (`Sun Nov  6 08:49:37 1994`) forms. A date in the past means no wait;
/// anything else is `None`.
pub fn parse_retry_after(value: &str, now_unix: i64) -> Option<Duration> {
    parse_retry_after_with(value, now_unix, parse_http_date)
}

/// [`parse_retry_after`] with the HTTP-date read by `read_date` (Unix
/// seconds): a browser's own date parser, so its module does not carry
/// a second one.
pub fn parse_retry_after_with(
    value: &str,
    now_unix: i64,
    read_date: impl FnOnce(&str) -> Option<i64>,
) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = read_date(value)?;
    Some(Duration::from_secs(
        u64::try_from(at - now_unix).unwrap_or(0),
    ))
}

/// Unix seconds of an HTTP-date (see [`parse_retry_after`]).
pub fn parse_http_date(value: &str) -> Option<i64> {
    let at = httpdate::parse_http_date(value).ok()?;
    let since_epoch = at.duration_since(std::time::UNIX_EPOCH).ok()?;
    i64::try_from(since_epoch.as_secs()).ok()
}

/// One call's retries as a machine: told of each failed attempt (with the
/// time and a random number as values), it says whether to try again and
/// after how long: the failure must be retryable for the call's kind, the
/// budget not spent, and the wait must end before the call's deadline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPlan {
    kind: RequestKind,
    policy: RetryPolicy,
    retries: u32,
    /// When the call gives up, in milliseconds since 1970.
    deadline_ms: u64,
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// Try again after this wait.
    After(Duration),
    /// Give up: report the failure.
    GiveUp,
}

/// How an attempt that did not give the call its answer ended, as the
/// driver saw it: the one thing a driver tells [`RetryPlan::missed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missed {
    /// An answer that did not hold what the call asked for (a refusal, or
    /// a success whose body was not the documented shape): its status and
    /// its `Retry-After` as sent.
    Answer {
        /// The HTTP status.
        status: u16,
        /// The `Retry-After` header, as sent.
        retry_after: Option<String>,
    },
    /// No answer within the per-attempt timeout.
    TimedOut,
    /// No answer at all (connection refused or dropped, DNS, CORS).
    NoAnswer,
}

impl RetryPlan {
    /// The plan of a `kind` call started at `now_ms` that may take `deadline` in all.
    pub fn new(
        kind: RequestKind,
        policy: RetryPolicy,
        now_ms: u64,
        deadline: Duration,
    ) -> RetryPlan {
        let deadline_ms =
            now_ms.saturating_add(u64::try_from(deadline.as_millis()).unwrap_or(u64::MAX));
        RetryPlan {
            kind,
            policy,
            retries: 0,
            deadline_ms,
        }
    }

    /// An attempt `missed` at `now_ms` (`unit` a uniform random number in
    /// `[0, 1)` for the jitter; `read_date` reads an HTTP-date to Unix
    /// seconds, the driver's own reader): what to do. What the answer's
    /// status means and when its `Retry-After` says to come back are
    /// decided here, for every driver.
    pub fn missed(
        &mut self,
        missed: Missed,
        now_ms: u64,
        unit: f64,
        read_date: fn(&str) -> Option<i64>,
    ) -> Retry {
        let (failure, retry_after) = match missed {
            Missed::Answer {
                status,
                retry_after,
            } => {
                let failure = if (200..300).contains(&status) {
                    AttemptFailure::BadAnswer
                } else {
                    AttemptFailure::Status(status)
                };
                let now_unix = i64::try_from(now_ms / 1000).unwrap_or(i64::MAX);
                let wait = retry_after
                    .and_then(|value| parse_retry_after_with(&value, now_unix, read_date));
                (failure, wait)
            }
            Missed::TimedOut => (AttemptFailure::Timeout, None),
            Missed::NoAnswer => (AttemptFailure::Network, None),
        };
        self.failed(failure, retry_after, now_ms, unit)
    }

    /// An attempt failed with `failure` at `now_ms` (the answer's
    /// `Retry-After` as `retry_after`; `unit` a uniform random number in
    /// `[0, 1)` for the jitter): what to do.
    pub fn failed(
        &mut self,
        failure: AttemptFailure,
        retry_after: Option<Duration>,
        now_ms: u64,
        unit: f64,
    ) -> Retry {
        if !is_retryable(self.kind, failure, retry_after.is_some()) {
            return Retry::GiveUp;
        }
        let Some(wait) = self.policy.delay(self.retries, retry_after, unit) else {
            return Retry::GiveUp;
        };
        let wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
        if now_ms.saturating_add(wait_ms) > self.deadline_ms {
            return Retry::GiveUp;
        }
        self.retries += 1;
        Retry::After(wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missed_attempt_is_judged_by_its_status_and_retry_after() {
        let plan = || {
            RetryPlan::new(
                RequestKind::Submit,
                RetryPolicy::default(),
                0,
                Duration::from_secs(120),
            )
        };
        let no_date = |_: &str| None;
        // A submit refused with 503 and a Retry-After of 2 s comes back then.
        let busy = Missed::Answer {
            status: 503,
            retry_after: Some("2".to_owned()),
        };
        assert_eq!(
            plan().missed(busy, 0, 0.5, no_date),
            Retry::After(Duration::from_secs(2))
        );
        // An HTTP-date is read by the driver's reader, against the clock given.
        let dated = Missed::Answer {
            status: 429,
            retry_after: Some("then".to_owned()),
        };
        assert_eq!(
            plan().missed(dated, 10_000, 0.5, |_| Some(15)),
            Retry::After(Duration::from_secs(5))
        );
        // A success that was not the documented shape is no retry; nor is a
        // submit that got no answer (it may have been taken).
        let odd = Missed::Answer {
            status: 200,
            retry_after: None,
        };
        assert_eq!(plan().missed(odd, 0, 0.5, no_date), Retry::GiveUp);
        assert_eq!(
            plan().missed(Missed::NoAnswer, 0, 0.5, no_date),
            Retry::GiveUp
        );
        // A read that timed out or got none is tried again.
        let mut read = RetryPlan::new(
            RequestKind::Read,
            RetryPolicy::default(),
            0,
            Duration::from_secs(120),
        );
        assert!(matches!(
            read.missed(Missed::TimedOut, 0, 0.5, no_date),
            Retry::After(_)
        ));
        assert!(matches!(
            read.missed(Missed::NoAnswer, 0, 0.5, no_date),
            Retry::After(_)
        ));
    }

    #[test]
    fn reads_and_removals_retry_on_network_timeout_408_429_and_5xx() {
        for kind in [
            RequestKind::Read,
            RequestKind::Remove,
            RequestKind::Change,
            RequestKind::Replace,
        ] {
            reads_retry(kind);
        }
    }

    fn reads_retry(kind: RequestKind) {
        use AttemptFailure::*;
        for failure in [
            Network,
            Timeout,
            Status(408),
            Status(429),
            Status(500),
            Status(502),
            Status(503),
            Status(504),
        ] {
            assert!(is_retryable(kind, failure, false), "{kind:?} {failure:?}");
        }
        for failure in [
            Status(400),
            Status(401),
            Status(404),
            Status(413),
            BadAnswer,
        ] {
            assert!(!is_retryable(kind, failure, true), "{kind:?} {failure:?}");
        }
    }

    #[test]
    fn submits_retry_only_429_and_503_with_retry_after() {
        use AttemptFailure::*;
        assert!(is_retryable(RequestKind::Submit, Status(429), true));
        assert!(is_retryable(RequestKind::Submit, Status(503), true));
        assert!(!is_retryable(RequestKind::Submit, Status(429), false));
        assert!(!is_retryable(RequestKind::Submit, Status(503), false));
        for failure in [
            Network,
            Timeout,
            Status(500),
            Status(502),
            Status(504),
            BadAnswer,
        ] {
            assert!(
                !is_retryable(RequestKind::Submit, failure, true),
                "{failure:?}: the work may have been done"
            );
        }
    }

    #[test]
    fn backoff_doubles_with_full_jitter_up_to_the_ceiling() {
        let policy = RetryPolicy::default();
        let ceilings: Vec<_> = (0..4)
            .map(|retry| policy.delay(retry, None, 1.0).unwrap())
            .collect();
        assert_eq!(ceilings, [500, 1000, 2000, 4000].map(Duration::from_millis));
        assert_eq!(policy.delay(0, None, 0.0), Some(Duration::ZERO));
        assert_eq!(
            policy.delay(2, None, 0.5),
            Some(Duration::from_millis(1000))
        );
        let long = RetryPolicy {
            max_retries: 10,
            ..policy
        };
        assert_eq!(long.delay(9, None, 1.0), Some(Duration::from_secs(8)));
        assert_eq!(policy.delay(0, None, f64::NAN), Some(Duration::ZERO));
    }

    #[test]
    fn the_budget_ends_retries() {
        let policy = RetryPolicy::default();
        assert!(policy.delay(3, None, 0.5).is_some());
        assert_eq!(policy.delay(4, None, 0.5), None);
        assert_eq!(policy.delay(4, Some(Duration::from_secs(1)), 0.5), None);
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_cap() {
        let policy = RetryPolicy::default();
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(7)), 0.0),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            policy.delay(0, Some(Duration::from_secs(60)), 0.0),
            Some(Duration::from_secs(60))
        );
        assert_eq!(policy.delay(0, Some(Duration::from_secs(61)), 0.0), None);
    }

    #[test]
    fn retry_after_in_seconds_or_as_an_http_date() {
        assert_eq!(parse_retry_after("120", 0), Some(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(" 0 ", 0), Some(Duration::ZERO));
        // 1994-11-06T08:49:37Z is Unix 784111777.
        let date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assert_eq!(
            parse_retry_after(date, 784_111_777 - 30),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after(date, 784_111_777 + 30),
            Some(Duration::ZERO),
            "past dates: no wait"
        );
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            parse_http_date("Sat, 21 Nov 2026 06:00:00 GMT"),
            Some(1_795_240_800)
        );
        assert_eq!(
            parse_http_date("Tue, 29 Feb 2028 12:00:00 GMT"),
            Some(1_835_438_400)
        );
        // The two obsolete forms of the same instant.
        for obsolete in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            assert_eq!(parse_http_date(obsolete), Some(784_111_777), "{obsolete}");
        }
        for bad in [
            "",
            "-1",
            "soon",
            "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun 06 Nov 1994 08:49:37 GMT",
        ] {
            assert_eq!(parse_retry_after(bad, 0), None, "{bad}");
        }
    }

    #[test]
    fn a_plan_retries_a_read_within_its_budget_and_deadline() {
        let mut plan = RetryPlan::new(
            RequestKind::Read,
            RetryPolicy::default(),
            0,
            Duration::from_secs(30),
        );
        let mut waits = Vec::new();
        while let Retry::After(wait) = plan.failed(AttemptFailure::Network, None, 0, 0.999) {
            waits.push(wait);
        }
        assert_eq!(waits.len(), 4, "the budget: {waits:?}");
        assert!(waits.windows(2).all(|pair| pair[0] < pair[1]), "{waits:?}");
        // A wait that would end past the deadline is not taken.
        let mut late = RetryPlan::new(
            RequestKind::Read,
            RetryPolicy::default(),
            0,
            Duration::from_secs(30),
        );
        assert_eq!(
            late.failed(
                AttemptFailure::Status(503),
                Some(Duration::from_secs(20)),
                15_000,
                0.5
            ),
            Retry::GiveUp
        );
        assert_eq!(
            late.failed(
                AttemptFailure::Status(503),
                Some(Duration::from_secs(10)),
                15_000,
                0.5
            ),
            Retry::After(Duration::from_secs(10))
        );
    }

    #[test]
    fn a_plan_retries_a_submit_only_when_the_service_did_nothing() {
        let policy = RetryPolicy::default();
        let mut plan = RetryPlan::new(RequestKind::Submit, policy, 0, Duration::from_secs(60));
        assert_eq!(
            plan.failed(AttemptFailure::Network, None, 0, 0.5),
            Retry::GiveUp
        );
        assert_eq!(
            plan.failed(AttemptFailure::Status(503), None, 0, 0.5),
            Retry::GiveUp
        );
        assert_eq!(
            plan.failed(
                AttemptFailure::Status(429),
                Some(Duration::from_secs(2)),
                0,
                0.5
            ),
            Retry::After(Duration::from_secs(2))
        );
    }
}
