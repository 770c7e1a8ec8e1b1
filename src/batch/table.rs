//! A batch as a table: a row a request, a cell a field, each problem in
//! the cell it comes from (the cell marked invalid and described by it),
//! a cell mended where it is and its row checked again alone. The cells
//! are drawn once for each batch read; a mended cell only redraws what is
//! said of its row, so the focus stays where Tab takes it.

use leptos::prelude::*;
use media_gen_api::batch::{Batch, Row};
use media_gen_api::validate::Context;

/// The batch read from what was pasted or dropped, and which reading it
/// is (a new reading draws the table anew; a mended cell does not).
#[derive(Debug, Clone, Copy)]
pub struct Read {
    /// The batch, or why the text makes none.
    pub batch: RwSignal<Option<Result<Batch, String>>>,
    /// Counts the readings.
    pub reading: RwSignal<u32>,
}

impl Read {
    /// Nothing read yet.
    pub fn new() -> Read {
        Read {
            batch: RwSignal::new(None),
            reading: RwSignal::new(0),
        }
    }

    /// A new reading.
    pub fn set(self, batch: Option<Result<Batch, String>>) {
        self.batch.set(batch);
        self.reading.update(|reading| *reading += 1);
    }

    /// Row `index` as it is now (tracked), with what `with` makes of it.
    fn row<T: Default>(self, index: usize, with: impl FnOnce(&Row) -> T) -> T {
        self.batch.with(|batch| match batch {
            Some(Ok(batch)) => batch.rows.get(index).map(with).unwrap_or_default(),
            _ => T::default(),
        })
    }
}

/// What is said of row `index`: ready, or its problems, each naming its
/// field.
fn verdict(read: Read, index: usize) -> impl IntoView {
    move || {
        read.row(index, |row| {
            let errors = row.problems.iter().filter(|p| p.error).count();
            let said = match errors {
                0 => "Ready".to_owned(),
                1 => "1 problem".to_owned(),
                count => format!("{count} problems"),
            };
            let problems: Vec<_> = row
                .problems
                .iter()
                .map(|problem| {
                    let class = if problem.error { "problem problem--error" } else { "problem problem--warning" };
                    view! { <li class=class>{problem.message.clone()}</li> }
                })
                .collect();
            Some(view! {
                <span class="batch__verdict">{said}</span>
                {(!problems.is_empty()).then(|| view! { <ul class="batch__problems">{problems}</ul> })}
            })
        })
    }
}

/// The table of the batch `read`.
#[component]
pub fn BatchTable(read: Read) -> impl IntoView {
    let edit = move |row: usize, column: usize, value: String| {
        read.batch.update(|batch| {
            if let Some(Ok(batch)) = batch {
                batch.set_cell(row, column, &value, &Context::default());
            }
        });
    };
    move || {
        read.reading.track();
        let (columns, rows) = read.batch.with_untracked(|batch| match batch {
            Some(Ok(batch)) => (batch.columns.clone(), batch.rows.clone()),
            _ => (Vec::new(), Vec::new()),
        });
        (!rows.is_empty()).then(|| {
            let head = columns
                .iter()
                .map(|name| view! { <th scope="col">{name.clone()}</th> })
                .collect_view();
            let body = rows
                .into_iter()
                .enumerate()
                .map(|(index, row)| {
                    let problems_id = format!("batch-{index}-problems");
                    let cells = row
                        .cells
                        .iter()
                        .enumerate()
                        .map(|(column, value)| {
                            let name = columns.get(column).cloned().unwrap_or_default();
                            let wrong = move || {
                                read.row(index, |row| {
                                    row.problems.iter().any(|p| p.error && p.column == Some(column))
                                })
                            };
                            let described = problems_id.clone();
                            view! {
                                <td>
                                    <input class="batch__cell" value=value.clone()
                                        aria-label=format!("{name}, line {}", row.line)
                                        aria-invalid=move || wrong().to_string()
                                        aria-describedby=move || wrong().then(|| described.clone())
                                        on:change=move |event| edit(index, column, event_target_value(&event))/>
                                </td>
                            }
                        })
                        .collect_view();
                    let ready = move || read.row(index, Row::is_ready).to_string();
                    view! {
                        <tr data-ready=ready>
                            <th scope="row">{row.line}</th>
                            {cells}
                            <td id=problems_id>{verdict(read, index)}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="batch__scroll">
                    <table id="batch-table" class="batch__table">
                        <caption class="visually-hidden">"The batch, a row a job"</caption>
                        <thead><tr><th scope="col">"Line"</th>{head}<th scope="col">"Checked"</th></tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            }
        })
    }
}
