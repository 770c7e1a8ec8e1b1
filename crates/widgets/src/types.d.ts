import type {
  AnyRequest,
  ClientOptions,
  ImageGenerateRequest,
  ImageGenerateTask,
  ImageToVideoRequest,
  ImageToVideoTask,
  MediaGenErrorInfo,
  TaskKind,
  TaskStatus,
  VideoTranslateRequest,
  VideoTranslateTask,
} from "./media_gen_client.js";

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

export interface SubmitWidgetOptions extends ClientOptions {
  kind: TaskKind;
  /** Values to start the form from. */
  initial?: AnyRequest;
}

export interface StatusWidgetOptions extends ClientOptions {
  kind: TaskKind;
  taskId?: string;
  taskIds?: string[];
  /** `relay` of the submit widget's `media-gen-submitted`: through a gateway
   * that relays callbacks, the tasks' ends are heard of instead of read. */
  relay?: string | null;
}

/** `detail` of `media-gen-submitted`; `kind` narrows `request`. */
export type SubmittedDetail = {
  [K in TaskKind]: {
    kind: K;
    taskIds: string[];
    /** The capability a relaying gateway named for this submit (give it to
     * the status widget as `relay`); `null` without one. */
    relay: string | null;
    request: RequestOfKind[K];
  };
}[TaskKind];

/** `detail` of `media-gen-status` and `media-gen-complete`; `kind` narrows
 * `task` (`if (detail.kind === "image_generate") detail.task.image_url`). */
export type StatusDetail = {
  [K in TaskKind]: { kind: K; taskId: string; status: TaskStatus; task: TaskOfKind[K] };
}[TaskKind];

export interface ErrorDetail {
  kind: TaskKind;
  taskId?: string;
  error: MediaGenErrorInfo;
}
