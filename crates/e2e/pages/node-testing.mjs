// The client entry driven against the test service in Node, with no DOM
// and no network: a submit, `watch` to the end, a chosen failure, a 429
// waited out, a clock moved on, and what the service received. Prints one JSON line; the
// end-to-end test reads it (`cargo xtask test` runs it from the folder the
// packed package is installed in).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import init, { createClient } from "@media-gen/widgets/client";
import { startTestService } from "@media-gen/widgets/testing";

const require = createRequire(import.meta.url);
await init({ module_or_path: await readFile(require.resolve("@media-gen/widgets/media_gen_client_bg.wasm")) });

const service = await startTestService({ speed: 200 });
const client = createClient({ baseUrl: service.baseUrl });
const ended = (kind, taskId) =>
  new Promise((resolve) => {
    client.watch(kind, taskId, (update) => {
      if (update.done) resolve(update);
    });
  });

const made = await client.submit("image_generate", { prompt: "A lighthouse at dusk", image_quality: "1K" });
const succeeded = await ended("image_generate", made.taskIds[0]);
const image = await fetch(succeeded.task.image_url);

service.next({ fail: "The prompt was refused" });
const refusedTask = await client.submit("image_generate", { prompt: "A second one" });
const failed = await ended("image_generate", refusedTask.taskIds[0]);

service.faults({ http_429: 1, retry_after_secs: 1, limit: 1 });
const started = Date.now();
const afterWait = await client.submit("image_generate", { prompt: "After a wait" });
const waited = Date.now() - started;

// A clock moved on by the test: the task read at once has ended.
const early = await client.submit("image_generate", { prompt: "Under a moved clock" });
const before = (await client.task("image_generate", early.taskIds[0])).status;
service.advance(1_000);
const after = (await client.task("image_generate", early.taskIds[0])).status;

let invalid;
try {
  await client.submit("image_generate", { prompt: "" });
} catch (error) {
  invalid = { kind: error.kind, field: error.field ?? null, code: error.code ?? null };
}

console.log(
  JSON.stringify({
    document: typeof document,
    succeeded: { status: succeeded.task.status, image: image.status, type: image.headers.get("content-type") },
    failed: { status: failed.task.status, message: failed.task.error_message },
    waited,
    afterWait: afterWait.taskIds.length,
    advanced: [before, after],
    invalid,
    submissions: service.submissions().map((submission) => submission.body.prompt),
  }),
);
await service.stop();
