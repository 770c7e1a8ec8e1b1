// The wire types, generated from media-gen-api's Rust types by ts-rs.
// Do not edit: `MEDIA_GEN_WRITE_TYPES=1 cargo test -p media-gen-js` writes it.

export type TaskKind = "image_to_video" | "video_translate" | "image_generate";

export type TaskStatus = "PENDING" | "GENERATING" | "SUCCEEDED" | "FAILED" | (string & {});

export type Model = "V" | "KL" | "S";

export type AspectRatio = "16:9" | "9:16";

export type Resolution = "720p" | "1080p" | "4k";

export type Module = "std" | "pro";

export type ImageQuality = "1K" | "2K" | "4K";

export type ImageRatio = "1:1" | "3:2" | "2:3" | "3:4" | "4:3" | "4:5" | "5:4" | "9:16" | "16:9" | "21:9";

/**
 * The submit request body. Unset optional fields are left out of the JSON.
 *
 * Integers are `i64` so that an out-of-range value (a negative count, say)
 * reaches validation and gets a message naming the rule, rather than failing
 * to decode.
 */
export type ImageToVideoRequest = {
  /**
   * `V`, `KL` or `S`. Required here (see the crate README).
   */
  model?: Model,
  /**
   * Required for all models; at most 1000 characters.
   */
  prompt: string,
  /**
   * `16:9` or `9:16`. Optional (see the crate README).
   */
  aspect_ratio?: AspectRatio,
  /**
   * `720p`, `1080p` or `4k`; required; the set depends on the model.
   */
  aspect_resolution?: Resolution,
  /**
   * Seconds: 4, 5, 6, 8, 10 or 12; required; the set depends on the model.
   */
  duration?: number,
  /**
   * Start frame URL; at most 20MB.
   */
  image_url?: string,
  /**
   * End frame URL; model `V` only.
   */
  end_image_url?: string,
  /**
   * Reference image URLs; at most 20MB each; the count limit depends on the model.
   */
  reference_images?: Array<string>,
  /**
   * Generate a sound track; model `V` only. Default false.
   */
  generate_audio?: boolean,
  /**
   * Videos to make, 1 to 4. Default 1.
   */
  generate_count?: number,
  /**
   * Address that receives the completion notification.
   */
  callback_url?: string,
};

/**
 * The submit request body. Unset optional fields are left out of the JSON.
 */
export type VideoTranslateRequest = {
  /**
   * Language names from the language list; one task per language. Required.
   */
  target_languages: Array<string>,
  /**
   * The video to translate. Required.
   */
  video_url: string,
  /**
   * Number of speakers, 0 or more; detected by the service when left out.
   */
  speaker_num?: number,
  /**
   * Ignore faces and translate only the voice track. Default false.
   */
  translate_audio_only?: boolean,
  /**
   * Stretch or shrink portions for fluid speech across languages. Default true.
   */
  enable_dynamic_duration?: boolean,
  /**
   * Generate subtitles. Default false.
   */
  enable_caption?: boolean,
  /**
   * Video name, fewer than 100 characters; see [`predicted_name`].
   */
  name?: string,
  /**
   * Address that receives the completion notification.
   */
  callback_url?: string,
};

/**
 * The submit request body. Unset optional fields are left out of the JSON.
 */
export type ImageGenerateRequest = {
  /**
   * Required; at most 1000 characters.
   */
  prompt: string,
  /**
   * Up to 5 image URLs, each under 20MB; items past the fifth are dropped by the service.
   */
  reference_images?: Array<string>,
  /**
   * `std` (default) or `pro`.
   */
  module?: Module,
  /**
   * Images to make, 1 to 8, each a separate task. Default 1.
   */
  generate_count?: number,
  /**
   * `1K`, `2K` (default) or `4K`.
   */
  image_quality?: ImageQuality,
  /**
   * Width:height, `9:16` by default.
   */
  image_ratio?: ImageRatio,
  /**
   * Address that receives the completion notification (service-facts.md).
   */
  callback_url?: string,
};

/**
 * The submit response `data` of image_to_video and image_generate: one id per task.
 */
export type TaskIds = {
  /**
   * Task identifiers, opaque strings.
   */
  task_ids: Array<string>,
};

/**
 * One element of the submit response `data`: the task made for one language.
 */
export type TranslationTaskRef = {
  /**
   * Task identifier.
   */
  task_id: string,
  /**
   * The target language of this task.
   */
  language: string,
};

/**
 * One text per media field: the `kept` object (the gateway's addresses)
 * and the `not_kept` object (why not) have this shape.
 */
export type ByMediaField = {
  /**
   * For `video_url`.
   */
  video_url?: string,
  /**
   * For `thumbnail_url`.
   */
  thumbnail_url?: string,
  /**
   * For `caption_url`.
   */
  caption_url?: string,
  /**
   * For `image_url`.
   */
  image_url?: string,
};

/**
 * An image-to-video task (status response `data`; also the callback's `data`,
 * which leaves out `duration`, `width` and `height`).
 */
export type ImageToVideoTask = {
  /**
   * Task identifier.
   */
  task_id: string,
  /**
   * Task status.
   */
  status: TaskStatus,
  /**
   * The generated video; meaningful when `SUCCEEDED`.
   */
  video_url: string,
  /**
   * A cover image for the video.
   */
  thumbnail_url: string,
  /**
   * Error detail; empty when there is no error.
   */
  error_message: string,
  /**
   * Video length in seconds.
   */
  duration?: number,
  /**
   * Video width in pixels.
   */
  width?: number,
  /**
   * Video height in pixels.
   */
  height?: number,
  /**
   * The gateway's copies of its files, by field: a gateway's addition,
   * absent from the service's own answers; a page shows these first.
   */
  kept?: ByMediaField,
  /**
   * Why a file of it was not kept, by field: a gateway's addition.
   */
  not_kept?: ByMediaField,
};

/**
 * A video translation task (status response `data`; also the callback's `data`).
 */
export type VideoTranslateTask = {
  /**
   * Task identifier.
   */
  task_id: string,
  /**
   * Name of the translated video.
   */
  name: string,
  /**
   * Target language of this task.
   */
  language: string,
  /**
   * Task status.
   */
  status: TaskStatus,
  /**
   * The translated video.
   */
  video_url: string,
  /**
   * The subtitle file (ASS); relevant when captions were requested.
   */
  caption_url: string,
  /**
   * Error detail; empty when there is none.
   */
  error_message: string,
  /**
   * The gateway's copies of its files, by field: a gateway's addition,
   * absent from the service's own answers; a page shows these first.
   */
  kept?: ByMediaField | null,
  /**
   * Why a file of it was not kept, by field: a gateway's addition.
   */
  not_kept?: ByMediaField | null,
};

/**
 * One image generation task (status response `data`; also the callback's `data`).
 */
export type ImageGenerateTask = {
  /**
   * One element of the submit response's `task_ids`.
   */
  task_id: string,
  /**
   * Task status.
   */
  status: TaskStatus,
  /**
   * The generated image; empty while generating.
   */
  image_url: string,
  /**
   * A thumbnail; empty while generating. The callback may call it `thumbnail`.
   */
  thumbnail_url: string,
  /**
   * Error detail; empty when there is none.
   */
  error_message: string,
  /**
   * The gateway's copies of its files, by field: a gateway's addition,
   * absent from the service's own answers; a page shows these first.
   */
  kept?: ByMediaField | null,
  /**
   * Why a file of it was not kept, by field: a gateway's addition.
   */
  not_kept?: ByMediaField | null,
};

/**
 * How serious a problem is.
 */
export type Severity = "error" | "warning";

/**
 * Which rule a problem breaks; serialized as a stable snake_case code.
 */
export type Rule = "required" | "too_long" | "out_of_range" | "invalid_url" | "not_allowed_for_model" | "not_supported_by_model" | "too_many" | "conflicting_modes" | "duplicate" | "unknown_language" | "too_large" | "will_be_dropped" | "unexpected_file_type" | "aspect_mismatch" | "end_frame_without_start";

/**
 * One problem with a request.
 */
export type Problem = {
  /**
   * Path of the field: `prompt`, `reference_images[3]`.
   */
  field: string,
  /**
   * The rule broken; its [`Rule::code`] is stable.
   */
  rule: Rule,
  /**
   * Error or warning.
   */
  severity: Severity,
  /**
   * A sentence for a person that names the rule: "Model S supports only 720p".
   */
  message: string,
};

/**
 * What a gateway (or the sandbox) offers beyond the documented calls.
 */
export type Capabilities = {
  /**
   * The callback relay, when the gateway has one.
   */
  relay?: RelayInfo,
  /**
   * Present when the server is a sandbox: the inboxes it keeps the
   * callbacks it receives in (a form offers one as its callback URL).
   */
  sandbox?: SandboxInfo,
  /**
   * Who may use the gateway, and who is asking (absent: anyone, as a
   * service or an older gateway). Read only with the `access` feature
   * (always written).
   */
  access?: AccessInfo,
  /**
   * Where files are uploaded, when the gateway takes them. Read only
   * with the `uploads` feature (always written).
   */
  uploads?: UploadsInfo,
  /**
   * Shared links, when the gateway offers them (it keeps each person's
   * library and their results). Read only with the `sharing` feature
   * (always written).
   */
  sharing?: SharingInfo,
};

/**
 * Where a gateway's relay is.
 */
export type RelayInfo = {
  /**
   * The path of the event stream: `/events`, to which
   * `?relays=c1,c2` (the capabilities followed) is added.
   */
  events: string,
};

/**
 * What a sandbox offers a page.
 */
export type SandboxInfo = {
  /**
   * The path under which the sandbox keeps callbacks, an inbox per name:
   * `/sandbox/inbox`, to which `/{name}` is added.
   */
  inbox: string,
};

/**
 * A gateway's access rule as a page sees it.
 */
export type AccessInfo = {
  /**
   * `open` (anyone), `keys` (a person's access key) or `proxy` (the
   * person an auth proxy in front names).
   */
  mode: AccessMode,
  /**
   * The person the asking call names, when it names one.
   */
  person?: PersonInfo | null,
  /**
   * Whether the gateway keeps each person's library (`/library`).
   */
  library?: boolean,
};

/**
 * Who may use a gateway.
 */
export type AccessMode = "open" | "keys" | "proxy";

/**
 * The person a call names, and what is left of their day.
 */
export type PersonInfo = {
  /**
   * The name their key was given to.
   */
  name: string,
  /**
   * The tasks they may create per day (UTC).
   */
  tasks_per_day: number,
  /**
   * What is left of it today.
   */
  tasks_left_today: number,
};

/**
 * Where a gateway takes uploads (tus 1.0) and within what bounds.
 */
export type UploadsInfo = {
  /**
   * The tus creation path (`/uploads/`), relative to the base URL.
   */
  path: string,
  /**
   * The largest image taken (the contract's 20 MB).
   */
  max_image_bytes: number,
  /**
   * The largest video taken.
   */
  max_video_bytes: number,
  /**
   * How long an upload is kept after it is made or finished (seconds).
   */
  ttl_seconds: number,
  /**
   * Whether the gateway keeps a copy of every result (`kept` in the
   * tasks it forwards); absent from a gateway from before, which keeps
   * none.
   */
  keeps_results: boolean,
};

/**
 * Where a gateway's shared links are made and opened.
 */
export type SharingInfo = {
  /**
   * Where links are made, listed and taken back (`/shares`), relative
   * to the base URL.
   */
  path: string,
  /**
   * Where a link's page is opened (`/s/{token}`), relative to the base
   * URL.
   */
  shared_path: string,
  /**
   * Whether links open only to people signed in may be made.
   */
  team: boolean,
};

/**
 * How long a link lives.
 */
export type ShareLife = "day" | "week" | "month" | "kept";

/**
 * What `POST /shares` asks for.
 */
export type NewShare = {
  /**
   * The requests shared, in the order shown.
   */
  requests: string[],
  /**
   * Only these of their tasks (their ids), when given; every task
   * otherwise.
   */
  tasks: Array<string>,
  /**
   * How long it lives.
   */
  life: ShareLife,
  /**
   * Whether the page shows what was asked (the prompt, the settings),
   * not only the results.
   */
  asked: boolean,
  /**
   * Whether only people signed in to the site may open it.
   */
  team: boolean,
};

/**
 * One of the owner's links, as `GET /shares` lists it.
 */
export type Share = {
  /**
   * The link's token (128 random bits, 32 hex digits).
   */
  token: string,
  /**
   * Its address under the site: `/s/{token}`.
   */
  path: string,
  /**
   * When it was made (milliseconds since 1970).
   */
  created: number,
  /**
   * When it ends (milliseconds since 1970); `null`: with the copies.
   */
  ends: number | null,
  /**
   * How often its page was opened.
   */
  views: number,
  /**
   * Whether it shows what was asked.
   */
  asked: boolean,
  /**
   * Whether only people signed in may open it.
   */
  team: boolean,
  /**
   * The requests it shares.
   */
  requests: string[],
  /**
   * How many tasks it shows.
   */
  tasks: number,
};
