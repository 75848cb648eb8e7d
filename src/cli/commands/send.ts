import { resolve } from "node:path";
import { OrgError } from "../../org/errors.js";
import { readMessageSettings } from "../../org/messages/mail-port.js";
import { resolveRecipients, senderName } from "../../org/messages/wiring.js";
import { listAgents } from "../../org/lifecycle/plan.js";
import { orgPaths } from "../../org/paths.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { readText } from "../../adapters/fs/files.js";
import { sendMessage } from "../../adapters/store/inbox.js";
import { findCaller } from "../../adapters/identity/find-caller.js";
import type { Io } from "../io.js";

export interface SendOptions {
  root: string;
  cwd: string;
  to: string;
  text?: string;
  file?: string;
  kind: string;
}

/** `org send <agent|role> "text"` or `-f file.md`: one message file per recipient, refused unless the wiring allows it. */
export async function runSend(opts: SendOptions, io: Io): Promise<number> {
  const body = await readBody(opts);
  const config = await loadConfigOrThrow(opts.root);
  const sender = await findCaller(opts.root, listAgents(config));
  const recipients = resolveRecipients(config, sender, opts.to);
  if (!recipients.ok) throw new OrgError(`${recipients.reason} (nothing was sent)`, "recipient");
  const outgoing = { from: senderName(sender), to: recipients.agents, kind: opts.kind, body };
  const { id } = await sendMessage(orgPaths(opts.root).state, outgoing, readMessageSettings(config)).catch((error: unknown) => {
    // A full disk's message already says which inboxes got it.
    throw error instanceof OrgError && error.code !== "disk-full" ? new OrgError(`${error.message} (nothing was sent)`, error.code) : error;
  });
  io.out(`delivered ${id} to ${recipients.agents.join(", ")} — \`org inbox --sent\` shows when it is read`);
  return 0;
}

async function readBody(opts: SendOptions): Promise<string> {
  if (opts.text !== undefined && opts.file !== undefined) throw new OrgError("give the text or -f <file>, not both (nothing was sent)", "usage");
  if (opts.file === undefined) {
    if (opts.text === undefined) throw new OrgError('nothing to send — give the text, org send <agent|role> "text", or a file, org send <agent|role> -f message.md', "usage");
    return opts.text;
  }
  const text = await readText(resolve(opts.cwd, opts.file)).catch((error: NodeJS.ErrnoException) => {
    throw new OrgError(`cannot read ${opts.file} (${error.code ?? error.message}) — give a readable Markdown file (nothing was sent)`, "usage");
  });
  if (text === undefined) throw new OrgError(`${opts.file} does not exist in ${opts.cwd} — give the path of a Markdown file (nothing was sent)`, "usage");
  return text;
}
