import { resolve } from "node:path";
import { OrgError } from "../domain/errors.js";
import { readMessageSettings } from "../domain/messages/mail-port.js";
import { resolveRecipients, senderName } from "../domain/messages/wiring.js";
import { listAgents } from "../domain/lifecycle/plan-agents.js";
import { orgPaths } from "../domain/paths.js";
import { loadConfigOrThrow } from "../adapters/store/run-config.js";
import { readText } from "../adapters/fs/files.js";
import { sendMessage } from "../adapters/store/inbox-files.js";
import { findCaller } from "../adapters/identity/find-caller.js";

export interface SendInput {
  root: string;
  cwd: string;
  /** An agent or a role. */
  to: string;
  text?: string;
  /** A Markdown file, relative to `cwd`, instead of the text. */
  file?: string;
  kind: string;
}

/** `org send`: one message file per recipient, refused unless org.yaml wires the caller to them; its id, who got it. */
export async function sendMessageAs(input: SendInput): Promise<{ id: string; to: string[] }> {
  const body = await readBody(input);
  const config = await loadConfigOrThrow(input.root);
  const sender = await findCaller(input.root, listAgents(config));
  const recipients = resolveRecipients(config, sender, input.to);
  if (!recipients.ok) throw new OrgError(`${recipients.reason} (nothing was sent)`, "recipient");
  const outgoing = { from: senderName(sender), to: recipients.agents, kind: input.kind, body };
  const settings = readMessageSettings(config);
  const { id } = await sendMessage(orgPaths(input.root).state, outgoing, settings).catch((error: unknown) => {
    // A full disk's message, or a link's, already says which inboxes got it.
    if (!(error instanceof OrgError) || error.code === "disk-full" || error.code === "untrusted-path") throw error;
    throw new OrgError(`${error.message} (nothing was sent)`, error.code);
  });
  return { id, to: recipients.agents };
}

async function readBody(input: SendInput): Promise<string> {
  if (input.text !== undefined && input.file !== undefined) {
    throw new OrgError("give the text or -f <file>, not both (nothing was sent)", "usage");
  }
  if (input.file === undefined) {
    const fix = 'give the text, org send <agent|role> "text", or a file, org send <agent|role> -f message.md';
    if (input.text === undefined) throw new OrgError(`nothing to send — ${fix}`, "usage");
    return input.text;
  }
  const text = await readText(resolve(input.cwd, input.file)).catch((error: NodeJS.ErrnoException) => {
    const why = error.code ?? error.message;
    const fix = "give a readable Markdown file (nothing was sent)";
    throw new OrgError(`cannot read ${input.file} (${why}) — ${fix}`, "usage");
  });
  if (text === undefined) {
    const fix = "give the path of a Markdown file (nothing was sent)";
    throw new OrgError(`${input.file} does not exist in ${input.cwd} — ${fix}`, "usage");
  }
  return text;
}
