import { join } from "node:path";
import { readJson, writeJsonAtomic } from "../../adapters/fs/files.js";
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

export function replyFile(state: string, id: string): string {
  return join(state, "reload-replies", `${id}.json`);
}

export async function submitMetaRequest(state: string, agent: string, now: Date): Promise<MetaRequest> {
  const request = { id: `${now.toISOString().replace(/[:.]/g, "-")}-${agent}`, agent, at: now.toISOString() };
  await writeJsonAtomic(join(requestsDir(state), `${request.id}.json`), request);
  return request;
}

/** Requests waiting, oldest first. */
export async function listMetaRequests(state: string): Promise<MetaRequest[]> {
  const names = await listDir(requestsDir(state));
  const requests = await Promise.all(names.filter((name) => name.endsWith(".json")).sort().map((name) => readJson<MetaRequest>(join(requestsDir(state), name)).catch(() => undefined)));
  return requests.filter((request): request is MetaRequest => request !== undefined && typeof request.agent === "string");
}

export async function answerMetaRequest(state: string, request: MetaRequest, reply: MetaReply): Promise<void> {
  await writeJsonAtomic(replyFile(state, request.id), reply);
  await removeFile(join(requestsDir(state), `${request.id}.json`));
}
