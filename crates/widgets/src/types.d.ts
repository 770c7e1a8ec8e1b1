import type {
  AnyRequest,
  AnyTask,
  ClientOptions,
  MediaGenErrorInfo,
  TaskKind,
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
}

export interface SubmittedDetail {
  kind: TaskKind;
  taskIds: string[];
  request: AnyRequest;
}

export interface StatusDetail {
  kind: TaskKind;
  taskId: string;
  status: TaskStatus;
  task: AnyTask;
}

export interface ErrorDetail {
  kind: TaskKind;
  taskId?: string;
  error: MediaGenErrorInfo;
}
