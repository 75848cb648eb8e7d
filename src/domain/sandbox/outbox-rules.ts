import { basename } from "node:path";
import { BROKERED_ENV } from "../identity/decide-caller.js";
import { agentPaths } from "../paths.js";
import type { AgentRecord } from "../state.js";

// What an agent may have the daemon run for it: its research loop, its messages and what it
// reads. Never up, down, attach, report…
const AGENT_COMMANDS = [
  "submit", "wait", "send", "inbox", "note", "task", "contract", "review", "reload", "claim", "claims", "tried",
  "results", "history", "compare", "status", "logs", "plan", "validate", "help",
];
const HELP = ["-h", "--help", "-V", "--version"];
/** How many commands the daemon runs at once for one agent: each a process outside its sandbox, with its memory. */
export const OUTBOX_CAP = 4;

/** A command a sandboxed agent's `org` handed the daemon through its outbox. */
export interface OutboxRequest {
  argv: string[];
  /** The caller's working folder, as the daemon resolved it (symlinks followed). */
  cwd: string;
  /**
   * What the caller's $ORG_AGENT said ("" when unset): passed on, so a claim to be another
   * agent is refused as in a pane.
   */
  claimed: string;
  /** Whether the shim passed the content of the file a -f names, read inside the sandbox. */
  file: boolean;
}

export type OutboxDecision =
  /** file: the name the passed content gets in a folder of its own, which is then the command's working folder. */
  | { kind: "run"; args: string[]; cwd: string; env: Record<string, string>; file?: string }
  | { kind: "refuse"; reason: string };

/**
 * Whether the daemon runs `org <argv>` for `agent`, and as whom. The caller is the agent whose outbox the request came
 * through (only its sandbox can write there): the command gets it as ${BROKERED_ENV}, which stands for the pane its
 * process tree no longer runs under, and the ORG_AGENT the caller claimed, which it then refuses if it names another. A
 * file it names is the content the shim read inside the sandbox, never a path the daemon opens: the daemon sees what
 * the sandbox hides. `running` is how many of the agent's commands run now.
 */
export function decideOutboxRequest(
  request: OutboxRequest, context: { org: string; root: string; state: string; agent: AgentRecord; running: number },
): OutboxDecision {
  const { agent } = context;
  const other = request.argv.find((arg) => /^(-C|--dir)(=|$)|^-C./.test(arg));
  if (other !== undefined) return {
    kind: "refuse",
    reason: `an agent's org commands run on its own org: drop ${other}`,
  };
  const [first] = request.argv;
  if (first !== undefined && !AGENT_COMMANDS.includes(first) && !HELP.includes(first)) {
    return {
      kind: "refuse",
      reason: `\`org ${first}\` is not for agents: in the sandbox an agent runs org ${AGENT_COMMANDS.join(", ")} — `
        + `ask a person for the rest`,
    };
  }
  if (context.running >= OUTBOX_CAP) {
    const most = `the most an agent may run at once (${OUTBOX_CAP})`;
    const reason = `${agent.name} has ${context.running} org commands running already, ${most}`;
    return { kind: "refuse", reason: `${reason} — wait for one to end, then run this again` };
  }
  const option = findFileOption(request.argv);
  if (option && !request.file) {
    const fix = "run org as your PATH has it, which reads the file";
    return { kind: "refuse", reason: `${option.path}'s content did not come with the command: ${fix}` };
  }
  const files = agentPaths(context.state, agent.name);
  const env = {
    ORG_NAME: context.org,
    ORG_AGENT: request.claimed,
    [BROKERED_ENV]: agent.name,
    ORG_ROLE: agent.role,
    ORG_ROOT: context.root,
    ORG_STATE: context.state,
    ORG_WORKTREE: agent.worktree, ORG_INBOX: files.inbox, ORG_PROGRESS: files.progress, ORG_TASK: files.task,
  };
  if (!option) return { kind: "run", args: request.argv, cwd: request.cwd, env };
  const name = /^\w[\w.+-]{0,99}$/.test(basename(option.path)) ? basename(option.path) : "file.md";
  return { kind: "run", args: option.rewrite(name), cwd: request.cwd, env, file: name };
}

// The commands whose -f names a file to read; `org logs -f` follows instead.
const FILE_COMMANDS = ["send", "task", "contract", "review", "plan"];

/**
 * Where a brokered command's -f is, as the shim (src/domain/sandbox/shim.ts) finds it: its path, argv naming another.
 */
interface FileOption {
  /** The last one given, as the CLI takes it. */
  path: string;
  /** The argv with every -f naming `name` instead. */
  rewrite(name: string): string[];
}

/** The file a command's -f names (-f x, -fx, --file x, --file=x, none after --); undefined when it names none. */
export function findFileOption(argv: readonly string[]): FileOption | undefined {
  if (!FILE_COMMANDS.includes(argv[0] ?? "")) return undefined;
  const spots: { index: number; prefix: string }[] = [];
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === "--") break;
    if (arg === "-f" || arg === "--file") {
      if (index + 1 < argv.length) spots.push({ index: index + 1, prefix: "" });
      index++;
    } else if (arg.startsWith("--file=")) spots.push({ index, prefix: "--file=" });
    else if (/^-f./.test(arg)) spots.push({ index, prefix: "-f" });
  }
  const last = spots.at(-1);
  if (!last) return undefined;
  return {
    path: argv[last.index]!.slice(last.prefix.length),
    rewrite: (name) => argv.map((arg, index) => {
      const spot = spots.find((candidate) => candidate.index === index);
      return spot ? `${spot.prefix}${name}` : arg;
    }),
  };
}
