//! The board's rows by request: the tasks one submit made (an image each,
//! a language each) are one row, not N rows that read alike.

use media_gen_ui::store::record::TaskRecord;

/// Whether `a` and `b` were made by the same submit: the same task, or
/// both submitted here, of one kind, at the same instant (a submit stores
/// its tasks with one time). Tasks looked up by id were not submitted here
/// and stand alone. The one rule for a request's tasks: the board's rows,
/// a task page's images, downloads and sibling translations.
pub fn same_request(a: &TaskRecord, b: &TaskRecord) -> bool {
    a.is(b.kind, &b.task_id)
        || (a.submitted_here()
            && b.submitted_here()
            && a.kind == b.kind
            && a.submitted_at == b.submitted_at)
}

/// `records` (newest first, as shown) gathered by request, in the order of
/// each request's first task; within a request, in submit order.
pub fn by_request<'a>(records: impl Iterator<Item = &'a TaskRecord>) -> Vec<Vec<TaskRecord>> {
    let mut requests: Vec<Vec<TaskRecord>> = Vec::new();
    for record in records {
        match requests
            .iter_mut()
            .rev()
            .take(8)
            .find(|request| same_request(&request[0], record))
        {
            Some(request) => request.insert(0, record.clone()),
            None => requests.push(vec![record.clone()]),
        }
    }
    requests
}

#[cfg(test)]
mod tests {
    use super::*;
    use media_gen_api::{ImageGenerateRequest, Request, TaskKind};

    fn submitted(id: &str, at: f64) -> TaskRecord {
        let request = Request::ImageGenerate(ImageGenerateRequest {
            prompt: "p".into(),
            ..Default::default()
        });
        TaskRecord::submitted(&request, id, at)
    }

    fn ids(requests: &[Vec<TaskRecord>]) -> Vec<Vec<&str>> {
        requests
            .iter()
            .map(|request| request.iter().map(|r| r.task_id.as_str()).collect())
            .collect()
    }

    #[test]
    fn the_tasks_of_one_submit_are_one_row_in_submit_order() {
        // Stored oldest first: a1 a2 a3 (one submit), b1, then c1 c2.
        let stored = [
            submitted("a1", 1.0),
            submitted("a2", 1.0),
            submitted("a3", 1.0),
            submitted("b1", 2.0),
            submitted("c1", 3.0),
            submitted("c2", 3.0),
        ];
        let requests = by_request(stored.iter().rev());
        assert_eq!(
            ids(&requests),
            [vec!["c1", "c2"], vec!["b1"], vec!["a1", "a2", "a3"]]
        );
    }

    #[test]
    fn tasks_looked_up_by_id_stand_alone() {
        let a = TaskRecord::followed(TaskKind::ImageGenerate, "x1", 5.0);
        let b = TaskRecord::followed(TaskKind::ImageGenerate, "x2", 5.0);
        assert!(!same_request(&a, &b));
        assert!(same_request(&a, &a), "a task is of its own request");
        assert_eq!(by_request([a, b].iter()).len(), 2);
    }
}
