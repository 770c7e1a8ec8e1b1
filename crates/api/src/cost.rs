//! What a click costs, said before it: how many tasks a submit creates
//! (one request, a batch, or one request on every model), and where the
//! site counts each person's tasks a day, what is left and whether it
//! covers them. A submit the budget cannot cover is refused before
//! anything is sent, so no half of a batch is made.

/// A person's day as the site counts it (`/capabilities`' person).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    /// Tasks left today.
    pub left: u32,
    /// Tasks a day.
    pub per_day: u32,
}

/// What a submit of `tasks` tasks would cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cost {
    /// Said on the button and beside it: "Creates 4 tasks · 36 of your
    /// 40 left today".
    pub said: String,
    /// Why it may not be sent, when the day's budget cannot cover it.
    pub refused: Option<String>,
}

/// "1 task", "4 tasks".
fn tasks_in_words(tasks: u64) -> String {
    match tasks {
        1 => "1 task".to_owned(),
        tasks => format!("{tasks} tasks"),
    }
}

/// The cost of a submit of `tasks` tasks, given what the site allows
/// (`None` where it counts nothing).
pub fn cost_of(tasks: u64, allowance: Option<Allowance>) -> Cost {
    let creates = format!("Creates {}", tasks_in_words(tasks));
    let Some(Allowance { left, per_day }) = allowance else {
        return Cost {
            said: creates,
            refused: None,
        };
    };
    if tasks > u64::from(left) {
        return Cost {
            said: format!("{creates} · {left} of your {per_day} left today"),
            refused: Some(format!(
                "This creates {}, and {left} of your {per_day} tasks are left today: \
                 make fewer, or wait until tomorrow (UTC)",
                tasks_in_words(tasks)
            )),
        };
    }
    let after = u64::from(left) - tasks;
    Cost {
        said: format!("{creates} · {after} of your {per_day} left today"),
        refused: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_submit_says_what_it_creates_and_what_is_left_after() {
        assert_eq!(cost_of(1, None).said, "Creates 1 task");
        let allowance = Allowance {
            left: 40,
            per_day: 40,
        };
        let four = cost_of(4, Some(allowance));
        assert_eq!(four.said, "Creates 4 tasks · 36 of your 40 left today");
        assert_eq!(four.refused, None);
        let too_many = cost_of(44, Some(allowance));
        assert_eq!(
            too_many.refused.as_deref(),
            Some("This creates 44 tasks, and 40 of your 40 tasks are left today: make fewer, or wait until tomorrow (UTC)")
        );
    }

    proptest! {
        #[test]
        fn refused_exactly_when_the_day_cannot_cover_it(tasks in 0u64..200, left in 0u32..100, extra in 0u32..100) {
            let allowance = Allowance { left, per_day: left + extra };
            let cost = cost_of(tasks, Some(allowance));
            prop_assert_eq!(cost.refused.is_some(), tasks > u64::from(left));
            prop_assert!(cost.said.starts_with("Creates "));
            prop_assert!(cost_of(tasks, None).refused.is_none());
        }
    }
}
