//! A batch: many requests of one kind from a list a person pastes (one
//! prompt a line) or a CSV file they drop, whose columns are the service's
//! field names. Each row is a request: the form's own values, with the
//! row's cells over them; each is checked by the kind's rules as the form
//! checks one, its problems put in the cells they come from, so a table can
//! show them in place and a cell edited there is checked again alone.
//!
//! A cell of a list (`reference_images`, `target_languages`) separates its
//! items with `;`. A cell of an address that is not one (`cat.png`) names a
//! file dropped with the CSV: the page uploads it and gives its address
//! here ([`Batch::set_file`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::kind::TaskKind;
use crate::request::Request;
use crate::validate::{Context, Severity};
use crate::values::{AspectRatio, ImageQuality, ImageRatio, Model, Module, Resolution};

/// The most rows one batch holds.
pub const MAX_ROWS: usize = 1_000;

/// What separates a list's items in one cell.
pub const LIST_SEPARATOR: char = ';';

/// What a column's cells hold.
#[derive(Debug, Clone, Copy)]
pub enum Holds {
    /// Text, as it is.
    Text,
    /// One of a closed set of values (`V`, `16:9`), checked by its parser.
    Choice(fn(&str) -> Result<(), String>),
    /// A whole number.
    Whole,
    /// `true` or `false` (also `yes`/`no`, `1`/`0`).
    Flag,
    /// Items separated by [`LIST_SEPARATOR`].
    List,
    /// An address, or the name of a file dropped with the CSV.
    Address,
    /// Addresses or file names separated by [`LIST_SEPARATOR`].
    Addresses,
}

/// `text` checked as one of `T`'s values.
fn choice<T: std::str::FromStr<Err = crate::wire_enum::UnknownValue>>(
    text: &str,
) -> Result<(), String> {
    text.parse::<T>().map(drop).map_err(|unknown| {
        format!(
            "`{}` is not one of {}",
            unknown.value,
            unknown.allowed.join(", ")
        )
    })
}

/// The columns a batch of `kind` may have: the service's field names, in
/// the document's order, with what each holds.
pub fn columns(kind: TaskKind) -> &'static [(&'static str, Holds)] {
    match kind {
        TaskKind::ImageToVideo => &[
            ("model", Holds::Choice(choice::<Model>)),
            ("prompt", Holds::Text),
            ("aspect_ratio", Holds::Choice(choice::<AspectRatio>)),
            ("aspect_resolution", Holds::Choice(choice::<Resolution>)),
            ("duration", Holds::Whole),
            ("image_url", Holds::Address),
            ("end_image_url", Holds::Address),
            ("reference_images", Holds::Addresses),
            ("generate_audio", Holds::Flag),
            ("generate_count", Holds::Whole),
            ("callback_url", Holds::Text),
        ],
        TaskKind::VideoTranslate => &[
            ("video_url", Holds::Address),
            ("target_languages", Holds::List),
            ("speaker_num", Holds::Whole),
            ("translate_audio_only", Holds::Flag),
            ("enable_dynamic_duration", Holds::Flag),
            ("enable_caption", Holds::Flag),
            ("name", Holds::Text),
            ("callback_url", Holds::Text),
        ],
        TaskKind::ImageGenerate => &[
            ("prompt", Holds::Text),
            ("reference_images", Holds::Addresses),
            ("module", Holds::Choice(choice::<Module>)),
            ("generate_count", Holds::Whole),
            ("image_quality", Holds::Choice(choice::<ImageQuality>)),
            ("image_ratio", Holds::Choice(choice::<ImageRatio>)),
            ("callback_url", Holds::Text),
        ],
    }
}

/// The column a pasted list fills, one line a row: the prompt, or for a
/// translation the video's address.
pub fn list_column(kind: TaskKind) -> &'static str {
    match kind {
        TaskKind::VideoTranslate => "video_url",
        _ => "prompt",
    }
}

/// What a batch of `kind` starts from before its rows' cells: the form's
/// own first values (image-to-video: model V at 720p, 8 seconds).
pub fn starting_request(kind: TaskKind) -> Request {
    match kind {
        TaskKind::ImageToVideo => Request::ImageToVideo(crate::ImageToVideoRequest {
            model: Some(Model::V),
            aspect_resolution: Some(Resolution::P720),
            duration: Some(8),
            ..Default::default()
        }),
        TaskKind::VideoTranslate => Request::VideoTranslate(Default::default()),
        TaskKind::ImageGenerate => Request::ImageGenerate(Default::default()),
    }
}

/// A problem of one row, in the cell it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellProblem {
    /// The column it is in; `None` for one of a field with no column (a
    /// value the form gave).
    pub column: Option<usize>,
    /// The field and item it names (`reference_images[1]`).
    pub field: String,
    /// What is wrong, and the rule.
    pub message: String,
    /// Whether it keeps the row from being sent (else a warning).
    pub error: bool,
}

/// One row: its cells, the request they make, and its problems.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Its line in what was pasted or dropped (1 is the first; in a CSV,
    /// the header's).
    pub line: usize,
    /// Its cells, one a column.
    pub cells: Vec<String>,
    /// The request, when the cells make one.
    pub request: Option<Request>,
    /// Its problems.
    pub problems: Vec<CellProblem>,
}

impl Row {
    /// Whether it may be sent.
    pub fn is_ready(&self) -> bool {
        self.request.is_some() && !self.problems.iter().any(|problem| problem.error)
    }
}

/// How a row's fields become its request: [`read_json`] natively; a
/// browser module passes one that reads through what its pages already
/// read requests with, so it carries no second reader.
pub type ReadRequest = fn(TaskKind, Value) -> Result<Request, String>;

/// A row's fields read as a request by serde_json.
pub fn read_json(kind: TaskKind, fields: Value) -> Result<Request, String> {
    Request::from_json(kind, fields).map_err(|error| error.to_string())
}

/// Many requests of one kind, row by row.
#[derive(Debug, Clone)]
pub struct Batch {
    /// Their kind.
    pub kind: TaskKind,
    /// The columns, as the service names the fields.
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<Row>,
    /// The form's request, which each row's cells are laid over.
    base: Request,
    /// Dropped files' addresses, by file name.
    files: BTreeMap<String, String>,
    /// How a row's fields become its request.
    read: ReadRequest,
}

/// Why a list or file makes no batch at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// Nothing to send.
    #[error("No rows: a line a prompt, or a CSV with a header of field names and a row a request")]
    Empty,
    /// More rows than a batch holds.
    #[error("{0} rows: a batch holds at most {MAX_ROWS}")]
    TooMany(usize),
    /// A header that names no field of the kind.
    #[error("column `{column}` is not a field of {kind}{}", suggestion.as_ref().map(|name| format!(": did you mean `{name}`?")).unwrap_or_default())]
    UnknownColumn {
        /// The column as written.
        column: String,
        /// The kind.
        kind: TaskKind,
        /// The nearest field's name, when one is near.
        suggestion: Option<&'static str>,
    },
    /// A column named twice.
    #[error("column `{0}` is named twice")]
    Repeated(String),
    /// A line that could not be read as text.
    #[error("line {line} could not be read as text")]
    Unreadable {
        /// Where.
        line: usize,
    },
}

/// The field of `kind` nearest `name` as written, when one is near (a
/// typo, another case, spaces for underscores).
fn nearest_field(kind: TaskKind, name: &str) -> Option<&'static str> {
    let name = name.trim().to_lowercase().replace([' ', '-'], "_");
    columns(kind)
        .iter()
        .map(|(field, _)| (*field, strsim::levenshtein(field, &name)))
        .filter(|(field, distance)| *distance <= field.len() / 3 + 1)
        .min_by_key(|(_, distance)| *distance)
        .map(|(field, _)| field)
}

impl Batch {
    /// A row a line of `text` (blank lines skipped), each the form's
    /// request `base` with the line as its [`list_column`].
    pub fn from_lines(
        base: &Request,
        text: &str,
        context: &Context,
        read: ReadRequest,
    ) -> Result<Batch, BatchError> {
        let lines: Vec<(usize, String)> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(index, line)| (index + 1, line.trim().to_owned()))
            .collect();
        let columns = vec![list_column(base.kind()).to_owned()];
        Batch::made(
            base,
            columns,
            lines.into_iter().map(|(line, cell)| (line, vec![cell])),
            context,
            read,
        )
    }

    /// A row a record of the CSV `text` after its header, which names the
    /// columns; each the form's request `base` with the row's cells over it
    /// (an empty cell keeps the form's value).
    pub fn from_csv(
        base: &Request,
        text: &str,
        context: &Context,
        read: ReadRequest,
    ) -> Result<Batch, BatchError> {
        let kind = base.kind();
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        // Text that is already a `str` fails to read only where a record
        // is not UTF-8 once cut; csv's own wording of its other errors
        // (writing, deserializing) is never needed, so it is not linked.
        let unreadable = |error: csv::Error| BatchError::Unreadable {
            line: error.position().map_or(1, |at| at.line() as usize),
        };
        let header = reader.headers().map_err(unreadable)?.clone();
        let mut columns: Vec<String> = Vec::new();
        for column in &header {
            let known = columns_of(kind).any(|field| field == column);
            if !known {
                return Err(BatchError::UnknownColumn {
                    column: column.to_owned(),
                    kind,
                    suggestion: nearest_field(kind, column),
                });
            }
            if columns.iter().any(|seen| seen == column) {
                return Err(BatchError::Repeated(column.to_owned()));
            }
            columns.push(column.to_owned());
        }
        let mut rows = Vec::new();
        for record in reader.records() {
            let record = record.map_err(unreadable)?;
            if record.iter().all(str::is_empty) {
                continue;
            }
            let line = record.position().map_or(0, |at| at.line() as usize);
            let mut cells: Vec<String> = record.iter().map(str::to_owned).collect();
            cells.resize(columns.len(), String::new());
            rows.push((line, cells));
            if rows.len() > MAX_ROWS {
                break;
            }
        }
        Batch::made(base, columns, rows.into_iter(), context, read)
    }

    fn made(
        base: &Request,
        columns: Vec<String>,
        rows: impl Iterator<Item = (usize, Vec<String>)>,
        context: &Context,
        read: ReadRequest,
    ) -> Result<Batch, BatchError> {
        let mut batch = Batch {
            kind: base.kind(),
            columns,
            rows: Vec::new(),
            base: base.clone(),
            files: BTreeMap::new(),
            read,
        };
        let rows: Vec<(usize, Vec<String>)> = rows.collect();
        match rows.len() {
            0 => return Err(BatchError::Empty),
            count if count > MAX_ROWS => return Err(BatchError::TooMany(count)),
            _ => {}
        }
        batch.rows = rows
            .into_iter()
            .map(|(line, cells)| Row {
                line,
                cells,
                request: None,
                problems: Vec::new(),
            })
            .collect();
        for index in 0..batch.rows.len() {
            batch.check(index, context);
        }
        Ok(batch)
    }

    /// Put `value` in row `row`'s `column` and check that row again.
    pub fn set_cell(&mut self, row: usize, column: usize, value: &str, context: &Context) {
        if let Some(cell) = self
            .rows
            .get_mut(row)
            .and_then(|row| row.cells.get_mut(column))
        {
            value.trim().clone_into(cell);
            self.check(row, context);
        }
    }

    /// A dropped file's address, by its name: the rows that name it are
    /// checked again.
    pub fn set_file(&mut self, name: &str, address: &str, context: &Context) {
        self.files.insert(name.to_owned(), address.to_owned());
        for index in 0..self.rows.len() {
            if self.rows[index]
                .cells
                .iter()
                .any(|cell| names_file(cell, name))
            {
                self.check(index, context);
            }
        }
    }

    /// The file names the rows give where an address goes, each once.
    pub fn file_names(&self) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for row in &self.rows {
            for (column, cell) in self.columns.iter().zip(&row.cells) {
                let holds = self.holds(column);
                if matches!(holds, Some(Holds::Address | Holds::Addresses)) {
                    for item in items(cell, matches!(holds, Some(Holds::Addresses))) {
                        if !is_address(item) && !names.iter().any(|name| name == item) {
                            names.push(item.to_owned());
                        }
                    }
                }
            }
        }
        names
    }

    /// How many rows may be sent, and how many may not.
    pub fn counts(&self) -> (usize, usize) {
        let ready = self.rows.iter().filter(|row| row.is_ready()).count();
        (ready, self.rows.len() - ready)
    }

    /// Every row's request, when every row may be sent.
    pub fn requests(&self) -> Option<Vec<Request>> {
        self.rows
            .iter()
            .map(|row| row.is_ready().then(|| row.request.clone()).flatten())
            .collect()
    }

    fn holds(&self, column: &str) -> Option<Holds> {
        columns(self.kind)
            .iter()
            .find(|(field, _)| *field == column)
            .map(|(_, holds)| *holds)
    }

    /// The form's values row `cells` are laid over: the form's request,
    /// or where the row names another model, the form's request as that
    /// model takes it ([`crate::every_model`]), so that the form's start
    /// frame becomes a reference image for a row of KL.
    fn base_for(&self, cells: &[String]) -> Map<String, Value> {
        let row_model = self
            .columns
            .iter()
            .zip(cells)
            .find(|(column, _)| *column == "model")
            .and_then(|(_, cell)| cell.parse::<Model>().ok());
        let base = match (&self.base, row_model) {
            (Request::ImageToVideo(form), Some(model)) if form.model != Some(model) => {
                Request::ImageToVideo(crate::every_model::for_model(form, model).request)
            }
            _ => self.base.clone(),
        };
        match base.to_json() {
            Value::Object(fields) => fields,
            _ => Map::new(),
        }
    }

    /// Make row `index`'s request from its cells and check it.
    fn check(&mut self, index: usize, context: &Context) {
        let cells = self.rows[index].cells.clone();
        let mut fields = self.base_for(&cells);
        let mut problems = Vec::new();
        for (column, (name, cell)) in self.columns.iter().zip(&cells).enumerate() {
            if cell.is_empty() {
                continue;
            }
            let Some(holds) = self.holds(name) else {
                continue;
            };
            match self.value(holds, cell) {
                Ok(value) => {
                    fields.insert(name.clone(), value);
                }
                Err(message) => problems.push(CellProblem {
                    column: Some(column),
                    field: name.clone(),
                    message: format!("{name}: {message}"),
                    error: true,
                }),
            }
        }
        let request = (self.read)(self.kind, Value::Object(fields)).ok();
        // A cell that could not be read is said once, as it is: the rules
        // would judge the form's value it left in place.
        let unread: Vec<String> = problems
            .iter()
            .map(|problem| problem.field.clone())
            .collect();
        if let Some(request) = &request {
            for problem in request.validate(context).iter() {
                let field = problem.field.clone();
                let bare = field.split('[').next().unwrap_or(&field);
                if unread.iter().any(|unread| unread == bare) {
                    continue;
                }
                problems.push(CellProblem {
                    column: self.columns.iter().position(|column| column == bare),
                    message: problem.message.clone(),
                    error: problem.severity == Severity::Error,
                    field,
                });
            }
        }
        let row = &mut self.rows[index];
        row.request = if problems.iter().any(|problem| problem.error) {
            None
        } else {
            request
        };
        row.problems = problems;
    }

    /// A cell's value as the field holds it, or what is wrong with it.
    fn value(&self, holds: Holds, cell: &str) -> Result<Value, String> {
        match holds {
            Holds::Text => Ok(Value::from(cell)),
            Holds::Choice(check) => check(cell).map(|()| Value::from(cell)),
            Holds::Whole => cell
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| format!("a whole number, not `{cell}`")),
            Holds::Flag => match cell.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Ok(Value::Bool(true)),
                "false" | "no" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("true or false, not `{cell}`")),
            },
            Holds::List => Ok(Value::from(
                items(cell, true).map(str::to_owned).collect::<Vec<_>>(),
            )),
            Holds::Address => self.address(cell).map(Value::from),
            Holds::Addresses => items(cell, true)
                .map(|item| self.address(item))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::from),
        }
    }

    /// An address as given, or a dropped file's by its name.
    fn address(&self, item: &str) -> Result<String, String> {
        if is_address(item) {
            return Ok(item.to_owned());
        }
        self.files.get(item).cloned().ok_or_else(|| {
            format!("`{item}` is not an address: drop the file with the list, or give its https:// address")
        })
    }
}

/// The fields a kind's CSV may name.
fn columns_of(kind: TaskKind) -> impl Iterator<Item = &'static str> {
    columns(kind).iter().map(|(field, _)| *field)
}

/// A cell's items: the whole cell, or its parts between separators.
fn items(cell: &str, list: bool) -> impl Iterator<Item = &str> {
    let parts: Vec<&str> = if list {
        cell.split(LIST_SEPARATOR).collect()
    } else {
        vec![cell]
    };
    parts
        .into_iter()
        .map(str::trim)
        .filter(|item| !item.is_empty())
}

/// Whether `item` is written as an address rather than a file's name.
fn is_address(item: &str) -> bool {
    let lower = item.get(..8).unwrap_or(item).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("data:")
}

/// Whether `cell` names the file `name` (alone, or as a list's item).
fn names_file(cell: &str, name: &str) -> bool {
    items(cell, true).any(|item| item == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image_generate::ImageGenerateRequest;
    use crate::image_to_video::ImageToVideoRequest;
    use proptest::prelude::*;

    fn image_form() -> Request {
        Request::ImageGenerate(ImageGenerateRequest {
            prompt: "from the form".to_owned(),
            ..ImageGenerateRequest::default()
        })
    }

    fn video_form() -> Request {
        Request::ImageToVideo(ImageToVideoRequest {
            model: Some(Model::S),
            prompt: "from the form".to_owned(),
            aspect_resolution: Some(Resolution::P720),
            duration: Some(4),
            image_url: Some("https://example.com/form.png".to_owned()),
            ..ImageToVideoRequest::default()
        })
    }

    #[test]
    fn a_line_a_prompt_over_the_forms_settings() {
        let batch = Batch::from_lines(
            &image_form(),
            "A red fox\n\n  A blue whale  \n",
            &Context::default(),
            read_json,
        )
        .unwrap();
        assert_eq!(batch.columns, ["prompt"]);
        let prompts: Vec<String> = batch
            .requests()
            .unwrap()
            .iter()
            .map(|request| request.prompt().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(prompts, ["A red fox", "A blue whale"]);
        assert_eq!(batch.rows[1].line, 3, "lines counted as written");
    }

    #[test]
    fn a_csvs_bad_cells_are_named_in_place_and_mended_there() {
        let text = "prompt,model,duration,reference_images\n\
                    A fox,S,8,\n\
                    A whale,X,8,\n\
                    \"A cat, asleep\",KL,eight,https://example.com/a.png;cat.png\n";
        let context = Context::default();
        let mut batch = Batch::from_csv(&video_form(), text, &context, read_json).unwrap();
        assert_eq!(batch.counts(), (1, 2));
        let whale = &batch.rows[1];
        assert_eq!(whale.problems.len(), 1, "{:?}", whale.problems);
        assert_eq!(whale.problems[0].column, Some(1));
        assert_eq!(
            whale.problems[0].message,
            "model: `X` is not one of V, KL, S"
        );
        let cat = &batch.rows[2];
        let columns: Vec<Option<usize>> = cat.problems.iter().map(|p| p.column).collect();
        assert_eq!(columns, [Some(2), Some(3)], "{:?}", cat.problems);
        assert!(cat.problems[1]
            .message
            .contains("`cat.png` is not an address"));
        assert_eq!(batch.file_names(), ["cat.png"]);

        batch.set_cell(1, 1, "V", &context);
        batch.set_cell(2, 2, "10", &context);
        assert_eq!(batch.counts(), (2, 1), "{:?}", batch.rows);
        batch.set_file("cat.png", "https://uploads.example.com/cat.png", &context);
        assert_eq!(batch.counts(), (3, 0), "{:?}", batch.rows);
        // A row of KL: the form's start frame is not one of its images,
        // as KL takes none; the row's are.
        let Some(Request::ImageToVideo(kl)) = &batch.rows[2].request else {
            panic!("{:?}", batch.rows[2]);
        };
        assert_eq!(kl.image_url, None);
        assert_eq!(
            kl.reference_images,
            [
                "https://example.com/a.png",
                "https://uploads.example.com/cat.png"
            ]
        );
        assert_eq!(batch.requests().unwrap().len(), 3);
    }

    #[test]
    fn an_unknown_column_names_the_nearest_field() {
        let error = Batch::from_csv(
            &image_form(),
            "Prompt,image ratio\nA fox,1:1\n",
            &Context::default(),
            read_json,
        );
        assert_eq!(
            error.unwrap_err().to_string(),
            "column `Prompt` is not a field of image_generate: did you mean `prompt`?"
        );
        let error = Batch::from_csv(
            &image_form(),
            "colour\nred\n",
            &Context::default(),
            read_json,
        );
        assert_eq!(
            error.unwrap_err().to_string(),
            "column `colour` is not a field of image_generate"
        );
        assert_eq!(
            Batch::from_csv(
                &image_form(),
                "prompt,prompt\na,b\n",
                &Context::default(),
                read_json
            )
            .unwrap_err(),
            BatchError::Repeated("prompt".to_owned())
        );
        assert_eq!(
            Batch::from_lines(&image_form(), "\n \n", &Context::default(), read_json).unwrap_err(),
            BatchError::Empty
        );
    }

    #[test]
    fn too_many_rows_are_refused_whole() {
        let text = "A fox\n".repeat(MAX_ROWS + 1);
        assert_eq!(
            Batch::from_lines(&image_form(), &text, &Context::default(), read_json).unwrap_err(),
            BatchError::TooMany(MAX_ROWS + 1)
        );
    }

    /// A CSV cell as a writer quotes it.
    fn quoted(cell: &str) -> String {
        format!("\"{}\"", cell.replace('"', "\"\""))
    }

    proptest! {
        #[test]
        fn every_prompt_comes_back_as_written(prompts in prop::collection::vec("[^\\r\\n]{1,40}", 1..30)) {
            let prompts: Vec<String> = prompts.into_iter().filter(|p| !p.trim().is_empty()).collect();
            prop_assume!(!prompts.is_empty());
            let text = format!("prompt\n{}\n", prompts.iter().map(|p| quoted(p)).collect::<Vec<_>>().join("\n"));
            let batch = Batch::from_csv(&image_form(), &text, &Context::default(), read_json).unwrap();
            let read: Vec<String> = batch.rows.iter().map(|row| row.cells[0].clone()).collect();
            let trimmed: Vec<String> = prompts.iter().map(|p| p.trim().to_owned()).collect();
            prop_assert_eq!(read, trimmed);
        }

        #[test]
        fn a_row_is_ready_exactly_when_its_request_passes_the_forms_rules(
            counts in prop::collection::vec(-2..8i64, 1..20),
        ) {
            let text = format!("prompt,generate_count\n{}\n", counts.iter().map(|n| format!("A fox,{n}")).collect::<Vec<_>>().join("\n"));
            let batch = Batch::from_csv(&image_form(), &text, &Context::default(), read_json).unwrap();
            for (row, count) in batch.rows.iter().zip(&counts) {
                let alone = Request::ImageGenerate(ImageGenerateRequest {
                    prompt: "A fox".to_owned(),
                    generate_count: Some(*count),
                    ..ImageGenerateRequest::default()
                });
                prop_assert_eq!(row.is_ready(), !alone.validate(&Context::default()).has_errors());
                prop_assert!(row.is_ready() || row.problems.iter().any(|p| p.column == Some(1)));
            }
        }

        #[test]
        fn any_text_makes_a_batch_or_says_why(text in "\\PC{0,200}") {
            match Batch::from_csv(&image_form(), &text, &Context::default(), read_json) {
                Ok(batch) => prop_assert!(!batch.rows.is_empty()),
                Err(error) => prop_assert!(!error.to_string().is_empty()),
            }
        }
    }
}
