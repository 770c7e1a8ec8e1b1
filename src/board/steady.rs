//! The board's list kept still under the pointer: while the pointer is over
//! it, a removed row leaves a placeholder of its height (with "Undo") and
//! new rows wait, counted, until the pointer leaves. Otherwise a row added
//! at the top, or one taken out, moves every row below it, and the next
//! click lands on another task's button.

use leptos::prelude::*;
use media_gen_api::TaskKey;
use wasm_bindgen::JsCast;

use super::Board;
use media_gen_ui::store::record::TaskRecord;

/// A row of the list.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    /// The tasks of one request on the board (one, or one per image or
    /// language), in submit order.
    Request(Vec<TaskRecord>),
    /// A task removed while the pointer was over the list: its place.
    Gone(Box<TaskRecord>),
}

impl Row {
    /// The task that names the row: a request's first.
    pub fn first(&self) -> Option<&TaskRecord> {
        match self {
            Row::Request(records) => records.first(),
            Row::Gone(record) => Some(record),
        }
    }

    /// What tells rows apart for the list (a row is drawn anew when one of
    /// its tasks changes).
    pub fn key(&self) -> (Option<TaskKey>, u64, usize, bool) {
        let first = self.first().map(TaskRecord::task_key);
        match self {
            Row::Request(records) => {
                let changed = records
                    .iter()
                    .fold(0u64, |sum, r| sum.rotate_left(5) ^ r.updated_at.to_bits());
                (first, changed, records.len(), false)
            }
            Row::Gone(_) => (first, 0, 1, true),
        }
    }
}

/// Whether, and as what, the list is held still.
#[derive(Debug, Clone, Copy)]
pub struct Steady {
    /// The rows shown when the pointer came over the list; `None` when it
    /// is elsewhere.
    held: RwSignal<Option<Vec<TaskKey>>>,
    /// The height of the row removed last (CSS px), for its placeholder.
    gone_height: RwSignal<f64>,
}

impl Steady {
    /// A list not held.
    pub fn new() -> Steady {
        Steady {
            held: RwSignal::new(None),
            gone_height: RwSignal::new(0.0),
        }
    }

    /// The pointer came over the list showing `shown`.
    pub fn hold(self, shown: Vec<TaskKey>) {
        self.held.set(Some(shown));
    }

    /// Whether the list is held now.
    pub fn is_held(self) -> bool {
        self.held.with_untracked(Option::is_some)
    }

    /// The pointer left the list: show it as it is now. Chrome also says
    /// the pointer left when the row under it is taken out, though it is
    /// still over the list: only a pointer outside the list's box counts.
    pub fn release(self, event: &web_sys::PointerEvent) {
        let list = event
            .current_target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok());
        let (x, y) = (f64::from(event.client_x()), f64::from(event.client_y()));
        let still_over = list.is_some_and(|list| {
            let area = list.get_bounding_client_rect();
            (area.left()..area.right()).contains(&x) && (area.top()..area.bottom()).contains(&y)
        });
        if !still_over {
            self.held.set(None);
        }
    }

    /// A press in the list (pointer down, or a key on a focused button),
    /// before its click: when it is on a row's "Remove", note the row's
    /// height while the row is still there.
    pub fn pressed(self, event: &web_sys::Event) {
        let row = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            .filter(|target| target.closest(".remove").ok().flatten().is_some())
            .and_then(|target| target.closest("li.task-row").ok().flatten());
        if let Some(row) = row {
            self.gone_height
                .set(row.get_bounding_client_rect().height());
        }
    }

    /// The rows to draw from `requests` (the tasks the filters let
    /// through, by request, in order), and how many new ones wait.
    pub fn rows(self, board: Board, requests: Vec<Vec<TaskRecord>>) -> (Vec<Row>, usize) {
        let Some(held) = self.held.get() else {
            return (requests.into_iter().map(Row::Request).collect(), 0);
        };
        let names = |request: &Vec<TaskRecord>, key: &TaskKey| {
            request
                .first()
                .is_some_and(|first| first.is(key.kind, &key.id))
        };
        let waiting = requests
            .iter()
            .filter(|request| !held.iter().any(|key| names(request, key)))
            .count();
        let rows = held
            .iter()
            .filter_map(|key| {
                let on_board = requests
                    .iter()
                    .find(|request| names(request, key))
                    .cloned()
                    .map(Row::Request);
                on_board.or_else(|| {
                    board.removed.with(|removed| {
                        removed
                            .as_ref()
                            .and_then(|removed| removed.find(key.kind, &key.id))
                            .map(|record| Row::Gone(Box::new(record.clone())))
                    })
                })
            })
            .collect();
        (rows, waiting)
    }

    /// The placeholder's height, as a CSS value: in hundredths of a pixel
    /// written as integers (formatting an `f64` would bring Rust's float
    /// printing into the wasm: 5 KB gzipped).
    pub fn gone_height(self) -> String {
        let hundredths = (self.gone_height.get() * 100.0).round() as i64;
        format!("{}.{:02}px", hundredths / 100, hundredths % 100)
    }
}

/// The place of a task removed while the pointer was over the list.
#[component]
pub fn GoneRow(record: TaskRecord, steady: Steady) -> impl IntoView {
    let board = Board::expect();
    view! {
        <li class="task-row task-row--gone" data-task-id=record.task_id.clone()
            style:min-height=move || steady.gone_height()>
            <p class="hint">{format!("Removed task {}.", record.task_id)}</p>
            <button type="button" class="secondary undo-row" on:click=move |_| { board.undo_remove(); }>"Undo"</button>
        </li>
    }
}
