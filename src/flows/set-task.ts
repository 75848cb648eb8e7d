import { relative, resolve } from "node:path";
import { OrgError } from "../domain/errors.js";
import { checkOutgoing } from "../domain/messages/deliver.js";
import { readMessageSettings } from "../domain/messages/mail-port.js";
import { senderName } from "../domain/messages/wiring.js";
import { listAgents } from "../domain/lifecycle/plan-agents.js";
import { agentPaths, orgPaths } from "../domain/paths.js";
import { formatTaskFile, formatTaskMessage, resolveTaskTarget } from "../domain/tasks/task-file.js";
import { loadConfigOrThrow } from "../adapters/store/run-config.js";
import { readText } from "../adapters/fs/files.js";
import { appendUntrusted, readUntrusted, writeUntrusted } from "../adapters/fs/untrusted.js";
import { addOutcome } from "../adapters/fs/disk-space.js";
import { sendMessage } from "../adapters/store/inbox-files.js";
import { findCaller } from "../adapters/identity/find-caller.js";

export interface TaskInput {
  root: string;
  cwd: string;
  /** A junior agent the caller leads. */
  to: string;
  text?: string;
  /** A Markdown file, relative to `cwd`, instead of the text. */
  file?: string;
}

/**
 * `org task`: replace the junior's task file (the old one is archived) and tell it; the junior, its task file
 * (relative to the org) and the message's id.
 */
export async function setTask(opts: TaskInput): Promise<{ agent: string; taskFile: string; id: string }> {
  const body = await readTaskBody(opts);
  const config = await loadConfigOrThrow(opts.root);
  const sender = await findCaller(opts.root, listAgents(config));
  const target = resolveTaskTarget(config, sender, opts.to);
  if (!target.ok) throw new OrgError(`${target.reason} (nothing was changed)`, "recipient");
  const state = orgPaths(opts.root).state;
  const files = agentPaths(state, target.agent);
  const from = senderName(sender);
  const settings = readMessageSettings(config);
  const message = formatTaskMessage(from, relative(opts.root, files.task), body);
  // Checked before anything is written: a task too big to send is not set either.
  const problem = checkOutgoing({ from, to: [target.agent], kind: "task", body: message }, settings);
  if (problem) throw new OrgError(`${problem} (nothing was changed)`, "message");
  // The junior can write its own folder: its task files are read and written through no link it left there.
  const previous = await readUntrusted(files.dir, files.task).catch(refuseLink);
  // On a full disk each step says what it left behind: the user reruns the command knowing what already went out.
  if (previous !== undefined) {
    await appendUntrusted(files.dir, files.taskArchive, [previous.replace(/\n+$/, ""), ""])
      .catch(refuseLink).catch((error: unknown) => addOutcome(error, "nothing was changed"));
  }
  const { id } = await sendMessage(state, { from, to: [target.agent], kind: "task", body: message }, settings)
    .catch((error: unknown) => addOutcome(error, "the task was not set either"));
  const written = formatTaskFile({ from, time: new Date().toISOString(), id, body });
  await writeUntrusted(files.dir, files.task, written).catch((error: unknown) => {
    const left = previous === undefined ? "was not written" : "still holds the old one";
    const where = relative(opts.root, files.task);
    addOutcome(error, `the task went out as message ${id}, but ${where} ${left} — run this org task again then`);
  });
  return { agent: target.agent, taskFile: relative(opts.root, files.task), id };
}

function refuseLink(error: NodeJS.ErrnoException): never {
  if (error.code !== "ELOOP" && error.code !== "ENOTDIR") throw error;
  const fix = "org writes the juniors' task files itself: remove the link (nothing was changed)";
  throw new OrgError(`${error.message} — ${fix}`, "untrusted-path");
}

async function readTaskBody(opts: { cwd: string; text?: string; file?: string }): Promise<string> {
  if (opts.text !== undefined && opts.file !== undefined) {
    throw new OrgError("give the task's text or -f <file>, not both (nothing was changed)", "usage");
  }
  if (opts.file === undefined) {
    const fix = 'org task <junior> "the task", or org task <junior> -f task.md';
    if (opts.text === undefined || opts.text.trim() === "") throw new OrgError(`no task given — ${fix}`, "usage");
    return opts.text;
  }
  const text = await readText(resolve(opts.cwd, opts.file)).catch((error: NodeJS.ErrnoException) => {
    const fix = "give a readable Markdown file (nothing was changed)";
    throw new OrgError(`cannot read ${opts.file} (${error.code ?? error.message}) — ${fix}`, "usage");
  });
  if (text === undefined) {
    const fix = "write the task to a Markdown file first (nothing was changed)";
    throw new OrgError(`${opts.file} does not exist in ${opts.cwd} — ${fix}`, "usage");
  }
  if (text.trim() === "") {
    throw new OrgError(`${opts.file} is empty — write the task in it (nothing was changed)`, "usage");
  }
  return text;
}
