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

/** A task's progress, as `watch` reports it. */
export interface TaskUpdate {
  kind: TaskKind;
  taskId: string;
  /** The task as last read; absent until the first read answers. */
  task?: AnyTask;
  /** Why following it stopped, or a failed read that will be tried again. */
  error?: MediaGenErrorInfo;
  /** No more updates come: the task ended, or following it failed for good. */
  done: boolean;
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
