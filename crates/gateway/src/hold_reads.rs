//! The gateway's own reads of tasks that hold uploads and that it hears
//! of no other way ([`crate::uploads::hold_watch`] decides which, when):
//! what each read learns goes where every task's news goes
//! ([`crate::task_news`]).

use crate::Gateway;

/// Read, while the gateway runs, the held tasks the uploads say are due,
/// and let their uploads go when one has ended.
pub async fn watch(gateway: Gateway) {
    let Some(uploads) = gateway.uploads.clone() else {
        return;
    };
    if gateway.upstream.is_none() {
        return;
    }
    let settings = uploads.settings();
    let every = crate::uploads::hold_watch::tick(&settings.hold_reads);
    let budget = (f64::from(settings.hold_reads_per_second.get()) * every.as_secs_f64())
        .ceil()
        .max(1.0) as usize;
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let due = match uploads.due_reads(budget).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(error = %crate::observe::Scrubbed(&error), "the tasks holding uploads could not be read");
                continue;
            }
        };
        for task in due {
            let read = gateway.read_task(task.kind, &task.id).await;
            metrics::counter!(crate::observe::HOLD_READS).increment(1);
            if let Ok(mut read) = read {
                crate::task_news::learnt(&gateway, &mut read, crate::task_news::Heard::Watched)
                    .await;
            }
        }
    }
}
