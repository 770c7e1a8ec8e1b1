//! Reading test counts from the output of cargo's and wasm-bindgen's test harnesses.

use std::ops::AddAssign;

/// Test counts summed over every `test result:` line of a run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Tests that passed.
    pub passed: u32,
    /// Tests that failed.
    pub failed: u32,
    /// Tests marked `#[ignore]`.
    pub ignored: u32,
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Self) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.ignored += other.ignored;
    }
}

/// Sum the counts of every `test result: ok. 3 passed; 0 failed; 1 ignored; ...` line.
pub fn counts(output: &str) -> Counts {
    let mut total = Counts::default();
    for line in output.lines() {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            continue;
        };
        for part in rest.split(';') {
            let mut words = part.split_whitespace().rev();
            let (Some(label), Some(number)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(number) = number.parse::<u32>() else {
                continue;
            };
            match label {
                "passed" => total.passed += number,
                "failed" => total.failed += number,
                "ignored" => total.ignored += number,
                _ => {}
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_every_result_line() {
        let output = "\
running 3 tests
test a ... ok
test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.20s
";
        assert_eq!(
            counts(output),
            Counts {
                passed: 5,
                failed: 1,
                ignored: 1
            }
        );
    }

    #[test]
    fn output_without_result_lines_counts_nothing() {
        assert_eq!(
            counts("no tests to run!\nerror: something\n"),
            Counts::default()
        );
    }

    #[test]
    fn a_test_named_like_a_result_line_is_not_counted() {
        assert_eq!(
            counts("test test_result_passed ... ok\n"),
            Counts::default()
        );
    }
}
