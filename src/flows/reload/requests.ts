import { join } from "node:path";
import { readJson, writeJsonAtomic } from "../../adapters/fs/files.js";
import { waitForAnswer } from "../../adapters/daemon-client.js";
import { isArrayOf, isFields, isString } from "../../domain/json-fields.js";
import type { MetaReply } from "./meta-edit.js";
import { listDir, removeFile } from "../../adapters/fs/dir.js";

// A meta agent's `org reload` hands its proposal to the daemon: an apply may restart the agent itself,
// and with it the very command that asked, so the one applying must live outside the agent's process group.

export interface MetaRequest {
  id: string;
  agent: string;
  at: string;
}

export function requestsDir(state: string): string {
  return join(state, "reload-requests");
}

function replyFile(state: string, id: string): string {
  return join(state, "reload-replies", `${id}.json`);
}

const isMetaRequest = (value: unknown): value is MetaRequest =>
  isFields(value) && isString(value.id) && isString(value.agent) && isString(value.at);

const REPLIES: ReadonlySet<unknown> = new Set<MetaReply["outcome"]>([
  "seeded", "applied", "unchanged", "rejected", "busy",
]);

const parseMetaReply = (value: unknown): MetaReply | undefined =>
  isFields(value) && REPLIES.has(value.outcome) && isArrayOf(isString)(value.lines) ? (value as unknown as MetaReply)
    : undefined;

export async function submitMetaRequest(state: string, agent: string, now: Date): Promise<MetaRequest> {
  const request = { id: `${now.toISOString().replace(/[:.]/g, "-")}-${agent}`, agent, at: now.toISOString() };
  await writeJsonAtomic(join(requestsDir(state), `${request.id}.json`), request);
  return request;
}

/**
 * Requests waiting, oldest first. One unreadable or of another shape is skipped, left where it is: each is written
 * whole by `org reload`, so only a hand edit makes one, and the `org reload` that wrote it fails when the daemon ends.
 */
export async function listMetaRequests(state: string): Promise<MetaRequest[]> {
  const names = (await listDir(requestsDir(state))).filter((name) => name.endsWith(".json")).sort();
  const read = (name: string) => readJson(join(requestsDir(state), name)).catch(() => undefined);
  return (await Promise.all(names.map(read))).filter(isMetaRequest);
}

/** The daemon's reply to the request, removed once read; throws when the daemon went down meanwhile. */
export async function waitForMetaReply(paths: { state: string; daemon: string }, id: string): Promise<MetaReply> {
  const reply = await waitForAnswer(replyFile(paths.state, id), paths.daemon, parseMetaReply);
  await removeFile(replyFile(paths.state, id));
  return reply;
}

export async function answerMetaRequest(state: string, request: MetaRequest, reply: MetaReply): Promise<void> {
  await writeJsonAtomic(replyFile(state, request.id), reply);
  await removeFile(join(requestsDir(state), `${request.id}.json`));
}
