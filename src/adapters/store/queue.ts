// state/queue: one file per request the verifier has yet to judge. The only module that reads or writes it.
import { join } from "node:path";
import type { ExperimentRequest } from "../../domain/experiments/request.js";
import { ensureDir, isDirectory, listDir, removeFile } from "../fs/dir.js";
import { pathExists, readJson, watchDir, writeJsonAtomic } from "../fs/files.js";

function queueDir(state: string): string {
  return join(state, "queue");
}

function requestFile(state: string, id: string): string {
  return join(queueDir(state), `${id}.json`);
}

/** Every request waiting, oldest first; a file cut short, hand-broken or of another shape is skipped, never fatal. */
export async function listQueue(state: string): Promise<ExperimentRequest[]> {
  const names = (await listDir(queueDir(state))).filter((name) => name.endsWith(".json")).sort();
  if (names.length === 0) return [];
  // The request schema (and zod) loads only for a queue that holds something: `org status` of an idle org skips both.
  const { parseRequest } = await import("../../domain/experiments/request.js");
  const read = (name: string) => readJson(join(queueDir(state), name)).then(parseRequest, () => undefined);
  const requests = await Promise.all(names.map(read));
  return requests.filter((request) => request !== undefined);
}

/** Queues a request: written whole or not at all, so the verifier never reads half of one. */
export async function addToQueue(state: string, request: ExperimentRequest): Promise<void> {
  await writeJsonAtomic(requestFile(state, request.id), request);
}

/** Replaces a queued request with what the verifier learned of it before its run (a rebase, a stack's target). */
export async function rewriteQueued(state: string, request: ExperimentRequest): Promise<void> {
  await writeJsonAtomic(requestFile(state, request.id), request);
}

/** Clears a request once it is answered; one already gone is no error. */
export async function removeFromQueue(state: string, id: string): Promise<void> {
  await removeFile(requestFile(state, id));
}

/** Whether a request of this id still waits (`id` is checked as a file name by the caller). */
export function isQueued(state: string, id: string): Promise<boolean> {
  return pathExists(requestFile(state, id));
}

/** Whether any verifier made the queue yet: none before the daemon's first look. */
export function hasQueue(state: string): Promise<boolean> {
  return isDirectory(queueDir(state));
}

/** Makes the queue, for `org submit` to write into and the watch to look at. */
export async function prepareQueue(state: string): Promise<void> {
  await ensureDir(queueDir(state));
}

/** Calls `wake` whenever a request is added or removed; returns the function that stops watching. */
export function watchQueue(state: string, wake: () => void): () => void {
  return watchDir(queueDir(state), wake);
}
