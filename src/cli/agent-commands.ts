import type { ContractAction } from "../domain/contracts/actions.js";
import { defineCommand, type OptionSpec, type TableRow } from "./command-table.js";
import type { Io } from "./io.js";

const JSON_OPTION: OptionSpec = { flags: "--json", description: "machine-readable" };
const words = (text: string[]) => (text.length > 0 ? text.join(" ") : undefined);

// The contract's four subcommands run the one command module, each with its action.
const runContract = async (root: string, io: Io, action: ContractAction) =>
  (await import("./commands/contract.js")).runContract({ root, cwd: process.cwd(), action }, io);

/** The commands an agent runs from its worktree (people use some too): submit, messages, claims, contracts, tasks. */
export const AGENT_COMMANDS: readonly TableRow[] = [
  defineCommand<{ message?: string; wait: boolean; json?: boolean }>({
    name: "submit", description: "commit your worktree and hand it to the verifier (run inside an agent worktree)",
    options: [
      { flags: "-m, --message <text>", description: "what you tried" },
      { flags: "--no-wait", description: "return once it is queued: the verdict comes to your inbox " +
        "(`org wait <id>` waits for it)" },
      JSON_OPTION,
    ],
    run: async ({ opts, root, io }) => (await import("./commands/submit.js")).runSubmit({
      root: root(), cwd: process.cwd(), message: opts.message, wait: opts.wait, json: Boolean(opts.json),
    }, io),
  }),
  defineCommand<{ json?: boolean }, [string | undefined]>({
    name: "wait", args: [["[id]", "an experiment id, as `org submit --no-wait` printed it"]],
    description: "wait for an experiment's verdict and print it as `org submit` does", options: [JSON_OPTION],
    run: async ({ args: [id], opts, root, io }) =>
      (await import("./commands/wait.js")).runWait({ root: root(), id, json: Boolean(opts.json) }, io),
  }),
  defineCommand<{ runs: string; agent?: string }, [string]>({
    name: "confirm", args: [["<commit>", "a commit of the research repo"]],
    description: "re-run a commit with fresh seeds: mean ± sd next to the baseline's",
    options: [
      { flags: "-n, --runs <n>", description: "how many runs", default: "5" },
      { flags: "--agent <agent>", description: "whose GPU slot runs it (default: the agent whose branch holds it)" },
    ],
    run: async ({ args: [commit], opts, root, io }) => (await import("./commands/confirm.js"))
      .runConfirm({ root: root(), commit, runs: Number(opts.runs), agent: opts.agent }, io),
  }),
  defineCommand<{ file?: string; kind: string }, [string, string[]]>({
    name: "send",
    args: [
      ["<to>", "an agent (chief-1) or a role (junior): a role reaches each of its agents"],
      ["[text...]", "the message"],
    ],
    description: "send a message to an agent's inbox; refused unless org.yaml wires you to it",
    options: [
      { flags: "-f, --file <file>", description: "send this Markdown file instead" },
      { flags: "--kind <kind>", description: "what kind: note, task, review, …", default: "note" },
    ],
    run: async ({ args: [to, text], opts, root, io }) => (await import("./commands/send.js"))
      .runSend({ root: root(), cwd: process.cwd(), to, text: words(text), file: opts.file, kind: opts.kind }, io),
  }),
  defineCommand<{ read?: string[]; sent?: boolean; agent?: string }>({
    name: "inbox", description: "your unread messages, oldest first",
    options: [
      { flags: "--read <ids...>", description: "mark these messages read (acknowledged)" },
      { flags: "--sent", description: "the messages you sent, with who has read them" },
      { flags: "--agent <agent>", description: "whose inbox, for people (agents read their own)" },
    ],
    run: async ({ opts, root, io }) => (await import("./commands/inbox.js"))
      .runInbox({ root: root(), agent: opts.agent, read: opts.read, sent: Boolean(opts.sent) }, io),
  }),
  defineCommand<object, [string[]]>({
    name: "note", args: [["[text...]", "one lesson, on one line"]],
    description: "add a lesson to the shared notes board; alone, print the board",
    run: async ({ args: [text], root, io }) =>
      (await import("./commands/note.js")).runNote({ root: root(), text: words(text) }, io),
  }),
  defineCommand<{ done?: string; drop?: string }, [string[]]>({
    name: "claim", args: [["[idea...]", "the idea you are about to work on, in one line"]],
    description: "put your idea on the claims board, state/claims.md, so others pick another; " +
      "warns when it is near an open claim or a tried idea",
    options: [
      { flags: "--done <id>", description: "close your claim: you finished with it" },
      { flags: "--drop <id>", description: "close your claim: you gave it up" },
    ],
    run: async ({ args: [idea], opts, root, io }) =>
      (await import("./commands/claim.js")).runClaim({ root: root(), text: words(idea), ...opts }, io),
  }),
  defineCommand<{ all?: boolean; json?: boolean }>({
    name: "claims", description: "the open claims: who works on which idea now",
    options: [{ flags: "--all", description: "closed claims too, with what closed them" }, JSON_OPTION],
    run: async ({ opts, root, io }) => (await import("./commands/claims.js"))
      .runClaims({ root: root(), all: Boolean(opts.all), json: Boolean(opts.json) }, io),
  }),
  defineCommand({
    name: "contract",
    description: "a sprint's contract of testable assertions: the generator drafts, generator and evaluator sign",
  }),
  defineCommand<{ file: string }>({
    name: "contract draft",
    description: "store a checklist (`- [ ] …` lines) as the sprint's contract; every signature is dropped",
    options: [{ flags: "-f, --file <file>", description: "the Markdown checklist", required: true }],
    run: ({ opts, root, io }) => runContract(root(), io, { kind: "draft", file: opts.file }),
  }),
  defineCommand({
    name: "contract sign", description: "sign the current contract as you stand (generator or evaluator)",
    run: ({ root, io }) => runContract(root(), io, { kind: "sign" }),
  }),
  defineCommand<object, [string[]]>({
    name: "contract object", args: [["<why...>", "what must change"]],
    description: "the evaluator objects: the contract is not agreed until redrafted and signed",
    run: ({ args: [why], root, io }) => runContract(root(), io, { kind: "object", why: why.join(" ") }),
  }),
  defineCommand({
    name: "contract status", description: "the current sprint's contract: agreed or what is missing",
    run: ({ root, io }) => runContract(root(), io, { kind: "status" }),
  }),
  defineCommand<{ file: string; commit?: string }>({
    name: "review",
    description: "the evaluator's checklist against the agreed contract; " +
      "all passing on a kept commit closes the sprint",
    options: [
      { flags: "-f, --file <file>", description: "the contract's checklist, ticked [x] where it passes, with evidence",
        required: true },
      { flags: "--commit <sha>", description: "the reviewed commit (default: the generator's latest kept one)" },
    ],
    run: async ({ opts, root, io }) => (await import("./commands/review.js"))
      .runReview({ root: root(), cwd: process.cwd(), file: opts.file, commit: opts.commit }, io),
  }),
  defineCommand<{ file?: string }, [string, string[]]>({
    name: "task", args: [["<agent>", "an agent that reports to you, e.g. junior-1"], ["[text...]", "the task"]],
    description: "set an agent's task (state/agents/<agent>/task.md) and message it",
    options: [{ flags: "-f, --file <file>", description: "the task as a Markdown file" }],
    run: async ({ args: [to, text], opts, root, io }) => (await import("./commands/task.js"))
      .runTask({ root: root(), cwd: process.cwd(), to, text: words(text), file: opts.file }, io),
  }),
];
