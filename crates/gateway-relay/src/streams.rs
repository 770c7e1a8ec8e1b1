//! How many event streams may be open: a few per visitor (a page needs
//! one) and a total below the cap on connections, so a visitor holding
//! streams cannot take the room other requests need. A stream holds its
//! slot while it lives ([`StreamSlot`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Why a stream was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// This visitor holds as many as one may.
    Visitor,
    /// The gateway holds as many as it may.
    Gateway,
}

#[derive(Debug, Default)]
struct Counts {
    by_visitor: HashMap<IpAddr, usize>,
    total: usize,
}

/// The open streams, counted.
#[derive(Debug)]
pub struct StreamSlots {
    per_visitor: usize,
    max: usize,
    counts: Arc<Mutex<Counts>>,
}

/// One open stream's place; given back when dropped.
#[derive(Debug)]
pub struct StreamSlot {
    visitor: IpAddr,
    counts: Arc<Mutex<Counts>>,
}

impl StreamSlots {
    /// At most `per_visitor` streams per visitor and `max` in all.
    pub fn new(per_visitor: usize, max: usize) -> StreamSlots {
        StreamSlots {
            per_visitor,
            max,
            counts: Arc::default(),
        }
    }

    /// A place for a stream of `visitor` (counted by
    /// [`crate::client_address::visitor`]), or why there is none.
    pub fn take(&self, visitor: IpAddr) -> Result<StreamSlot, Full> {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let held = counts.by_visitor.get(&visitor).copied().unwrap_or(0);
        if held >= self.per_visitor {
            return Err(Full::Visitor);
        }
        if counts.total >= self.max {
            return Err(Full::Gateway);
        }
        counts.total += 1;
        *counts.by_visitor.entry(visitor).or_insert(0) += 1;
        Ok(StreamSlot {
            visitor,
            counts: Arc::clone(&self.counts),
        })
    }

    /// Streams open now.
    pub fn open(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.total = counts.total.saturating_sub(1);
        if let Some(held) = counts.by_visitor.get_mut(&self.visitor) {
            *held -= 1;
            if *held == 0 {
                counts.by_visitor.remove(&self.visitor);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn each_visitor_has_a_few_and_all_together_a_bound() {
        let slots = StreamSlots::new(2, 3);
        let a1 = slots.take(ip("192.0.2.1")).unwrap();
        let _a2 = slots.take(ip("192.0.2.1")).unwrap();
        assert_eq!(slots.take(ip("192.0.2.1")).unwrap_err(), Full::Visitor);
        let _b1 = slots.take(ip("192.0.2.2")).unwrap();
        assert_eq!(slots.take(ip("192.0.2.3")).unwrap_err(), Full::Gateway);
        // A stream that ends gives its place back.
        drop(a1);
        assert_eq!(slots.open(), 2);
        assert!(slots.take(ip("192.0.2.3")).is_ok());
    }
}
