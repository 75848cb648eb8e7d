import { agentPaths, isInsideDir } from "../paths.js";
import type { AgentRecord } from "../state.js";

// What an agent may have the daemon run for it: its research loop, its messages and what it reads. Never up, down, attach, report…
const AGENT_COMMANDS = ["submit", "wait", "send", "inbox", "note", "task", "contract", "review", "reload", "claim", "claims", "tried", "results", "history", "compare", "status", "logs", "plan", "validate", "help"];
const HELP = ["-h", "--help", "-V", "--version"];

/** A command a sandboxed agent's `org` handed the daemon through its outbox. */
export interface OutboxRequest {
  argv: string[];
  /** The caller's working folder, as the daemon resolved it (symlinks followed). */
  cwd: string;
}

export type OutboxDecision =
  | { kind: "run"; args: string[]; cwd: string; env: Record<string, string> }
  | { kind: "refuse"; reason: string };

/**
 * Whether the daemon runs `org <argv>` for `agent`, and as whom. The caller is the agent whose outbox the request
 * came through, whatever its environment says: only that agent's sandbox can write there. `worktrees` are every
 * agent's, symlinks resolved: `org submit` finds the agent by the folder it runs in, so never another agent's.
 */
export function decideOutboxRequest(request: OutboxRequest, context: { org: string; root: string; state: string; agent: AgentRecord; worktrees: Map<string, string> }): OutboxDecision {
  const { agent } = context;
  const other = request.argv.find((arg) => /^(-C|--dir)(=|$)|^-C./.test(arg));
  if (other !== undefined) return { kind: "refuse", reason: `an agent's org commands run on its own org: drop ${other}` };
  const [first] = request.argv;
  if (first !== undefined && !AGENT_COMMANDS.includes(first) && !HELP.includes(first)) {
    return { kind: "refuse", reason: `\`org ${first}\` is not for agents: in the sandbox an agent runs org ${AGENT_COMMANDS.join(", ")} — ask a person for the rest` };
  }
  const own = context.worktrees.get(agent.name) ?? agent.worktree;
  const foreign = [...context.worktrees].find(([name, dir]) => name !== agent.name && isInsideDir(request.cwd, dir));
  if (foreign) return { kind: "refuse", reason: `run org from your own worktree (${own}), not from ${foreign[0]}'s (${request.cwd})` };
  const files = agentPaths(context.state, agent.name);
  const env = {
    ORG_NAME: context.org, ORG_AGENT: agent.name, ORG_ROLE: agent.role, ORG_ROOT: context.root, ORG_STATE: context.state,
    ORG_WORKTREE: agent.worktree, ORG_INBOX: files.inbox, ORG_PROGRESS: files.progress, ORG_TASK: files.task,
  };
  return { kind: "run", args: request.argv, cwd: request.cwd, env };
}
