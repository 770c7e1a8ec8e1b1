//! The board's filters: by kind, by where a task is in its life, by text,
//! and the organising ones (starred, a collection, a model, days, a kept
//! copy), each as the library's listing names it, so the address, the
//! board and the library ask the same thing.

use media_gen_api::library::Day;
use media_gen_api::{Model, Request, TaskKind, TaskStatus};

use media_gen_ui::store::record::TaskRecord;

/// Which tasks to show by status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    /// Every task.
    All,
    /// Tasks still followed: pending or generating.
    Active,
    /// `SUCCEEDED`.
    Succeeded,
    /// `FAILED`, or no longer readable.
    Failed,
}

impl StatusFilter {
    /// Every filter, in the order offered.
    pub const ALL: [StatusFilter; 4] = [
        StatusFilter::All,
        StatusFilter::Active,
        StatusFilter::Succeeded,
        StatusFilter::Failed,
    ];

    /// The value in the `<select>`.
    pub fn value(self) -> &'static str {
        match self {
            StatusFilter::All => "all",
            StatusFilter::Active => "active",
            StatusFilter::Succeeded => "succeeded",
            StatusFilter::Failed => "failed",
        }
    }

    /// The words shown for it.
    pub fn label(self) -> &'static str {
        match self {
            StatusFilter::All => "Any status",
            StatusFilter::Active => "In progress",
            StatusFilter::Succeeded => "Succeeded",
            StatusFilter::Failed => "Failed",
        }
    }

    /// The filter with this `<select>` value.
    pub fn from_value(value: &str) -> Option<StatusFilter> {
        StatusFilter::ALL.into_iter().find(|f| f.value() == value)
    }
}

/// Whether `record` passes both filters (`kind: None` is any kind).
pub fn shows(record: &TaskRecord, kind: Option<TaskKind>, status: StatusFilter) -> bool {
    let kind_ok = kind.is_none_or(|kind| record.kind == kind);
    let status_ok = match status {
        StatusFilter::All => true,
        StatusFilter::Active => record.is_active(),
        StatusFilter::Succeeded => record.status == TaskStatus::Succeeded,
        StatusFilter::Failed => record.status == TaskStatus::Failed || record.error.is_some(),
    };
    kind_ok && status_ok
}

/// Whether `record` matches the text filter `query`: its id, or any text
/// of its request (prompt, name, URLs), ignoring case. An empty query
/// matches every task.
pub fn matches_text(record: &TaskRecord, query: &str) -> bool {
    let query = media_gen_ui::text::lower(query.trim());
    if query.is_empty() {
        return true;
    }
    let found = |text: &str| media_gen_ui::text::lower(text).contains(&query);
    let request = record.request.as_ref().map(Request::to_json);
    found(&record.task_id)
        || request
            .as_ref()
            .is_some_and(|json| strings(json).any(found))
}

/// The filters that organise a library: each narrows the board to the
/// requests that have it; the default narrows nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Organised {
    /// Only starred requests.
    pub starred: bool,
    /// Only requests in this collection (its id).
    pub collection: Option<String>,
    /// Only image-to-video requests of this model.
    pub model: Option<Model>,
    /// Only requests made on or after this day (UTC).
    pub from: Option<Day>,
    /// Only requests made on or before this day (UTC).
    pub to: Option<Day>,
    /// Only requests with a result the site kept.
    pub kept: bool,
}

impl Organised {
    /// Whether `record`'s request passes.
    pub fn passes(&self, record: &TaskRecord) -> bool {
        let model = match &record.request {
            Some(Request::ImageToVideo(request)) => request.model,
            _ => None,
        };
        let at = record.submitted_at as u64;
        (!self.starred || record.starred)
            && self
                .collection
                .as_ref()
                .is_none_or(|collection| record.collections.contains(collection))
            && self.model.is_none_or(|wanted| model == Some(wanted))
            && self.from.as_ref().is_none_or(|from| at >= from.start())
            && self.to.as_ref().is_none_or(|to| at < to.end())
            && (!self.kept
                || record
                    .task
                    .as_ref()
                    .is_some_and(media_gen_api::AnyTask::has_kept))
    }

    /// Whether it narrows anything.
    pub fn is_any(&self) -> bool {
        *self != Organised::default()
    }
}

/// The board's filters as its address carries them (`?kind=image_generate&status=failed&q=fox`),
/// so a reload, Back from a task, or a shared link shows the same tasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterQuery {
    /// The kind, or any.
    pub kind: Option<TaskKind>,
    /// Where tasks are in their life.
    pub status: StatusFilter,
    /// The text filter.
    pub text: String,
    /// The organising filters.
    pub organised: Organised,
}

impl FilterQuery {
    /// The filters in a query, read by `get` (a parameter's decoded value);
    /// values that name nothing are left at their defaults.
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> FilterQuery {
        FilterQuery {
            kind: get("kind").and_then(|kind| kind.parse().ok()),
            status: get("status")
                .and_then(|status| StatusFilter::from_value(&status))
                .unwrap_or(StatusFilter::All),
            text: get("q").unwrap_or_default(),
            organised: Organised {
                starred: get("starred").is_some_and(|on| on == "1" || on == "true"),
                collection: get("collection").filter(|id| !id.is_empty()),
                model: get("model").and_then(|model| model.parse().ok()),
                from: get("from").and_then(|day| Day::parse("from", &day).ok()),
                to: get("to").and_then(|day| Day::parse("to", &day).ok()),
                kept: get("kept").is_some_and(|on| on == "1" || on == "true"),
            },
        }
    }

    /// Whether `record` passes every filter.
    pub fn passes(&self, record: &TaskRecord) -> bool {
        shows(record, self.kind, self.status)
            && self.organised.passes(record)
            && matches_text(record, &self.text)
    }

    /// The query for these filters (`?kind=…&status=…&q=…`, defaults left
    /// out), or `""` for none.
    pub fn to_query(&self) -> String {
        let mut parts = Vec::new();
        if let Some(kind) = self.kind {
            parts.push(format!("kind={}", kind.as_str()));
        }
        if self.status != StatusFilter::All {
            parts.push(format!("status={}", self.status.value()));
        }
        if !self.text.is_empty() {
            parts.push(format!("q={}", media_gen_api::path::segment(&self.text)));
        }
        let organised = &self.organised;
        if organised.starred {
            parts.push("starred=1".to_owned());
        }
        if let Some(collection) = &organised.collection {
            parts.push(format!(
                "collection={}",
                media_gen_api::path::segment(collection)
            ));
        }
        if let Some(model) = organised.model {
            parts.push(format!("model={}", model.as_str()));
        }
        for (name, day) in [("from", &organised.from), ("to", &organised.to)] {
            if let Some(day) = day {
                parts.push(format!("{name}={}", day.as_str()));
            }
        }
        if organised.kept {
            parts.push("kept=1".to_owned());
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        }
    }
}

/// Every string inside a JSON value.
fn strings(value: &serde_json::Value) -> Box<dyn Iterator<Item = &str> + '_> {
    match value {
        serde_json::Value::String(text) => Box::new(std::iter::once(text.as_str())),
        serde_json::Value::Array(items) => Box::new(items.iter().flat_map(strings)),
        serde_json::Value::Object(map) => Box::new(map.values().flat_map(strings)),
        _ => Box::new(std::iter::empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: TaskKind, status: TaskStatus, error: Option<&str>) -> TaskRecord {
        let mut record = TaskRecord::followed(kind, "t", 0.0);
        record.status = status;
        record.error = error.map(str::to_owned);
        record
    }

    #[test]
    fn filters_by_kind_and_status() {
        let done = record(TaskKind::ImageGenerate, TaskStatus::Succeeded, None);
        let running = record(TaskKind::ImageToVideo, TaskStatus::Generating, None);
        let failed = record(TaskKind::VideoTranslate, TaskStatus::Failed, None);
        let lost = record(
            TaskKind::VideoTranslate,
            TaskStatus::Pending,
            Some("HTTP 404"),
        );
        let all = [&done, &running, &failed, &lost];
        let count = |kind, status| all.iter().filter(|r| shows(r, kind, status)).count();
        assert_eq!(count(None, StatusFilter::All), 4);
        assert_eq!(count(None, StatusFilter::Active), 1);
        assert_eq!(count(None, StatusFilter::Succeeded), 1);
        assert_eq!(count(None, StatusFilter::Failed), 2);
        assert_eq!(count(Some(TaskKind::VideoTranslate), StatusFilter::All), 2);
        assert_eq!(
            count(Some(TaskKind::ImageGenerate), StatusFilter::Failed),
            0
        );
    }

    #[test]
    fn filters_travel_in_the_address_and_back() {
        let filters = FilterQuery {
            kind: Some(TaskKind::ImageGenerate),
            status: StatusFilter::Failed,
            text: "red fox & co?".to_owned(),
            organised: Organised {
                starred: true,
                collection: Some("c-1".to_owned()),
                model: Some(Model::Kl),
                from: Day::parse("from", "2026-12-01").ok(),
                to: Day::parse("to", "2026-12-07").ok(),
                kept: true,
            },
        };
        let query = filters.to_query();
        assert_eq!(
            query,
            "?kind=image_generate&status=failed&q=red%20fox%20%26%20co%3F\
             &starred=1&collection=c-1&model=KL&from=2026-12-01&to=2026-12-07&kept=1"
        );
        let decoded = |name: &str| {
            query
                .trim_start_matches('?')
                .split('&')
                .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
                .map(media_gen_api::path::decode_segment)
        };
        assert_eq!(FilterQuery::from_params(decoded), filters);
        let none = FilterQuery::from_params(|_| None);
        assert_eq!(none.to_query(), "");
        // Values that name nothing are the defaults.
        let odd = FilterQuery::from_params(|name| {
            Some(if name == "q" {
                String::new()
            } else {
                "movie".to_owned()
            })
        });
        assert_eq!((odd.kind, odd.status), (None, StatusFilter::All));
        assert_eq!(
            (
                odd.organised.model,
                odd.organised.from,
                odd.organised.starred
            ),
            (None, None, false)
        );
    }

    #[test]
    fn the_organising_filters_pass_what_the_request_has() {
        let request = |model: Model| {
            Request::ImageToVideo(media_gen_api::ImageToVideoRequest {
                model: Some(model),
                prompt: "p".into(),
                ..Default::default()
            })
        };
        // 2026-12-03T12:00Z.
        let noon = 1_796_299_200_000.0;
        let mut record = TaskRecord::submitted(&request(Model::S), "v-1", noon);
        let passes = |organised: Organised, record: &TaskRecord| organised.passes(record);
        assert!(passes(Organised::default(), &record));
        let starred = Organised {
            starred: true,
            ..Organised::default()
        };
        assert!(!passes(starred.clone(), &record));
        record.starred = true;
        assert!(passes(starred, &record));
        let collected = Organised {
            collection: Some("c-2".into()),
            ..Organised::default()
        };
        assert!(!passes(collected.clone(), &record));
        record.collections.push("c-2".into());
        assert!(passes(collected, &record));
        let model = |model| Organised {
            model: Some(model),
            ..Organised::default()
        };
        assert!(passes(model(Model::S), &record) && !passes(model(Model::V), &record));
        let days = |from: &str, to: &str| Organised {
            from: Day::parse("from", from).ok(),
            to: Day::parse("to", to).ok(),
            ..Organised::default()
        };
        assert!(
            passes(days("2026-12-03", "2026-12-03"), &record),
            "the day itself"
        );
        assert!(!passes(days("2026-12-04", "2026-12-09"), &record));
        assert!(!passes(days("2026-11-01", "2026-12-02"), &record));
        let kept = Organised {
            kept: true,
            ..Organised::default()
        };
        assert!(!passes(kept, &record), "nothing kept yet");
    }

    #[test]
    fn select_values_round_trip() {
        for filter in StatusFilter::ALL {
            assert_eq!(StatusFilter::from_value(filter.value()), Some(filter));
        }
        assert_eq!(StatusFilter::from_value("nope"), None);
    }

    #[test]
    fn text_filter_looks_at_the_id_and_the_request_texts() {
        let request = Request::ImageGenerate(media_gen_api::ImageGenerateRequest {
            prompt: "A red Fox at dawn".into(),
            reference_images: vec!["https://x.io/woods.png".into()],
            generate_count: Some(2),
            ..Default::default()
        });
        let record = TaskRecord::submitted(&request, "ig-42", 0.0);
        for query in ["", "  ", "fox", "RED FOX", "woods.png", "ig-4"] {
            assert!(matches_text(&record, query), "{query:?}");
        }
        for query in ["wolf", "7", "ig-43"] {
            assert!(!matches_text(&record, query), "{query:?}");
        }
    }
}
