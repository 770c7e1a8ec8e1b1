//! The `code` of the error envelopes this project's servers answer with.
//! The interface document shows only `100001`; the sandbox and the gateway
//! share the rest, so a client reads the same code for the same refusal
//! whichever of them it talks to.

/// Invalid parameters: the message names each field and rule.
pub const INVALID_PARAMETER: i64 = 100001;
/// Missing or unknown bearer token.
pub const UNAUTHORIZED: i64 = 100002;
/// The body is not JSON, or not sent as `application/json`.
pub const MALFORMED_BODY: i64 = 100003;
/// No such task of this kind, or no such endpoint.
pub const NOT_FOUND: i64 = 100004;
/// The body is over 1 MiB.
pub const BODY_TOO_LARGE: i64 = 100005;
/// Too many requests; `Retry-After` says when to return.
pub const RATE_LIMITED: i64 = 100006;
/// A server error.
pub const SERVER_ERROR: i64 = 100007;
/// Temporarily unavailable.
pub const UNAVAILABLE: i64 = 100008;
/// A business error inside HTTP 200 (a sandbox fault).
pub const BUSY: i64 = 100009;
/// A gateway could not get a usable answer from the service upstream.
pub const UPSTREAM: i64 = 100010;
/// A stored file that was there and is gone: its time ended, or its owner
/// was forgotten (HTTP 410).
pub const GONE: i64 = 100011;
