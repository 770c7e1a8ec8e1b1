// `createClient(options)`: the browser client for JavaScript, one method
// per endpoint, each a Promise of plain objects as the service sent them
// (read by `JSON.parse`). The client module checks what goes out (requests,
// ids, options) and judges what comes back; this sends it.
import { languagesPath, relayOf, requestBody, statusPath, submitPath } from "../media_gen_client.js";
import { send } from "./call.js";
import { Connection } from "./connection.js";
import { Watches } from "./follow.js";
import { offersOf } from "./offers.js";
import { upload } from "./upload.js";

/** A client of the Media Generation Service. */
export class MediaGenClient {
  constructor(options) {
    this.connection = new Connection(options);
    this.watches = new Watches(this);
  }

  /** `GET /v1/video_translate/target_languages`. */
  async targetLanguages(signal) {
    return (await send(this.connection, "languages", languagesPath(), undefined, signal)).data;
  }

  /** What the site offers beyond the documented calls (`/capabilities`:
   * its relay, uploads, a sandbox's inbox); `{}` from a site that does not
   * say. Asked once per page for each site (an ask that failed is tried
   * again). */
  async capabilities(signal) {
    return (await offersOf(this.connection, signal)).data ?? {};
  }

  /** Submit a request of `kind`: `{ kind, taskIds, relay, request, answer }`.
   * Throws at once (`kind: "options"`, naming the field) for a request
   * the contract's types cannot read. */
  submit(kind, request, signal) {
    const body = requestBody(kind, request);
    const path = submitPath(kind);
    return (async () => {
      const sent = await send(this.connection, kind, path, body, signal);
      this.watches.remember(kind, sent.taskIds, sent.relay);
      return { kind, taskIds: sent.taskIds, relay: sent.relay, request: JSON.parse(body), answer: sent.data };
    })();
  }

  /** The status of a task of `kind`, as that kind's task object. */
  task(kind, taskId, signal) {
    const path = statusPath(kind, String(taskId));
    return send(this.connection, "task", path, undefined, signal).then((read) => read.data);
  }

  /** `POST /v1/image_to_video`: one task id per video. */
  submitImageToVideo(request, signal) {
    return this.submit("image_to_video", request, signal);
  }

  /** `GET /v1/image_to_video/{task_id}`. */
  imageToVideo(taskId, signal) {
    return this.task("image_to_video", taskId, signal);
  }

  /** `POST /v1/video_translate`: one task per language. */
  submitVideoTranslate(request, signal) {
    return this.submit("video_translate", request, signal);
  }

  /** `GET /v1/video_translate/{task_id}`. */
  videoTranslate(taskId, signal) {
    return this.task("video_translate", taskId, signal);
  }

  /** `POST /v1/image_generate`: one task id per image. */
  submitImageGenerate(request, signal) {
    return this.submit("image_generate", request, signal);
  }

  /** `GET /v1/image_generate/{task_id}`. */
  imageGenerate(taskId, signal) {
    return this.task("image_generate", taskId, signal);
  }

  /** Follow task `taskId` of `kind` until it ends; see `types.d.ts`. */
  watch(kind, taskId, onUpdate, options) {
    statusPath(kind, String(taskId), "taskId");
    if (typeof onUpdate !== "function") throw new TypeError("onUpdate must be a function");
    const relay = relayOf(options ?? undefined) ?? this.watches.relayOf(kind, taskId);
    return new TaskWatch(this.watches.watch(kind, taskId, relay, onUpdate));
  }

  /** Upload `file` to the site's gateway: `{ url, expiresAt, type }`. */
  upload(file, options) {
    return upload(this, file, options);
  }
}

/** One `watch`: `stop()` ends it. */
export class TaskWatch {
  constructor(stop) {
    this.stopping = stop;
  }

  /** Stop hearing about the task. Calling it again does nothing. */
  stop() {
    this.stopping?.();
    this.stopping = null;
  }
}

/** A client for `{ baseUrl, token?, getToken? }`. Throws an `Error` with
 * `kind: "options"` naming the field when the options are wrong. */
export function createClient(options) {
  return new MediaGenClient(options);
}
