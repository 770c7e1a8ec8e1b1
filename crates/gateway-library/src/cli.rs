//! The owner's commands over the library, run without the gateway:
//! `usage` (what the service was spent on) and `library export NAME`
//! (a person's library as JSON Lines on standard output).

use std::io::Write;

use super::spent::{self, By};
use super::{Library, LibraryAt};

/// `media-gen-gateway usage`'s flags.
#[derive(Debug, Clone, clap::Args)]
pub struct UsageArgs {
    /// Count from this day on (UTC), as 2026-11-01; default: everything.
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// One line per person, per day or per kind of task.
    #[arg(long, value_enum, default_value = "person")]
    pub by: By,
    /// JSON (an object keyed by the person, the date or the kind) instead
    /// of a table.
    #[arg(long)]
    pub json: bool,
}

/// What to do with a library.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum LibraryAction {
    /// Write NAME's library to standard output as JSON Lines: one request
    /// a line, newest first, each with its tasks.
    Export {
        /// The person's name.
        name: String,
    },
}

/// Why a command failed, as it is printed.
pub type Failure = String;

async fn open(at: Option<&LibraryAt>) -> Result<Library, Failure> {
    let at = at.ok_or_else(|| {
        "no library: --library (MEDIA_GEN_LIBRARY), or --data-dir (MEDIA_GEN_DATA_DIR) \
         where its SQLite file is"
            .to_owned()
    })?;
    Library::open(at).await.map_err(|error| error.to_string())
}

/// `usage` on the library `at`: the text for standard output.
pub async fn usage(args: &UsageArgs, at: Option<&LibraryAt>) -> Result<String, Failure> {
    let since = match &args.since {
        Some(date) => spent::day_of(date)?,
        None => 0,
    };
    let library = open(at).await?;
    let lines = library
        .spent(since, args.by)
        .await
        .map_err(|error| error.to_string())?;
    if args.json {
        let mut text = serde_json::to_string_pretty(&lines).map_err(|error| error.to_string())?;
        text.push('\n');
        Ok(text)
    } else {
        Ok(spent::table(&lines, args.by))
    }
}

/// `library …` on the library `at`, writing to `out`.
pub async fn library(
    action: &LibraryAction,
    at: Option<&LibraryAt>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let library = open(at).await?;
    match action {
        LibraryAction::Export { name } => {
            let count = library
                .export(name, |item| {
                    serde_json::to_writer(&mut *out, item)?;
                    out.write_all(b"\n")
                })
                .await
                .map_err(|error| error.to_string())?;
            out.flush().map_err(|error| error.to_string())?;
            eprintln!("{count} requests of {name}'s written.");
            Ok(())
        }
    }
}
