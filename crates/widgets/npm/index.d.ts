export * from "./media_gen.js";
export { default } from "./media_gen.js";
import type { ClientOptions, AnyRequest, SubmittedDetail, StatusDetail, ErrorDetail, TaskKind } from "./media_gen.js";

export declare const EVENT_SUBMITTED: "media-gen-submitted";
export declare const EVENT_STATUS: "media-gen-status";
export declare const EVENT_COMPLETE: "media-gen-complete";
export declare const EVENT_ERROR: "media-gen-error";

/** Options an attribute cannot carry: set as the `options` property. */
export interface ElementOptions extends Partial<ClientOptions> {
  initial?: AnyRequest;
  taskIds?: string[];
}

declare abstract class MediaGenElement extends HTMLElement {
  options: ElementOptions;
  kind: TaskKind | null;
  baseUrl: string;
}

/** `<media-gen-submit kind="..." base-url="...">` */
export declare class MediaGenSubmitElement extends MediaGenElement {}

/** `<media-gen-task kind="..." task-id="..." base-url="...">` */
export declare class MediaGenTaskElement extends MediaGenElement {
  taskId: string | null;
}

/** Register `<media-gen-submit>` and `<media-gen-task>` (after `init()`). */
export declare function defineElements(): void;

declare global {
  interface HTMLElementTagNameMap {
    "media-gen-submit": MediaGenSubmitElement;
    "media-gen-task": MediaGenTaskElement;
  }
  interface HTMLElementEventMap {
    "media-gen-submitted": CustomEvent<SubmittedDetail>;
    "media-gen-status": CustomEvent<StatusDetail>;
    "media-gen-complete": CustomEvent<StatusDetail>;
    "media-gen-error": CustomEvent<ErrorDetail>;
  }
}
