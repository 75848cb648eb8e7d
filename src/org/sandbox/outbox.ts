import { BROKERED_ENV } from "../identity/decide-caller.js";
import { agentPaths } from "../paths.js";
import type { AgentRecord } from "../state.js";

// What an agent may have the daemon run for it: its research loop, its messages and what it reads. Never up, down, attach, report…
const AGENT_COMMANDS = ["submit", "wait", "send", "inbox", "note", "task", "contract", "review", "reload", "claim", "claims", "tried", "results", "history", "compare", "status", "logs", "plan", "validate", "help"];
const HELP = ["-h", "--help", "-V", "--version"];

/** A command a sandboxed agent's `org` handed the daemon through its outbox. */
export interface OutboxRequest {
  argv: string[];
  /** The caller's working folder, as the daemon resolved it (symlinks followed). */
  cwd: string;
  /** What the caller's $ORG_AGENT said ("" when unset): passed on, so a claim to be another agent is refused as in a pane. */
  claimed: string;
}

export type OutboxDecision =
  | { kind: "run"; args: string[]; cwd: string; env: Record<string, string> }
  | { kind: "refuse"; reason: string };

/**
 * Whether the daemon runs `org <argv>` for `agent`, and as whom. The caller is the agent whose outbox the request
 * came through (only its sandbox can write there): the command gets it as ${BROKERED_ENV}, which stands for the pane
 * its process tree no longer runs under, and the ORG_AGENT the caller claimed, which it then refuses if it names another.
 */
export function decideOutboxRequest(request: OutboxRequest, context: { org: string; root: string; state: string; agent: AgentRecord }): OutboxDecision {
  const { agent } = context;
  const other = request.argv.find((arg) => /^(-C|--dir)(=|$)|^-C./.test(arg));
  if (other !== undefined) return { kind: "refuse", reason: `an agent's org commands run on its own org: drop ${other}` };
  const [first] = request.argv;
  if (first !== undefined && !AGENT_COMMANDS.includes(first) && !HELP.includes(first)) {
    return { kind: "refuse", reason: `\`org ${first}\` is not for agents: in the sandbox an agent runs org ${AGENT_COMMANDS.join(", ")} — ask a person for the rest` };
  }
  const files = agentPaths(context.state, agent.name);
  const env = {
    ORG_NAME: context.org, ORG_AGENT: request.claimed, [BROKERED_ENV]: agent.name, ORG_ROLE: agent.role, ORG_ROOT: context.root, ORG_STATE: context.state,
    ORG_WORKTREE: agent.worktree, ORG_INBOX: files.inbox, ORG_PROGRESS: files.progress, ORG_TASK: files.task,
  };
  return { kind: "run", args: request.argv, cwd: request.cwd, env };
}
