//! Every request body has a deadline for the whole of it, not only for each
//! piece: a body trickled a byte at a time would otherwise hold its
//! connection for as long as the sender likes, since the idle timeout
//! (`--body-timeout` between pieces, tower-http's) starts again with every
//! byte. A body has `--body-timeout` in all; an upload's `PATCH` or
//! `POST`, which may carry gigabytes, has the same to start with and then
//! as long as a floor rate (`--upload-min-rate`) needs for what came: a
//! sender slower than that on average is cut off, as nginx's
//! `client_body_timeout` with a rate floor would. A body past its deadline
//! ends with [`BodyDeadlineError`], which the handlers answer 408 (an
//! upload keeps the bytes that arrived, so it resumes from there).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The deadlines bodies get (the flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDeadlines {
    /// Time for a whole body (`--body-timeout`), and an upload's head start.
    pub whole: Duration,
    /// Bytes a second an upload's body must average after its head start
    /// (`--upload-min-rate`); 0 holds uploads to `whole` too.
    pub upload_min_rate: u64,
}

/// The error a body past its deadline ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the request body did not arrive within its deadline")]
pub struct BodyDeadlineError;

/// Whether `error` (or what caused it) is a body past its deadline.
pub fn is_past_deadline(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(error) = source {
        if error.is::<BodyDeadlineError>() {
            return true;
        }
        source = error.source();
    }
    false
}

/// A body that ends with [`BodyDeadlineError`] once its deadline passes.
pub struct DeadlineBody {
    inner: Body,
    sleep: Pin<Box<Sleep>>,
    started: Instant,
    head_start: Duration,
    /// Bytes a second that move the deadline on; 0: it never moves.
    min_rate: u64,
    received: u64,
    expired: bool,
}

impl DeadlineBody {
    /// `inner` with `head_start` from now to arrive, and `min_rate` bytes
    /// a second after that (0: `head_start` for the whole body).
    pub fn new(inner: Body, head_start: Duration, min_rate: u64) -> DeadlineBody {
        let started = Instant::now();
        DeadlineBody {
            inner,
            sleep: Box::pin(tokio::time::sleep_until(started + head_start)),
            started,
            head_start,
            min_rate,
            received: 0,
            expired: false,
        }
    }

    /// The deadline for what has come so far.
    fn deadline(&self) -> Instant {
        let earned = match self.min_rate {
            0 => Duration::ZERO,
            rate => Duration::from_secs_f64(self.received as f64 / rate as f64),
        };
        self.started + self.head_start + earned
    }
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = &mut *self;
        if this.expired {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    if this.min_rate > 0 {
                        let deadline = this.deadline();
                        this.sleep.as_mut().reset(deadline);
                    }
                }
                return Poll::Ready(Some(Ok(frame)));
            }
            Poll::Ready(other) => return Poll::Ready(other),
            Poll::Pending => {}
        }
        if this.sleep.as_mut().poll(cx).is_ready() {
            this.expired = true;
            metrics::counter!(crate::observe::REFUSED, "budget" => "body_deadline").increment(1);
            return Poll::Ready(Some(Err(axum::Error::new(BodyDeadlineError))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.expired || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Whether a request's body is an upload's bytes (tus `PATCH`, or a
/// `POST` creating one with its first bytes).
fn is_upload(request: &Request) -> bool {
    let method = request.method();
    (method == axum::http::Method::PATCH || method == axum::http::Method::POST)
        && request
            .uri()
            .path()
            .starts_with(media_gen_api::relay::UPLOADS_PATH.trim_end_matches('/'))
}

/// The middleware that gives every request body its deadline (a request
/// without one, most reads, goes on as it is).
pub async fn bound(
    State(deadlines): State<BodyDeadlines>,
    request: Request,
    next: Next,
) -> Response {
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let min_rate = if is_upload(&request) {
        deadlines.upload_min_rate
    } else {
        0
    };
    let request = request.map(|body| Body::new(DeadlineBody::new(body, deadlines.whole, min_rate)));
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    /// A body that sends `pieces` pieces of `size` bytes, `every` apart.
    fn trickle(pieces: usize, size: usize, every: Duration) -> Body {
        let stream = futures_util::stream::unfold(0, move |sent| async move {
            if sent == pieces {
                return None;
            }
            tokio::time::sleep(every).await;
            Some((
                Ok::<_, std::io::Error>(Bytes::from(vec![7; size])),
                sent + 1,
            ))
        });
        Body::from_stream(stream)
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickled_body_ends_at_its_whole_deadline_however_often_bytes_come() {
        let body = DeadlineBody::new(
            trickle(100, 1, Duration::from_secs(1)),
            Duration::from_secs(5),
            0,
        );
        let started = Instant::now();
        let error = body.collect().await.unwrap_err();
        assert!(is_past_deadline(&error), "{error}");
        assert_eq!(started.elapsed(), Duration::from_secs(5));
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_in_time_arrives_whole() {
        let body = DeadlineBody::new(
            trickle(4, 10, Duration::from_secs(1)),
            Duration::from_secs(5),
            0,
        );
        let bytes = body.collect().await.unwrap().to_bytes();
        assert_eq!(bytes.len(), 40);
    }

    #[tokio::test(start_paused = true)]
    async fn an_upload_goes_on_as_long_as_it_keeps_the_floor_rate() {
        // 1,000 bytes a second against a floor of 500: two minutes, fine.
        let fast = DeadlineBody::new(
            trickle(120, 1_000, Duration::from_secs(1)),
            Duration::from_secs(5),
            500,
        );
        assert_eq!(fast.collect().await.unwrap().to_bytes().len(), 120_000);
        // 100 bytes a second against the same floor: cut off once the head
        // start and what it earned are spent.
        let slow = DeadlineBody::new(
            trickle(120, 100, Duration::from_secs(1)),
            Duration::from_secs(5),
            500,
        );
        let started = Instant::now();
        let error = slow.collect().await.unwrap_err();
        assert!(is_past_deadline(&error));
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }
}
