export {
  createClient,
  MediaGenClient,
  TaskWatch,
  validate,
  validateImageGenerate,
  validateImageToVideo,
  validateVideoTranslate,
} from "./media_gen_client.js";
export type {
  AnyRequest,
  AnyTask,
  AspectRatio,
  ClientOptions,
  ImageGenerateRequest,
  ImageGenerateTask,
  ImageQuality,
  ImageRatio,
  ImageToVideoRequest,
  ImageToVideoTask,
  MediaGenError,
  MediaGenErrorInfo,
  Model,
  Module,
  Problem,
  Resolution,
  TaskIds,
  TaskKind,
  TaskStatus,
  TaskUpdate,
  TranslationTaskRef,
  VideoTranslateRequest,
  VideoTranslateTask,
} from "./media_gen_client.js";
import type { InitInput } from "./media_gen_client.js";

/** Load the client module; call (and await) once before anything else.
 * `input` is where the module is, when a bundler does not say. */
export default function init(input?: { module_or_path: InitInput | Promise<InitInput> }): Promise<unknown>;

/** Whether `value` is an error this package threw or rejected with. */
export declare function isMediaGenError(value: unknown): value is import("./media_gen_client.js").MediaGenError;
