// Compiled with `tsc --noEmit --strict`: the package's declarations must
// describe what these uses need, with real types.
import initClient, {
  createClient as createOnlyClient,
  isMediaGenError,
  shownUrl,
  type TaskUpdate,
  type WatchOptions,
} from "@media-gen/widgets/client";
import init, {
  createClient,
  defineElements,
  mountStatusWidget,
  mountSubmitWidget,
  validateImageToVideo,
  EVENT_COMPLETE,
  EVENT_SUBMITTED,
  EVENT_USE,
  type ImageGenerateTask,
  type ImageToVideoRequest,
  MediaGenError,
  type Problem,
  type SubmitWidgetHandle,
  type Submitted,
  type TaskIds,
} from "@media-gen/widgets";

export async function main(element: HTMLDivElement): Promise<string> {
  await init();
  defineElements();
  const client = createClient({ baseUrl: "/api", getToken: async () => "short-lived" });
  const submitted: Submitted<"image_generate"> = await client.submitImageGenerate({ prompt: "A lighthouse", generate_count: 2 });
  const ids: TaskIds = submitted.answer;
  const capability: string | null = submitted.relay;
  const task: ImageGenerateTask = await client.imageGenerate(ids.task_ids[0]);
  // Every submit resolves to the same shape; `kind` narrows the answer.
  const any: Submitted = await client.submit("video_translate", { video_url: "https://example.com/v.mp4", target_languages: ["en"] });
  if (any.kind === "video_translate") console.log(any.answer.map((ref) => ref.language));
  // @ts-expect-error a translation's answer is a list, not `{ task_ids }`
  console.log((await client.submitVideoTranslate({ video_url: "https://example.com/v.mp4", target_languages: ["en"] })).answer.task_ids);
  // @ts-expect-error the request must be of the kind given
  await client.submit("image_generate", { video_url: "https://example.com/v.mp4", target_languages: ["en"] });
  const relayedStatus = mountStatusWidget(document.createElement("div"), { kind: submitted.kind, taskIds: submitted.taskIds, relay: capability, baseUrl: "/api" });
  relayedStatus.unmount();
  const url: string = task.image_url;

  const request: ImageToVideoRequest = { model: "S", prompt: "Waves", aspect_resolution: "720p", duration: 4 };
  const problems: Problem[] = validateImageToVideo(request);
  const fields: string[] = problems.filter((p) => p.severity === "error").map((p) => p.field);

  const form: SubmitWidgetHandle = mountSubmitWidget(element, { kind: "image_to_video", baseUrl: "/api", initial: request });
  form.update({ baseUrl: "/other" });
  // @ts-expect-error a submit widget follows no task
  form.update({ taskId: "i2v-1" });
  await form.ready;
  form.focus();
  form.submit();
  form.reset();
  // The events are typed on the document and the window too.
  document.addEventListener("media-gen-complete", (event) => {
    // `kind` narrows the task object.
    if (event.detail.kind === "image_generate") console.log(event.detail.task.image_url);
    if (event.detail.kind === "video_translate") console.log(event.detail.task.caption_url);
    // @ts-expect-error only an image task has an image_url
    console.log(event.detail.task.image_url);
  });
  window.addEventListener("media-gen-ready", (event) => console.log(event.detail.kind));
  const statusHost = document.createElement("section");
  element.after(statusHost);
  const status = mountStatusWidget(statusHost, { kind: "image_generate", taskIds: ids.task_ids, baseUrl: "/api" });
  await status.ready;
  element.addEventListener(EVENT_SUBMITTED, (event) => {
    const created: string[] = event.detail.taskIds;
    const follow = document.createElement("media-gen-task");
    follow.relay = event.detail.relay;
    const relay: string | null = follow.relay;
    console.log(created, relay);
  });
  element.addEventListener(EVENT_COMPLETE, (event) => {
    console.log(event.detail.task.status, event.detail.taskId);
  });
  const custom = document.createElement("media-gen-task");
  custom.taskId = ids.task_ids[0];
  custom.taskIds = ids.task_ids;
  const listed: string[] | null = custom.taskIds;
  custom.kind = null;
  custom.options = { token: undefined };
  try {
    await client.videoTranslate("vt-unknown");
  } catch (error) {
    const failure = error as MediaGenError;
    const again: boolean = failure.retryable;
    console.log(failure.kind, failure.status, again);
    if (isMediaGenError(error)) console.log(error.kind);
    if (error instanceof MediaGenError) console.log(error.retryable, error.field);
  }
  // The client entry alone.
  await initClient();
  const only = createOnlyClient({ baseUrl: "/api" });
  const watch = only.watch("image_generate", ids.task_ids[0], (update: TaskUpdate) => {
    if (update.done) console.log(update.task, listed);
    // `kind` narrows the task.
    if (update.kind === "image_generate") console.log(update.task?.image_url);
    // The site's kept copy first, else the service's URL.
    if (update.task) console.log(shownUrl(update.task, "image_url"), update.task.kept?.image_url);
  });
  // @ts-expect-error no task has a `poster_url`
  if (watch) shownUrl({ task_id: "x", status: "SUCCEEDED" } as ImageGenerateTask, "poster_url");
  // A status widget's result offered to the next job, routed to a form.
  document.addEventListener(EVENT_USE, (event) => {
    const field: string = event.detail.field;
    console.log(field, event.detail.source.taskId);
    form.use(event.detail);
  });
  // The kind given types each update's task.
  only.watch("video_translate", "vt-1", (update) => console.log(update.task?.caption_url)).stop();
  // @ts-expect-error an image-to-video task has no image_url
  only.watch("image_to_video", "i2v-1", (update) => console.log(update.task?.image_url)).stop();
  watch.stop();
  const relayed: WatchOptions = { relay: null };
  only.watch("image_generate", ids.task_ids[0], () => {}, relayed).stop();
  // @ts-expect-error a relay is a string
  only.watch("image_generate", ids.task_ids[0], () => {}, { relay: 7 });
  form.unmount();
  status.unmount();
  return `${url} ${fields.join(",")}`;
}
