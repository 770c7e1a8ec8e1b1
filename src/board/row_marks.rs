//! What each row of the board carries to organise it: a box that chooses
//! its request (Shift for a range) and a star, both plain controls a
//! keyboard reaches, named after the row.

use leptos::prelude::*;
use media_gen_api::TaskKey;

use super::organise::Selection;
use super::Board;

/// The box and the star of the row whose first task is `row`, named by
/// `name` (the row's link name).
#[component]
pub fn RowMarks(row: TaskKey, name: String) -> impl IntoView {
    let board = Board::expect();
    let selection = Selection::expect();
    let row = StoredValue::new(row);
    // Read from the records, not the row's copy: a star does not redraw
    // the row, so the button keeps the keyboard's focus.
    let starred = move || {
        row.with_value(|row| {
            board.records.with(|records| {
                records
                    .iter()
                    .find(|r| r.is(row.kind, &row.id))
                    .is_some_and(|r| r.starred)
            })
        })
    };
    let toggle_star = move |_| {
        let on = !starred();
        row.with_value(|row| board.star(std::slice::from_ref(row), on));
    };
    let pick = move |ev: leptos::ev::MouseEvent| {
        let on = event_target_checked(&ev);
        row.with_value(|row| selection.choose(row, on, ev.shift_key()));
    };
    view! {
        <span class="row-marks">
            <input type="checkbox" class="row-pick" aria-label=format!("Select {name}")
                prop:checked=move || row.with_value(|row| selection.has(row))
                on:click=pick/>
            <button type="button" class="star" aria-label=format!("Star {name}")
                aria-pressed=move || if starred() { "true" } else { "false" }
                on:click=toggle_star>
                <span aria-hidden="true">{move || if starred() { "★" } else { "☆" }}</span>
            </button>
        </span>
    }
}
