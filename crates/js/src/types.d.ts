// The JavaScript API's own types; the wire types (requests, tasks,
// problems) are generated from Rust into wire_types.d.ts.

/** A request of any kind. */
export type AnyRequest = ImageToVideoRequest | VideoTranslateRequest | ImageGenerateRequest;

/** A task of any kind, as its kind's task object. */
export type AnyTask = ImageToVideoTask | VideoTranslateTask | ImageGenerateTask;

/** How to reach the service. */
export interface ClientOptions {
  /** An http(s) URL, a path on this site such as `/api` (a proxy that adds
   * the token: the recommended set-up), or `""` for this page's origin. */
  baseUrl: string;
  /** A fixed token. Anyone who can see the page can read it. */
  token?: string;
  /** Called before each request: a short-lived token from your server. */
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
}

/** What a failed call rejects with (also `detail.error` of error events). */
export interface MediaGenErrorInfo {
  message: string;
  /** `network`, `timeout`, `http`, `business`, `shape`, `aborted`; `options` for bad input. */
  kind: "network" | "timeout" | "http" | "business" | "shape" | "aborted" | "options";
  status: number | null;
  code: number | null;
  retryable: boolean;
}

export interface MediaGenError extends Error {
  kind: MediaGenErrorInfo["kind"];
  status?: number | null;
  code?: number | null;
  retryable: boolean;
  /** For `kind: "options"`: the option or request field at fault. */
  field?: string;
}

/** Each kind's request. */
export interface RequestOfKind {
  image_to_video: ImageToVideoRequest;
  video_translate: VideoTranslateRequest;
  image_generate: ImageGenerateRequest;
}

/** Each kind's task object. */
export interface TaskOfKind {
  image_to_video: ImageToVideoTask;
  video_translate: VideoTranslateTask;
  image_generate: ImageGenerateTask;
}

/** Each kind's submit answer, as the service gives it. */
export interface AnswerOfKind {
  image_to_video: TaskIds;
  video_translate: TranslationTaskRef[];
  image_generate: TaskIds;
}

/** What every submit resolves to (each `submit...` method and `submit`),
 * and the submit widget's `media-gen-submitted` detail: one shape. `kind`
 * narrows `request` and `answer`. */
export type Submitted<K extends TaskKind = TaskKind> = {
  [Kind in K]: {
    kind: Kind;
    /** The new tasks' ids, in the service's order. */
    taskIds: string[];
    /** The capability a relaying gateway named for this submit: give it to
     * the status widget, `<media-gen-task>` or `watch` as `relay` and the
     * tasks' ends are heard of instead of read. `null` without one. */
    relay: string | null;
    /** The request as sent. */
    request: RequestOfKind[Kind];
    /** The service's answer as it came: `{ task_ids }`; for a translation,
     * `{ task_id, language }` per language. */
    answer: AnswerOfKind[Kind];
  };
}[K];

/** A task's progress, as `watch` reports it; `kind` narrows `task`. */
export type TaskUpdate<K extends TaskKind = TaskKind> = {
  [Kind in K]: {
    kind: Kind;
    taskId: string;
    /** The task as last read; absent until the first read answers. */
    task?: TaskOfKind[Kind];
    /** Why following it stopped, or a failed read that will be tried again. */
    error?: MediaGenErrorInfo;
    /** Whether the status differs from the one before (always for the first). */
    changed: boolean;
    /** No more updates come: the task ended, or following it failed for good. */
    done: boolean;
  };
}[K];

/** A client of the Media Generation Service (`createClient`). Every call
 * takes an optional `AbortSignal`: aborting it cancels the request in
 * flight and any wait between retries. Reads are retried on network
 * failures, timeouts, 408, 429 and 5xx; submits only on 429 and 503 that
 * carry `Retry-After`. */
export interface MediaGenClient {
  /** `GET /v1/video_translate/target_languages`. */
  targetLanguages(signal?: AbortSignal | null): Promise<string[]>;
  /** What the site's gateway offers beyond the documented calls
   * (`/capabilities`: its relay, where it takes uploads, a sandbox's
   * inbox); `{}` from a site that does not say (the service itself).
   * Asked once per page for each site and shared by every client on it
   * (an ask that failed is made again; `signal` stops only this wait). */
  capabilities(signal?: AbortSignal | null): Promise<Capabilities>;
  /** `POST /v1/image_to_video`: one task id per video. */
  submitImageToVideo(request: ImageToVideoRequest, signal?: AbortSignal | null): Promise<Submitted<"image_to_video">>;
  /** `GET /v1/image_to_video/{task_id}`. */
  imageToVideo(taskId: string, signal?: AbortSignal | null): Promise<ImageToVideoTask>;
  /** `POST /v1/video_translate`: one task per language. */
  submitVideoTranslate(request: VideoTranslateRequest, signal?: AbortSignal | null): Promise<Submitted<"video_translate">>;
  /** `GET /v1/video_translate/{task_id}`. */
  videoTranslate(taskId: string, signal?: AbortSignal | null): Promise<VideoTranslateTask>;
  /** `POST /v1/image_generate`: one task id per image. */
  submitImageGenerate(request: ImageGenerateRequest, signal?: AbortSignal | null): Promise<Submitted<"image_generate">>;
  /** `GET /v1/image_generate/{task_id}`. */
  imageGenerate(taskId: string, signal?: AbortSignal | null): Promise<ImageGenerateTask>;
  /** Submit a request of `kind`. */
  submit<K extends TaskKind>(kind: K, request: RequestOfKind[K], signal?: AbortSignal | null): Promise<Submitted<K>>;
  /** The status of a task of `kind`, as that kind's task object. */
  task<K extends TaskKind>(kind: K, taskId: string, signal?: AbortSignal | null): Promise<TaskOfKind[K]>;
  /** Follow task `taskId` of `kind` until it ends: `onUpdate` hears of
   * each change, the last one with `done: true`. Reads follow the
   * service's usual durations, a few at a time however many tasks are
   * watched. A task this client submitted through a gateway that relays
   * callbacks (or given `options.relay`) is heard of on the relay's event
   * stream instead, with one safety read. Throws a `kind: "options"` error
   * for an unknown kind, an empty id or a `relay` that is not a capability. */
  watch<K extends TaskKind>(kind: K, taskId: string, onUpdate: (update: TaskUpdate<K>) => void, options?: WatchOptions | null): TaskWatch;
  /** Upload `file` to the site's gateway. Rejects with `kind: "options"`
   * naming `file` when the service would not take it (its type from its
   * first bytes, its size), or `baseUrl` when the site takes no uploads. */
  upload(file: Blob, options?: UploadOptions | null): Promise<Uploaded>;
}

/** One `watch`. */
export interface TaskWatch {
  /** Stop hearing about the task (it is read no more once nobody watches
   * it). Calling it again does nothing. */
  stop(): void;
}

/** How `upload` sends a file. */
export interface UploadOptions {
  /** Called as bytes leave: those the gateway has or that are on their way, of `total`. */
  onProgress?: (sent: number, total: number) => void;
  /** Called with the upload's address as soon as the gateway made it (or
   * with `resume`'s, going on): keep it to go on after a reload. */
  onCreated?: (url: string) => void;
  /** Called with `true` while the upload waits for the network to come
   * back, `false` once bytes flow again. */
  onWaiting?: (waiting: boolean) => void;
  /** Cancels the upload (it rejects with `kind: "aborted"`). */
  signal?: AbortSignal | null;
  /** The `url` of an upload of this file begun before (a reload): it goes
   * on from where the gateway stands, or starts again if it is gone. */
  resume?: string | null;
}

/** A finished upload: give `url` to a request's media field. */
export interface Uploaded {
  /** The upload's address on the site's gateway, which the service fetches. */
  url: string;
  /** When the gateway deletes it unless a task made from it still runs. */
  expiresAt: Date | null;
  /** Its type, from its first bytes (`image/png`, `video/mp4`, …). */
  type: string;
}

/** How `watch` follows a task. */
export interface WatchOptions {
  /** The capability a relaying gateway named for the task's submit (the
   * submit widget's `media-gen-submitted` `relay`): its end is heard of on
   * the site's event stream instead of read (32 lowercase hexadecimal
   * digits; anything else is refused). Tasks this client submitted need
   * none: it remembers theirs. */
  relay?: string | null;
}
