//! Sending a batch, as a machine: one row at a time (the client's retries
//! already wait out a 429 or 503 that says when), each row once, stopped
//! at the person's word or at a refusal every later row would meet too (no
//! person, no budget left, the service unreachable); a refusal of one
//! row's own (400) is said and the next row sent. The page's driver only
//! carries out what [`Run::step`] says.

/// What to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// Send row `0` (its index in the batch).
    Send(usize),
    /// Wait for the row in flight.
    Wait,
    /// Nothing more: every row was sent or refused.
    Done,
    /// Nothing more: stopped, and why.
    Stopped(String),
}

/// How one row's submit ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The service made its tasks.
    Sent,
    /// Refused (its HTTP status, `None` with no answer), and the
    /// refusal's words.
    Refused(Option<u16>, String),
}

/// Whether a refusal with `status` would meet every later row too.
pub fn stops_the_batch(status: Option<u16>) -> bool {
    match status {
        // No answer after the client's retries, no person, not allowed,
        // the budget spent, the service unavailable.
        None | Some(401 | 402 | 403 | 429 | 500..) => true,
        Some(_) => false,
    }
}

/// A batch being sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    rows: usize,
    next: usize,
    in_flight: Option<usize>,
    sent: usize,
    refused: Vec<(usize, String)>,
    stopped: Option<String>,
}

impl Run {
    /// A run of `rows` rows, none sent.
    pub fn new(rows: usize) -> Run {
        Run {
            rows,
            next: 0,
            in_flight: None,
            sent: 0,
            refused: Vec::new(),
            stopped: None,
        }
    }

    /// What to do now.
    pub fn step(&mut self) -> Next {
        if let Some(why) = &self.stopped {
            return if self.in_flight.is_some() {
                Next::Wait
            } else {
                Next::Stopped(why.clone())
            };
        }
        if self.in_flight.is_some() {
            return Next::Wait;
        }
        if self.next >= self.rows {
            return Next::Done;
        }
        let row = self.next;
        self.next += 1;
        self.in_flight = Some(row);
        Next::Send(row)
    }

    /// How row `row`'s submit ended.
    pub fn took(&mut self, row: usize, outcome: Outcome) {
        if self.in_flight != Some(row) {
            return;
        }
        self.in_flight = None;
        match outcome {
            Outcome::Sent => self.sent += 1,
            Outcome::Refused(status, words) => {
                if stops_the_batch(status) && self.stopped.is_none() {
                    self.stopped = Some(format!("Stopped at row {}: {words}", row + 1));
                }
                self.refused.push((row, words));
            }
        }
    }

    /// Stop: the row in flight ends, no other is sent.
    pub fn stop(&mut self) {
        if self.stopped.is_none() {
            self.stopped = Some(format!(
                "Stopped: {} of {} rows not sent",
                self.rows - self.next,
                self.rows
            ));
        }
    }

    /// Whether nothing more will be sent and nothing is in flight.
    pub fn is_over(&self) -> bool {
        self.in_flight.is_none() && (self.stopped.is_some() || self.next >= self.rows)
    }

    /// Why it stopped, when it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// Rows sent, of all.
    pub fn sent(&self) -> usize {
        self.sent
    }

    /// The rows refused, each with why.
    pub fn refused(&self) -> &[(usize, String)] {
        &self.refused
    }

    /// Its progress in one line: "Sent 12 of 38 · 1 refused".
    pub fn progress(&self) -> String {
        let mut line = format!("Sent {} of {}", self.sent, self.rows);
        if !self.refused.is_empty() {
            line.push_str(&format!(" · {} refused", self.refused.len()));
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rows_go_one_at_a_time_and_a_rows_own_refusal_does_not_stop_the_rest() {
        let mut run = Run::new(3);
        assert_eq!(run.step(), Next::Send(0));
        assert_eq!(run.step(), Next::Wait, "one at a time");
        run.took(0, Outcome::Sent);
        assert_eq!(run.step(), Next::Send(1));
        run.took(
            1,
            Outcome::Refused(Some(400), "prompt: required".to_owned()),
        );
        assert_eq!(run.step(), Next::Send(2));
        run.took(2, Outcome::Sent);
        assert_eq!(run.step(), Next::Done);
        assert_eq!(run.progress(), "Sent 2 of 3 · 1 refused");
    }

    #[test]
    fn a_refusal_every_row_would_meet_stops_the_batch() {
        let mut run = Run::new(5);
        assert_eq!(run.step(), Next::Send(0));
        run.took(
            0,
            Outcome::Refused(Some(429), "no tasks left today".to_owned()),
        );
        assert_eq!(
            run.step(),
            Next::Stopped("Stopped at row 1: no tasks left today".to_owned())
        );
    }

    #[test]
    fn stopped_half_way_the_row_in_flight_ends_and_nothing_more_is_sent() {
        let mut run = Run::new(4);
        run.step();
        run.took(0, Outcome::Sent);
        assert_eq!(run.step(), Next::Send(1));
        run.stop();
        assert_eq!(run.step(), Next::Wait, "the row in flight ends");
        run.took(1, Outcome::Sent);
        assert_eq!(
            run.step(),
            Next::Stopped("Stopped: 2 of 4 rows not sent".to_owned())
        );
        assert_eq!(run.sent(), 2);
    }

    proptest! {
        #[test]
        fn each_row_is_sent_at_most_once_and_none_after_a_stop(
            rows in 0usize..20,
            events in prop::collection::vec((0u8..4, prop::option::of(200u16..600)), 0..60),
        ) {
            let mut run = Run::new(rows);
            let mut sent_rows = Vec::new();
            let mut stopped = false;
            for (event, status) in events {
                match run.step() {
                    Next::Send(row) => {
                        prop_assert!(!stopped, "nothing sent after a stop");
                        prop_assert!(!sent_rows.contains(&row));
                        prop_assert!(row < rows);
                        sent_rows.push(row);
                        match event {
                            0 => run.took(row, Outcome::Sent),
                            1 => run.took(row, Outcome::Refused(status, "no".to_owned())),
                            2 => { run.stop(); stopped = true; run.took(row, Outcome::Sent) }
                            _ => {}
                        }
                        if event == 1 && stops_the_batch(status) {
                            stopped = true;
                        }
                    }
                    Next::Wait => {
                        let row = *sent_rows.last().unwrap();
                        run.took(row, Outcome::Sent);
                    }
                    Next::Done | Next::Stopped(_) => break,
                }
            }
            prop_assert!(run.sent() + run.refused().len() <= rows);
            if run.is_over() {
                prop_assert!(!matches!(run.step(), Next::Send(_) | Next::Wait));
            }
        }
    }
}
