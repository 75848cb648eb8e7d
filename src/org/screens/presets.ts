import type { PresetName } from "../runtimes/presets.js";
import type { ScreenRule } from "./types.js";

// Order matters: a blocking screen (login, offline, limit, dialog) wins over the prompt drawn under it.
const CLAUDE: ScreenRule[] = [
  { kind: "refused", pattern: /--dangerously-skip-permissions cannot be used with root\/sudo/ },
  { kind: "offline", pattern: /Unable to connect to Anthropic services|Failed to connect to api\.anthropic\.com/ },
  { kind: "login-required", pattern: /Not logged in|Please run \/login|Invalid API key|Select login method|OAuth (error|token has expired)/ },
  { kind: "usage-limit", pattern: /usage limit reached|hit your (usage )?limit|\blimit reached\b.*reset/i, reset: /resets? (?:at )?([^·∙|]+?)\s*$/i },
  { kind: "trust-dialog", pattern: /Do you trust the files in this folder|Is this a project you created or one you trust|Yes, I trust this folder/, keys: ["Enter"] },
  { kind: "trust-dialog", pattern: /Bypass Permissions mode.*|Yes, I accept/, keys: ["Down", "Enter"] },
  { kind: "working", pattern: /esc to interrupt/i },
  { kind: "idle", pattern: /\? for shortcuts|⏵⏵ bypass permissions|^\s*[│|]?\s*[>❯]\s*[│|]?$/ },
];

const CODEX: ScreenRule[] = [
  { kind: "login-required", pattern: /Sign in with ChatGPT|Sign in with Device Code|Please (log|sign) in|codex login/ },
  { kind: "offline", pattern: /Reconnecting\.\.\.|waiting for network|stream error: error sending request|error sending request for url/ },
  { kind: "usage-limit", pattern: /hit your usage limit|usage limit reached|Rate limit reached/i, reset: /try again (?:in|at) ([^.]+)/i },
  { kind: "trust-dialog", pattern: /Do you trust the files in this folder|allow Codex to work in this folder/i, keys: ["Enter"] },
  { kind: "working", pattern: /esc to interrupt/i },
  { kind: "idle", pattern: /\? for shortcuts|⏎ send|context left|^\s*[›▌>]\s*$/ },
];

const GEMINI: ScreenRule[] = [
  { kind: "login-required", pattern: /Login with Google|Waiting for auth|GEMINI_API_KEY environment variable not found|Get started\s*$/ },
  { kind: "offline", pattern: /fetch failed|ENOTFOUND|getaddrinfo|Failed to connect/ },
  { kind: "usage-limit", pattern: /quota exceeded|Quota exceeded|RESOURCE_EXHAUSTED|usage limit/i, reset: /(?:reset|retry)[^0-9]*([0-9].*)$/i },
  { kind: "trust-dialog", pattern: /Do you trust this folder|Trust folder/, keys: ["Enter"] },
  { kind: "working", pattern: /esc to cancel/i },
  { kind: "idle", pattern: /Type your message|^\s*>\s*$/ },
];

const OPENCODE: ScreenRule[] = [
  { kind: "login-required", pattern: /No providers? (configured|found)|opencode auth login|Connect a provider/i },
  { kind: "offline", pattern: /Unable to connect|ENOTFOUND|fetch failed/ },
  { kind: "usage-limit", pattern: /rate limit|usage limit|quota/i, reset: /(?:reset|retry)[^0-9]*([0-9].*)$/i },
  { kind: "working", pattern: /esc (to )?interrupt|working\.\.\./i },
  { kind: "idle", pattern: /ctrl\+p commands|enter send/i },
];

/** The screen rules of each preset; generic programs are only ever working, shell or unknown. */
export const SCREEN_RULES: Record<PresetName, ScreenRule[]> = { claude: CLAUDE, codex: CODEX, gemini: GEMINI, opencode: OPENCODE, generic: [] };
