// A page that uses all of the client entry, built by Vite for production
// with its default configuration: what it ships is what the size budget of
// the client entry counts (`cargo xtask bench sizes`).
import init, {
  createClient,
  isMediaGenError,
  validate,
  validateImageGenerate,
  validateImageToVideo,
  validateVideoTranslate,
} from "@media-gen/widgets/client";

await init();
const client = createClient({ baseUrl: "/api" });
const languages = await client.targetLanguages();
console.log(
  validate("image_generate", { prompt: "" }),
  validateImageGenerate({ prompt: "" }),
  validateImageToVideo({ prompt: "" }),
  validateVideoTranslate({ video_url: "", target_languages: [] }, languages),
);
const ids = await client.submitImageGenerate({ prompt: "A lighthouse" });
const video = await client.submitImageToVideo({ prompt: "Waves", model: "S" });
const translations = await client.submitVideoTranslate({ video_url: "https://x.test/v.mp4", target_languages: ["English"] });
console.log(await client.imageToVideo(video.task_ids[0]), await client.videoTranslate(translations[0].task_id));
console.log(await client.submit("image_generate", { prompt: "again" }));
client.watch("image_generate", ids.task_ids[0], (update) => console.log(update));
try {
  await client.task("video_translate", "vt-unknown");
} catch (error) {
  console.log(isMediaGenError(error));
}
