//! Task ids shaped like the real service's (service-facts.md).

use media_gen_api::TaskKind;

/// The id prefix per kind: `i2v-`, `vt-`, `i2is-`.
pub fn prefix(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::ImageToVideo => "i2v-",
        TaskKind::VideoTranslate => "vt-",
        TaskKind::ImageGenerate => "i2is-",
    }
}

/// A fresh id: the kind's prefix and 32 random lowercase hex digits.
pub fn new_task_id(kind: TaskKind) -> String {
    format!("{}{:032x}", prefix(kind), fastrand::u128(..))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_the_real_shape() {
        for (kind, prefix) in [
            (TaskKind::ImageToVideo, "i2v-"),
            (TaskKind::VideoTranslate, "vt-"),
            (TaskKind::ImageGenerate, "i2is-"),
        ] {
            let id = new_task_id(kind);
            let hex = id.strip_prefix(prefix).unwrap();
            assert_eq!(hex.len(), 32, "{id}");
            assert!(
                hex.chars()
                    .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
                "{id}"
            );
        }
        assert_ne!(
            new_task_id(TaskKind::ImageToVideo),
            new_task_id(TaskKind::ImageToVideo)
        );
    }
}
