import type { CommandContext } from "./command-context.js";

/** The commands an agent runs from its worktree (people use some too): submit, messages, claims, contracts, tasks. */
export function registerAgentCommands({ program, run, root, io }: CommandContext): void {
  program.command("submit")
    .description("commit your worktree and hand it to the verifier (run inside an agent worktree)")
    .option("-m, --message <text>", "what you tried")
    .option("--no-wait", "return once it is queued: the verdict comes to your inbox (`org wait <id>` waits for it)")
    .option("--json", "machine-readable")
    .action(run(async (opts: { message?: string; wait: boolean; json?: boolean }) => {
      const { runSubmit } = await import("./commands/submit.js");
      return runSubmit({
        root: root(), cwd: process.cwd(), message: opts.message, wait: opts.wait, json: Boolean(opts.json),
      }, io);
    }));
  program.command("wait")
    .argument("[id]", "an experiment id, as `org submit --no-wait` printed it")
    .description("wait for an experiment's verdict and print it as `org submit` does")
    .option("--json", "machine-readable")
    .action(run(async (id: string | undefined, opts: { json?: boolean }) => {
      const { runWait } = await import("./commands/wait.js");
      return runWait({ root: root(), id, json: Boolean(opts.json) }, io);
    }));
  program.command("confirm")
    .argument("<commit>", "a commit of the research repo")
    .description("re-run a commit with fresh seeds: mean ± sd next to the baseline's")
    .option("-n, --runs <n>", "how many runs", "5")
    .option("--agent <agent>", "whose GPU slot runs it (default: the agent whose branch holds it)")
    .action(run(async (commit: string, opts: { runs: string; agent?: string }) => {
      const { runConfirm } = await import("./commands/confirm.js");
      return runConfirm({ root: root(), commit, runs: Number(opts.runs), agent: opts.agent }, io);
    }));
  program.command("send")
    .argument("<to>", "an agent (chief-1) or a role (junior): a role reaches each of its agents")
    .argument("[text...]", "the message")
    .description("send a message to an agent's inbox; refused unless org.yaml wires you to it")
    .option("-f, --file <file>", "send this Markdown file instead")
    .option("--kind <kind>", "what kind: note, task, review, …", "note")
    .action(run(async (to: string, text: string[], opts: { file?: string; kind: string }) => {
      const { runSend } = await import("./commands/send.js");
      const message = text.length > 0 ? text.join(" ") : undefined;
      return runSend({ root: root(), cwd: process.cwd(), to, text: message, file: opts.file, kind: opts.kind }, io);
    }));
  program.command("inbox")
    .description("your unread messages, oldest first")
    .option("--read <ids...>", "mark these messages read (acknowledged)")
    .option("--sent", "the messages you sent, with who has read them")
    .option("--agent <agent>", "whose inbox, for people (agents read their own)")
    .action(run(async (opts: { read?: string[]; sent?: boolean; agent?: string }) => {
      const { runInbox } = await import("./commands/inbox.js");
      return runInbox({ root: root(), agent: opts.agent, read: opts.read, sent: Boolean(opts.sent) }, io);
    }));
  program.command("note")
    .argument("[text...]", "one lesson, on one line")
    .description("add a lesson to the shared notes board; alone, print the board")
    .action(run(async (text: string[]) => {
      const { runNote } = await import("./commands/note.js");
      return runNote({ root: root(), text: text.length > 0 ? text.join(" ") : undefined }, io);
    }));
  program.command("claim")
    .argument("[idea...]", "the idea you are about to work on, in one line")
    .description("put your idea on the claims board, state/claims.md, so others pick another; " +
      "warns when it is near an open claim or a tried idea")
    .option("--done <id>", "close your claim: you finished with it")
    .option("--drop <id>", "close your claim: you gave it up")
    .action(run(async (idea: string[], opts: { done?: string; drop?: string }) => {
      const { runClaim } = await import("./commands/claim.js");
      return runClaim({ root: root(), text: idea.length > 0 ? idea.join(" ") : undefined, ...opts }, io);
    }));
  program.command("claims")
    .description("the open claims: who works on which idea now")
    .option("--all", "closed claims too, with what closed them")
    .option("--json", "machine-readable")
    .action(run(async (opts: { all?: boolean; json?: boolean }) => {
      const { runClaims } = await import("./commands/claims.js");
      return runClaims({ root: root(), all: Boolean(opts.all), json: Boolean(opts.json) }, io);
    }));
  const contract = program.command("contract")
    .description("a sprint's contract of testable assertions: the generator drafts, generator and evaluator sign");
  const runContract = (action: import("../org/contracts/actions.js").ContractAction) => async () => {
    const { runContract: runContractCommand } = await import("./commands/contract.js");
    return runContractCommand({ root: root(), cwd: process.cwd(), action }, io);
  };
  contract.command("draft")
    .description("store a checklist (`- [ ] …` lines) as the sprint's contract; every signature is dropped")
    .requiredOption("-f, --file <file>", "the Markdown checklist")
    .action(run(async (opts: { file: string }) => runContract({ kind: "draft", file: opts.file })()));
  contract.command("sign")
    .description("sign the current contract as you stand (generator or evaluator)")
    .action(run(async () => runContract({ kind: "sign" })()));
  contract.command("object")
    .argument("<why...>", "what must change")
    .description("the evaluator objects: the contract is not agreed until redrafted and signed")
    .action(run(async (why: string[]) => runContract({ kind: "object", why: why.join(" ") })()));
  contract.command("status")
    .description("the current sprint's contract: agreed or what is missing")
    .action(run(async () => runContract({ kind: "status" })()));
  program.command("review")
    .description("the evaluator's checklist against the agreed contract; " +
      "all passing on a kept commit closes the sprint")
    .requiredOption("-f, --file <file>", "the contract's checklist, ticked [x] where it passes, with evidence")
    .option("--commit <sha>", "the reviewed commit (default: the generator's latest kept one)")
    .action(run(async (opts: { file: string; commit?: string }) => {
      const { runReview } = await import("./commands/review.js");
      return runReview({ root: root(), cwd: process.cwd(), file: opts.file, commit: opts.commit }, io);
    }));
  program.command("task")
    .argument("<agent>", "an agent that reports to you, e.g. junior-1")
    .argument("[text...]", "the task")
    .description("set an agent's task (state/agents/<agent>/task.md) and message it")
    .option("-f, --file <file>", "the task as a Markdown file")
    .action(run(async (to: string, text: string[], opts: { file?: string }) => {
      const { runTask } = await import("./commands/task.js");
      const message = text.length > 0 ? text.join(" ") : undefined;
      return runTask({ root: root(), cwd: process.cwd(), to, text: message, file: opts.file }, io);
    }));
}
