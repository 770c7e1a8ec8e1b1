import type {
  AnyRequest,
  ClientOptions,
  MediaGenErrorInfo,
  Submitted,
  TaskKind,
  TaskOfKind,
  TaskStatus,
} from "./media_gen_client.js";

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

/** `detail` of `media-gen-submitted`: what a client's submit resolves to;
 * `kind` narrows `request` and `answer`. */
export type SubmittedDetail = Submitted;

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
