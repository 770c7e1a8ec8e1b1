export * from "./client.js";
export { default } from "./client.js";
export type {
  ErrorDetail,
  StatusDetail,
  StatusWidgetOptions,
  SubmitWidgetOptions,
  SubmittedDetail,
} from "./media_gen_widgets.js";
import type { AnyRequest, ClientOptions, Problem, TaskKind } from "./client.js";
import type {
  ErrorDetail,
  StatusDetail,
  StatusWidgetOptions,
  SubmitWidgetOptions,
  SubmittedDetail,
} from "./media_gen_widgets.js";

/** A mounted widget. */
export interface WidgetHandle<Options> {
  /** Settles when the widget is on the page (its module loaded, and a
   * submit widget's forms); the element sends `media-gen-ready` then.
   * Rejects when they did not load (the network, or a newer version of
   * the site): a submit widget whose forms did not load says so in place
   * of its form, and the next widget mounted tries again. */
  readonly ready: Promise<void>;
  /** The element the widget is mounted in. */
  readonly element: Element;
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

/** A mounted submit widget: its form can also be sent, emptied and focused.
 * Each throws a `kind: "options"` error once the widget is unmounted. */
export interface SubmitWidgetHandle extends WidgetHandle<SubmitWidgetOptions> {
  /** Send the form as its submit button would (nothing while it has errors). */
  submit(): void;
  /** Start the form again, empty. */
  reset(): void;
  /** Put the focus in the form's first field. */
  focus(): void;
  /** Start the form from a `media-gen-use` event's detail: its kind, and
   * the request with the result in its field. */
  use(detail: UseDetail): void;
}

/** A mounted status widget. */
export type StatusWidgetHandle = WidgetHandle<StatusWidgetOptions>;

/** `detail` of `media-gen-use`: a finished task's result offered to the
 * next job ("Make a video of it", "Use as reference", "Translate it"). */
export interface UseDetail {
  /** The kind of task the next job submits. */
  kind: TaskKind;
  /** The request field the result fills (`image_url`, `reference_images`, `video_url`). */
  field: string;
  /** The result's address: the site's kept copy when it keeps one. */
  url: string;
  /** The request a submit widget of `kind` starts from. */
  request: AnyRequest;
  /** The task the result came from. */
  source: { kind: TaskKind; taskId: string };
}

/** `detail` of `media-gen-ready`. */
export interface ReadyDetail {
  kind: TaskKind;
}

/** `detail` of `media-gen-change`: the submit form's state after a change. */
export interface ChangeDetail {
  kind: TaskKind;
  /** No errors: the form can be sent. */
  complete: boolean;
  /** Nothing typed yet (choices such as the model do not count). */
  empty: boolean;
  /** Every problem, errors and warnings, as the form shows them. */
  problems: Problem[];
}

/** Mount the submit form for `options.kind` into `element` (or the element
 * a selector names). Wrong options throw an `Error` with `kind: "options"`. */
export declare function mountSubmitWidget(
  element: Element | string,
  options: SubmitWidgetOptions,
): SubmitWidgetHandle;

/** Mount the status view of `options.taskId` (or `taskIds`) into `element`
 * and follow the tasks until they end. */
export declare function mountStatusWidget(
  element: Element | string,
  options: StatusWidgetOptions,
): StatusWidgetHandle;

/** Fetch and start the widgets' module now rather than on the first mount;
 * with `{ forms: true }`, the submit widget's forms too (a part of the
 * module fetched by the first submit widget). Rejects when they did not
 * load; the next call asks again. */
export declare function preload(options?: { forms?: boolean }): Promise<unknown>;

export declare const EVENT_SUBMITTED: "media-gen-submitted";
export declare const EVENT_STATUS: "media-gen-status";
export declare const EVENT_COMPLETE: "media-gen-complete";
export declare const EVENT_ERROR: "media-gen-error";
export declare const EVENT_READY: "media-gen-ready";
export declare const EVENT_CHANGE: "media-gen-change";
export declare const EVENT_USE: "media-gen-use";

/** Options an attribute cannot carry: set as the `options` property. */
export interface ElementOptions extends Partial<ClientOptions> {
  initial?: AnyRequest;
  taskIds?: string[];
}

declare abstract class MediaGenElement extends HTMLElement {
  /** Options an attribute cannot carry. */
  options: ElementOptions;
  /** The `kind` attribute; `null` removes it. */
  get kind(): TaskKind | null;
  set kind(value: TaskKind | null | undefined);
  /** The `base-url` attribute (`""` when absent); `null` removes it. */
  get baseUrl(): string;
  set baseUrl(value: string | null | undefined);
}

/** `<media-gen-submit kind="..." base-url="...">` */
export declare class MediaGenSubmitElement extends MediaGenElement {}

/** `<media-gen-task kind="..." task-id="..." base-url="...">` */
export declare class MediaGenTaskElement extends MediaGenElement {
  /** The `task-id` attribute; `null` removes it. */
  get taskId(): string | null;
  set taskId(value: string | null | undefined);
  /** The `task-ids` attribute as a list; `null` removes it. */
  get taskIds(): string[] | null;
  set taskIds(value: readonly string[] | null | undefined);
  /** The `relay` attribute: a submit's `relay`, so the tasks' ends are
   * heard of through the site's relay instead of read; `null` removes it. */
  get relay(): string | null;
  set relay(value: string | null | undefined);
}

/** Register `<media-gen-submit>` and `<media-gen-task>` (after `init()`). */
export declare function defineElements(): void;

declare global {
  interface HTMLElementTagNameMap {
    "media-gen-submit": MediaGenSubmitElement;
    "media-gen-task": MediaGenTaskElement;
  }
  /** The widgets' events bubble out of shadow roots: an element, the
   * document and the window all hear them. */
  interface MediaGenEventMap {
    "media-gen-submitted": CustomEvent<SubmittedDetail>;
    "media-gen-status": CustomEvent<StatusDetail>;
    "media-gen-complete": CustomEvent<StatusDetail>;
    "media-gen-error": CustomEvent<ErrorDetail>;
    "media-gen-ready": CustomEvent<ReadyDetail>;
    "media-gen-change": CustomEvent<ChangeDetail>;
    "media-gen-use": CustomEvent<UseDetail>;
  }
  interface ElementEventMap extends MediaGenEventMap {}
  interface HTMLElementEventMap extends MediaGenEventMap {}
  interface DocumentEventMap extends MediaGenEventMap {}
  interface WindowEventMap extends MediaGenEventMap {}
}
