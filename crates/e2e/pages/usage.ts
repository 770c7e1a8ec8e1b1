// Compiled with `tsc --noEmit --strict`: the package's declarations must
// describe what these uses need, with real types.
import init, {
  createClient,
  defineElements,
  mountStatusWidget,
  mountSubmitWidget,
  validateImageToVideo,
  EVENT_COMPLETE,
  EVENT_SUBMITTED,
  type ImageGenerateTask,
  type ImageToVideoRequest,
  type MediaGenError,
  type Problem,
  type TaskIds,
} from "@media-gen/widgets";

export async function main(element: HTMLDivElement): Promise<string> {
  await init();
  defineElements();
  const client = createClient({ baseUrl: "/api", getToken: async () => "short-lived" });
  const ids: TaskIds = await client.submitImageGenerate({ prompt: "A lighthouse", generate_count: 2 });
  const task: ImageGenerateTask = await client.imageGenerate(ids.task_ids[0]);
  const url: string = task.image_url;

  const request: ImageToVideoRequest = { model: "S", prompt: "Waves", aspect_resolution: "720p", duration: 4 };
  const problems: Problem[] = validateImageToVideo(request);
  const fields: string[] = problems.filter((p) => p.severity === "error").map((p) => p.field);

  const form = mountSubmitWidget(element, { kind: "image_to_video", baseUrl: "/api", initial: request });
  form.update({ baseUrl: "/other" });
  const statusHost = document.createElement("section");
  element.after(statusHost);
  const status = mountStatusWidget(statusHost, { kind: "image_generate", taskIds: ids.task_ids, baseUrl: "/api" });
  await status.ready;
  element.addEventListener(EVENT_SUBMITTED, (event) => {
    const created: string[] = event.detail.taskIds;
    console.log(created);
  });
  element.addEventListener(EVENT_COMPLETE, (event) => {
    console.log(event.detail.task.status, event.detail.taskId);
  });
  const custom = document.createElement("media-gen-task");
  custom.taskId = ids.task_ids[0];
  custom.options = { token: undefined };
  try {
    await client.videoTranslate("vt-unknown");
  } catch (error) {
    const failure = error as MediaGenError;
    const again: boolean = failure.retryable;
    console.log(failure.kind, failure.status, again);
  }
  form.unmount();
  status.unmount();
  return `${url} ${fields.join(",")}`;
}
