/** What an agent's terminal shows, as one word a supervisor acts on, with the evidence. */
export type ScreenState =
  | { kind: "working"; reason: string }
  | { kind: "idle"; reason: string }
  | { kind: "trust-dialog"; reason: string; keys: string[] }
  | { kind: "usage-limit"; reason: string; resetText: string | null }
  | { kind: "login-required"; reason: string }
  | { kind: "key-refused"; reason: string }
  | { kind: "offline"; reason: string }
  | { kind: "service-error"; reason: string }
  | { kind: "refused"; reason: string; refusal: Refusal }
  | { kind: "shell"; reason: string }
  | { kind: "unknown"; reason: string };

export type ScreenKind = ScreenState["kind"];

/**
 * Why a CLI refused to start: "root" for an unattended flag refused to root, "headless" for a
 * trust question it will not ask without a terminal.
 */
export type Refusal = "root" | "headless";

/** One screen pattern of a CLI: the first rule whose pattern matches a row decides. */
export interface ScreenRule {
  kind: Exclude<ScreenKind, "unknown" | "shell">;
  pattern: RegExp;
  /** For trust dialogs: the keys that answer yes. */
  keys?: string[];
  /** For usage limits: the part of the matched row that says when it resets (capture group 1). */
  reset?: RegExp;
  /** Only the last this many non-empty rows count: an error the CLI has since moved past scrolls out of them. */
  tail?: number;
  /** For refusals: which one, so the fix fits it. */
  refusal?: Refusal;
}
