// The comparison the client entry's size is read against: a page that uses
// what `@fal-ai/client` offers for the same jobs (submit, read a status,
// follow a request to its end, its errors), built by Vite for production
// with its default configuration, as `vite-client/` is. Built and
// measured only (`cargo xtask bench sizes`); it never runs.
import { ApiError, fal, ValidationError } from "@fal-ai/client";

fal.config({ proxyUrl: "/api/fal/proxy" });
const model = "fal-ai/flux/dev";
const input = { prompt: "A lighthouse" };
try {
  const { request_id } = await fal.queue.submit(model, { input, webhookUrl: "https://example.com/hook" });
  const status = await fal.queue.status(model, { requestId: request_id, logs: true });
  const result = await fal.queue.result(model, { requestId: request_id });
  const followed = await fal.subscribe(model, {
    input,
    logs: true,
    onQueueUpdate: (update) => console.log(update.status),
  });
  console.log(status.status, result.data, followed.data);
} catch (error) {
  if (error instanceof ValidationError) console.log(error.fieldErrors);
  else if (error instanceof ApiError) console.log(error.status, error.body);
}
