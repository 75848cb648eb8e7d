import { META_SECTION } from "./meta-prompt.js";

/** Values a role prompt may use as {{name}}. */
export interface PromptContext {
  org: string;
  agent: string;
  role: string;
  branch: string;
  worktree: string;
  gpu: string;
  inbox: string;
  /** The agent's own running summary, kept across restarts: state/agents/<agent>/own/progress.md. */
  progress: string;
  /** Its current task from its chief (`org task`): state/agents/<agent>/task.md. */
  task: string;
  edits: string;
  protected: string;
  metric: string;
  goal: string;
  /** verify.queue_per_agent: how many experiments the agent may have queued, the one running included. */
  queue_per_agent: string;
  /** The absolute path of the `org` shim: the fallback when a CLI's shell loses PATH. */
  org_bin: string;
}

const HEADER = "<!-- rendered by org for {{agent}}; edit the role's prompt file, not this copy -->\n";
// A CLI's shell may start from a login profile that resets PATH: the agent then still has a way to reach org.
const FOOTER = "\n\n---\n`org` is on your PATH. If your shell ever answers `org: command not found`, "
  + "run it by its full path instead: `{{org_bin}}` (same arguments).\n";

/**
 * Render a role's Markdown prompt for one agent; unknown {{names}} are left visible so a typo shows. A meta role's
 * agent is also told how to read the other agents' traces before it changes their prompts.
 */
export function renderPrompt(template: string, context: PromptContext, role: { meta?: boolean } = {}): string {
  const values = context as unknown as Record<string, string>;
  const fill = (text: string) =>
    text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, key: string) => (key in values ? values[key]! : whole));
  return fill(HEADER) + fill(template).trimEnd() + (role.meta ? fill(META_SECTION) : "") + fill(FOOTER);
}
