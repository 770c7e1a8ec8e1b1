//! The model's randomness: SplitMix64 from a seed, so the same seed and the
//! same requests give the same tasks (a test can replay a run), with no
//! dependency and nothing of the platform's.

/// A seeded source of random numbers.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A source starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        // The top 53 bits: every such number exactly representable.
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// 128 random bits.
    pub fn next_u128(&mut self) -> u128 {
        (u128::from(self.next_u64()) << 64) | u128::from(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers_and_units_stay_below_one() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..1_000 {
            assert_eq!(a.next_u64(), b.next_u64());
            let unit = a.unit();
            b.unit();
            assert!((0.0..1.0).contains(&unit), "{unit}");
        }
        assert_ne!(Rng::new(7).next_u64(), Rng::new(8).next_u64());
    }
}
