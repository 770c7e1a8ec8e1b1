export {
  shownUrl,
  validate,
  validateImageGenerate,
  validateImageToVideo,
  validateVideoTranslate,
} from "./media_gen_client.js";
export type {
  AnswerOfKind,
  AnyRequest,
  AnyTask,
  AccessInfo,
  AccessMode,
  AspectRatio,
  ByMediaField,
  Capabilities,
  ClientOptions,
  ImageGenerateRequest,
  ImageGenerateTask,
  ImageQuality,
  ImageRatio,
  ImageToVideoRequest,
  ImageToVideoTask,
  MediaGenErrorInfo,
  Model,
  Module,
  PersonInfo,
  Problem,
  RelayInfo,
  RequestOfKind,
  Resolution,
  Rule,
  SandboxInfo,
  Severity,
  Submitted,
  TaskIds,
  TaskKind,
  TaskOfKind,
  TaskStatus,
  TaskUpdate,
  Uploaded,
  UploadsInfo,
  UploadOptions,
  TranslationTaskRef,
  VideoTranslateRequest,
  VideoTranslateTask,
  WatchOptions,
} from "./media_gen_client.js";
import type { ClientOptions, InitInput, MediaGenClient as Client, TaskWatch as Watch } from "./media_gen_client.js";

/** A client for `{ baseUrl, token?, getToken? }`. Throws an `Error` with
 * `kind: "options"` naming the field when the options are wrong. */
export declare function createClient(options: ClientOptions): Client;

/** A client of the service, made by `createClient` (the class, for `instanceof`). */
export type MediaGenClient = Client;
export declare const MediaGenClient: { readonly prototype: Client };

/** One `watch`, with `stop()` (the class, for `instanceof`). */
export type TaskWatch = Watch;
export declare const TaskWatch: { readonly prototype: Watch };

/** Load the client module; call (and await) once before anything else.
 * `input` is where the module is, when a bundler does not say. */
export default function init(input?: { module_or_path: InitInput | Promise<InitInput> }): Promise<unknown>;

/** Whether `value` is an error this package threw or rejected with. */
export declare function isMediaGenError(value: unknown): value is MediaGenError;

/** The errors this package throws and rejects with; `instanceof` works for
 * every one of them, whichever of the package's modules made it. */
export declare class MediaGenError extends Error {
  /** `network`, `timeout`, `http`, `business`, `shape`, `aborted`; `options` for bad input. */
  readonly kind: import("./media_gen_client.js").MediaGenErrorInfo["kind"];
  readonly status?: number | null;
  readonly code?: number | null;
  readonly retryable: boolean;
  /** For `kind: "options"`: the option or request field at fault. */
  readonly field?: string;
  private constructor();
  static [Symbol.hasInstance](value: unknown): value is MediaGenError;
}
