export * from "./client.js";
export { default } from "./client.js";
export type {
  ErrorDetail,
  StatusDetail,
  StatusWidgetOptions,
  SubmitWidgetOptions,
  SubmittedDetail,
} from "./media_gen_widgets.js";
import type { AnyRequest, ClientOptions, TaskKind } from "./client.js";
import type {
  ErrorDetail,
  StatusDetail,
  StatusWidgetOptions,
  SubmitWidgetOptions,
  SubmittedDetail,
} from "./media_gen_widgets.js";

/** A mounted widget. */
export interface WidgetHandle<Options> {
  /** Settles when the widget is on the page (its module loaded). */
  readonly ready: Promise<void>;
  /** Change some options; the others stay. Wrong options throw
   * (`kind: "options"`) and leave the widget as it was. */
  update(options: Partial<Options>): void;
  /** Remove the widget: nothing of it is left running. Again: nothing. */
  unmount(): void;
  /** Same as `unmount()`. */
  free(): void;
  /** `using handle = mount...(...)` unmounts at the end of the block. */
  [Symbol.dispose](): void;
}

/** Mount the submit form for `options.kind` into `element` (or the element
 * a selector names). Wrong options throw an `Error` with `kind: "options"`. */
export declare function mountSubmitWidget(
  element: Element | string,
  options: SubmitWidgetOptions,
): WidgetHandle<SubmitWidgetOptions>;

/** Mount the status view of `options.taskId` (or `taskIds`) into `element`
 * and follow the tasks until they end. */
export declare function mountStatusWidget(
  element: Element | string,
  options: StatusWidgetOptions,
): WidgetHandle<StatusWidgetOptions>;

/** Fetch and start the widgets' module now rather than on the first mount. */
export declare function preload(): Promise<unknown>;

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
