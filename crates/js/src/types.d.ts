/** The three task kinds. */
export type TaskKind = "image_to_video" | "video_translate" | "image_generate";
/** A task's status; other values the service may add are passed through. */
export type TaskStatus = "PENDING" | "GENERATING" | "SUCCEEDED" | "FAILED" | (string & {});
export type Model = "V" | "KL" | "S";
export type AspectRatio = "16:9" | "9:16";
export type Resolution = "720p" | "1080p" | "4k";
export type Module = "std" | "pro";
export type ImageQuality = "1K" | "2K" | "4K";
export type ImageRatio = "1:1" | "3:2" | "2:3" | "3:4" | "4:3" | "4:5" | "5:4" | "9:16" | "16:9" | "21:9";

/** `POST /v1/image_to_video`. */
export interface ImageToVideoRequest {
  model?: Model;
  prompt: string;
  aspect_ratio?: AspectRatio;
  aspect_resolution?: Resolution;
  /** Seconds: 4, 5, 6, 8, 10 or 12, as the model allows. */
  duration?: number;
  image_url?: string;
  end_image_url?: string;
  reference_images?: string[];
  generate_audio?: boolean;
  /** 1 to 4. */
  generate_count?: number;
  callback_url?: string;
}

/** `POST /v1/video_translate`. */
export interface VideoTranslateRequest {
  target_languages: string[];
  video_url: string;
  speaker_num?: number;
  translate_audio_only?: boolean;
  enable_dynamic_duration?: boolean;
  enable_caption?: boolean;
  /** Fewer than 100 characters. */
  name?: string;
  callback_url?: string;
}

/** `POST /v1/image_generate`. */
export interface ImageGenerateRequest {
  prompt: string;
  /** Up to 5; the service drops the rest. */
  reference_images?: string[];
  module?: Module;
  /** 1 to 8. */
  generate_count?: number;
  image_quality?: ImageQuality;
  image_ratio?: ImageRatio;
  callback_url?: string;
}

export type AnyRequest = ImageToVideoRequest | VideoTranslateRequest | ImageGenerateRequest;

/** The submit answer of image_to_video and image_generate. */
export interface TaskIds {
  task_ids: string[];
}

/** One task of a video translation submit. */
export interface TranslationTaskRef {
  task_id: string;
  language: string;
}

export interface ImageToVideoTask {
  task_id: string;
  status: TaskStatus;
  video_url: string;
  thumbnail_url: string;
  error_message: string;
  duration?: number;
  width?: number;
  height?: number;
}

export interface VideoTranslateTask {
  task_id: string;
  name: string;
  language: string;
  status: TaskStatus;
  video_url: string;
  caption_url: string;
  error_message: string;
}

export interface ImageGenerateTask {
  task_id: string;
  status: TaskStatus;
  image_url: string;
  thumbnail_url: string;
  error_message: string;
}

export type AnyTask = ImageToVideoTask | VideoTranslateTask | ImageGenerateTask;

/** One problem with a request, from the same rules the app uses. */
export interface Problem {
  /** `prompt`, `reference_images[3]`. */
  field: string;
  /** Stable code: `required`, `too_long`, `not_allowed_for_model`, ... */
  rule: string;
  severity: "error" | "warning";
  message: string;
}

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
