import type { PresetName } from "../runtimes/runtime-presets.js";
import type { ScreenRule } from "./screen-state.js";

/** One regex of alternatives written one or a few a line (a regex literal cannot be broken): `before(?:a|b|…)after`. */
function anyOf(alternatives: RegExp[], around: { before?: string; after?: string; flags?: string } = {}): RegExp {
  const { before = "", after = "", flags = "" } = around;
  return new RegExp(`${before}(?:${alternatives.map((part) => part.source).join("|")})${after}`, flags);
}

// Order matters: a blocking screen (login, offline, limit, dialog) wins over the prompt drawn under it.
const CLAUDE: ScreenRule[] = [
  { kind: "refused", pattern: /--dangerously-skip-permissions cannot be used with root\/sudo/, refusal: "root" },
  {
    kind: "offline",
    pattern: anyOf([
      /Unable to connect to Anthropic services/, /Failed to connect to api\.anthropic\.com/,
      /Can't reach the API server/,
    ]),
  },
  // 2.1.328 asks before it uses an ANTHROPIC_API_KEY it has not seen, with "No" selected: a person answers that.
  {
    kind: "login-required",
    pattern: anyOf([
      /Not logged in/, /Please run \/login/, /Invalid API key/, /Select login method/,
      /OAuth (error|token has expired)/, /Detected a custom API key/,
    ]),
  },
  // 2.1.328 retries a 401 ten times ("✻ 401 invalid x-api-key · retrying in 29s · attempt
  // 7/10"), minutes a person could fix it in.
  {
    kind: "key-refused",
    pattern: /^\s*\S?\s*(?:API Error: )?401\b.*(?:retrying in|attempt \d+\/\d+|authentication_error|x-api-key)/,
  },
  {
    kind: "usage-limit",
    pattern: /usage limit reached|hit your (usage )?limit|\blimit reached\b.*reset/i,
    reset: /resets? (?:at )?([^·∙|]+?)\s*$/i,
  },
  // 2.1.328's dialogs open with "No, exit" selected, and Enter there exits: Down first unless yes is already selected.
  {
    kind: "trust-dialog",
    pattern: /^\s*[│|]?\s*❯\s*(?:\d+\.\s*)?Yes, (?:proceed|I trust this folder|I accept)/,
    keys: ["Enter"],
  },
  {
    kind: "trust-dialog",
    pattern: /Yes, I trust this folder|Is this a project you created or one you trust/,
    keys: ["Down", "Enter"],
  },
  { kind: "trust-dialog", pattern: /Do you trust the files in this folder/, keys: ["Enter"] },
  { kind: "trust-dialog", pattern: /Bypass Permissions mode.*|Yes, I accept/, keys: ["Down", "Enter"] },
  { kind: "working", pattern: /esc to interrupt/i },
  // After working: 2.1.328 retries a 5xx or a dropped stream ten times ("attempt 7/10"), then
  // leaves "● API Error: …" above its prompt.
  {
    kind: "service-error",
    pattern: /^\s*●\s*API Error: (?:5\d\d\b|Connection dropped|Overloaded|Internal server error|JSON Parse error)/,
    tail: 6,
  },
  { kind: "idle", pattern: /\? for shortcuts|⏵⏵ bypass permissions|^\s*[│|]?\s*[>❯]\s*[│|]?$/ },
];

const CODEX: ScreenRule[] = [
  { kind: "login-required", pattern: /Sign in with ChatGPT|Sign in with Device Code|Please (log|sign) in|codex login/ },
  { kind: "key-refused", pattern: /^\s*■ unexpected status 401\b/ },
  // 0.169.0 shows "Reconnecting... 1/5" while it retries any failed request (a 500 too): that
  // is its own retry, still working.
  { kind: "offline", pattern: /waiting for network|stream error: error sending request|error sending request for url/ },
  {
    kind: "usage-limit",
    pattern: /hit your usage limit|usage limit reached|Rate limit reached/i,
    reset: /try again (?:in|at) ([^.]+)/i,
  },
  // 0.169.0: "Trust this folder?" with "› 1. Trust and continue" selected; Enter saves trust_level = "trusted".
  {
    kind: "trust-dialog",
    pattern: anyOf([
      /Trust this folder\?/, /Trust and continue/, /Do you trust the files in this folder/,
      /allow Codex to work in this folder/,
    ], { flags: "i" }),
    keys: ["Enter"],
  },
  { kind: "working", pattern: /esc to interrupt/i },
  // After working: 0.169.0 gives up after "Reconnecting... 5/5" and leaves the last error, under "■", above its prompt.
  {
    kind: "service-error",
    pattern: anyOf([
      /We’re currently experiencing high demand/, /stream disconnected before completion/, /unexpected status 5\d\d/,
    ], { before: String.raw`^\s*■ ` }),
    tail: 5,
  },
  { kind: "idle", pattern: /\? for shortcuts|⏎ send|context left|^\s*[›▌>]\s*$/ },
];

const GEMINI: ScreenRule[] = [
  // 0.61.0 takes CI=true or GITHUB_ACTIONS=true as headless even in a terminal: it exits 55
  // instead of asking for trust.
  // A narrow pane wraps its message: any one of its phrases on one row will do.
  {
    kind: "refused",
    pattern: /not running in a trusted directory|GEMINI_CLI_TRUST_WORKSPACE|headless-and-automated-environments/,
    refusal: "headless",
  },
  // 0.61.0 asks for an auth method even with GEMINI_API_KEY set, until settings.json names one:
  // its own hint says which.
  { kind: "login-required", pattern: /Existing API key detected/ },
  {
    kind: "login-required",
    pattern: anyOf([
      /How would you like to authenticate/, /Waiting for authentication/, /Failed to sign in/,
      /GEMINI_API_KEY environment variable not found/,
    ]),
  },
  { kind: "key-refused", pattern: /^\s*✕ \[API Error: .*(?:"code":\s*401\b|UNAUTHENTICATED|API key not valid)/ },
  { kind: "offline", pattern: /fetch failed|ENOTFOUND|getaddrinfo|Failed to connect/ },
  {
    kind: "usage-limit",
    pattern: /quota exceeded|Quota exceeded|RESOURCE_EXHAUSTED|usage limit reached/i,
    reset: /(?:resets?|retry)[^0-9]*([0-9].*)$/i,
  },
  // 0.61.0: "● 1. Trust folder (<name>)" is selected; after Enter the dialog stays up while the CLI restarts itself,
  // and a second Enter then would land in whatever it draws next.
  { kind: "working", pattern: /is restarting to apply the trust changes/ },
  {
    kind: "trust-dialog",
    pattern: /Do you trust the files in this folder|Do you trust this folder|Trust folder/,
    keys: ["Enter"],
  },
  { kind: "working", pattern: /esc to cancel/i },
  // After working: 0.61.0 answers a reply it cannot parse, or a 5xx it gave up on, with "✕ [API
  // Error: …]" above its prompt.
  {
    kind: "service-error",
    pattern: anyOf([
      /"code":\s*5\d\d\b/, /INTERNAL/, /UNAVAILABLE/, /in JSON at position/, /Unexpected token/, /terminated/,
    ], { before: String.raw`^\s*✕ \[API Error: .*` }),
    tail: 13,
  },
  { kind: "idle", pattern: /Type your message|^\s*>\s*$/ },
];

const OPENCODE: ScreenRule[] = [
  {
    kind: "login-required",
    pattern: /No providers? (configured|found)|opencode auth login|Connect a provider|Failed to initialize provider/i,
  },
  // 1.18.33 shows only the service's message, in the session's box: the services' own words for a refused key.
  {
    kind: "key-refused",
    pattern: anyOf([
      /Incorrect API key provided/, /invalid x-api-key/, /Invalid API key/, /API key not valid/, /invalid_api_key/,
    ], { before: String.raw`^\s*┃\s+`, after: String.raw`\b` }),
  },
  // 1.18.33 retries with "Cannot connect to API: … [retrying in 3s attempt #3]", then leaves the error in the session.
  // "Cannot connect to API: The socket connection was closed unexpectedly" is the service
  // dropping a stream, not the network.
  {
    kind: "offline",
    pattern: /Cannot connect to API(?!: The socket connection was closed)|Unable to connect|ENOTFOUND|fetch failed/,
  },
  { kind: "usage-limit", pattern: /rate limit|usage limit|quota/i, reset: /(?:reset|retry)[^0-9]*([0-9].*)$/i },
  { kind: "working", pattern: /esc (to )?interrupt|working\.\.\.|\[retrying in \d+s attempt #\d+\]/i },
  // After working: 1.18.33 retries a 5xx ("Internal server error [retrying in 16s attempt
  // #4]"), then leaves the service's words
  // in the session's box; a reply it cannot parse shows at once.
  {
    kind: "service-error",
    pattern: anyOf([
      /Internal server error/, /Service Unavailable/, /Bad Gateway/, /Overloaded/, /The server had an error/,
      /Cannot connect to API: The socket connection was closed/, /JSON parsing failed/,
    ], { before: String.raw`^\s*┃\s+`, after: String.raw`\b`, flags: "i" }),
  },
  { kind: "idle", pattern: /ctrl\+p commands|enter send/i },
];

/** The screen rules of each preset; generic programs are only ever working, shell or unknown. */
export const SCREEN_RULES: Record<PresetName, ScreenRule[]> = {
  claude: CLAUDE,
  codex: CODEX,
  gemini: GEMINI,
  opencode: OPENCODE,
  generic: [],
};
