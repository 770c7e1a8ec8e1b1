// A page that uses all of the client entry, built by Vite for production
// with its default configuration: what it ships is what the size budget of
// the client entry counts (`cargo xtask bench sizes`), and an end-to-end test
// runs it, served by the gateway (`baseUrl: ""`: this page's own site).
import init, {
  createClient,
  isMediaGenError,
  MediaGenError,
  validate,
  validateImageGenerate,
  validateImageToVideo,
  validateVideoTranslate,
  type TaskUpdate,
} from "@media-gen/widgets/client";

await init();
const client = createClient({ baseUrl: "" });
const languages = await client.targetLanguages();
const problems = [
  validate("image_generate", { prompt: "" }),
  validateImageGenerate({ prompt: "" }),
  validateImageToVideo({ prompt: "" }),
  validateVideoTranslate({ video_url: "", target_languages: [] }, languages),
].map((found) => found.length);
// Every submit resolves to one shape: the ids, the relay, the answer.
const ids = await client.submitImageGenerate({ prompt: "A lighthouse", image_quality: "1K" });
const video = await client.submitImageToVideo({ prompt: "Waves", model: "S", aspect_resolution: "720p", duration: 4, image_url: "https://example.com/a.png" });
const translations = await client.submitVideoTranslate({ video_url: "https://example.com/v.mp4", target_languages: [languages[0]] });
const read = [
  (await client.imageToVideo(video.taskIds[0])).task_id,
  (await client.videoTranslate(translations.answer[0].task_id)).task_id,
  (await client.task("image_generate", ids.answer.task_ids[0])).task_id,
];
const again = await client.submit("image_generate", { prompt: "again", image_quality: "1K" });
// `kind` types each update's task: an image's URL, read without a cast.
const last = await new Promise<TaskUpdate<"image_generate">>((resolve) => {
  client.watch("image_generate", ids.taskIds[0], (update) => {
    if (update.done) resolve(update);
  });
});
// A file from the computer: a PNG's first bytes and 9 MiB more (three
// pieces), uploaded with progress, then a video made from it.
const png = new Uint8Array(9 * 1024 * 1024 + 4321).fill(3);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const picked = new File([png], "holiday photo.png", { type: "image/png" });
const progress: number[] = [];
const uploaded = await client.upload(picked, { onProgress: (sent, total) => progress.push(sent / total) });
const fromFile = await client.submitImageToVideo({ prompt: "The photo moves", model: "S", aspect_resolution: "720p", duration: 4, image_url: uploaded.url });
// A page named .png is refused before a byte is sent, naming the file.
let refusedFile: unknown = null;
try {
  await client.upload(new File(["<html><script>alert(1)</script>"], "cat.png"));
} catch (error) {
  refusedFile = isMediaGenError(error) ? [error.kind, error.field, error.message] : String(error);
}
let failure: unknown = null;
try {
  await client.task("video_translate", "vt-unknown");
} catch (error) {
  failure = [isMediaGenError(error), error instanceof MediaGenError];
}
(window as unknown as { viteClient: unknown }).viteClient = {
  languages: languages.length,
  problems,
  read,
  again: again.taskIds.length,
  shapes: [ids, video, translations, again].map((submitted) =>
    [submitted.kind, typeof submitted.relay, submitted.taskIds.length, submitted.request !== undefined]),
  relay: ids.relay,
  done: last.task?.status,
  image: last.task?.image_url.startsWith("http"),
  failure,
  upload: {
    url: uploaded.url,
    type: uploaded.type,
    expiresInFuture: uploaded.expiresAt !== null && uploaded.expiresAt.getTime() > Date.now(),
    progress,
    task: fromFile.taskIds.length,
    refusedFile,
  },
};
