import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import { hashText } from "../../domain/experiments/journal.js";
import { readJournalChain } from "../store/journal-store.js";
import type { SubmitAnswer } from "../../domain/experiments/submit-reply.js";
import { checkVerdict } from "../../domain/experiments/verdict-check.js";
import { orgPaths } from "../../domain/paths.js";
import { pathExists, readText, writeFileAtomic } from "../fs/files.js";
import { waitForAnswer } from "../daemon-client.js";
import { isFields, isString, type Fields } from "../../domain/json-fields.js";
import type { JournalStore } from "../store/journal-store.js";
import { readOptionalRecord } from "../store/org-record.js";
import { reportIncidents } from "./incident-report.js";

// state/verdicts/<id>.json: the only module that names it. `id` is checked as a file name by the caller.
function verdictFile(state: string, id: string): string {
  return join(state, "verdicts", `${id}.json`);
}

/** Whether the verifier answered the request of this id. */
export function hasVerdict(state: string, id: string): Promise<boolean> {
  return pathExists(verdictFile(state, id));
}

const isCancelled = (value: Fields) =>
  isString(value.commit) && isString(value.description) && isString(value.cancelled);

// The fields `org submit` and `org wait` print from; the journal's hash, not this, says the verifier wrote it. A
// metric is not checked: a NaN one reads back as null.
function isOutcome(value: unknown): boolean {
  return isFields(value) && isFields(value.request) && isString(value.request.commit) && isFields(value.verdict)
    && isString(value.verdict.kind) && isString(value.verdict.reason) && isString(value.head)
    && isString(value.logFile);
}

function parseAnswer(value: unknown): SubmitAnswer | undefined {
  const valid = isFields(value) && isString(value.id) && (isCancelled(value) || isOutcome(value.outcome));
  return valid ? (value as unknown as SubmitAnswer) : undefined;
}

/**
 * The verdict once it is written; throws when the daemon went down meanwhile (the request stays queued), or when the
 * file is of another shape.
 */
export function waitForVerdict(paths: { state: string; daemon: string }, id: string): Promise<SubmitAnswer> {
  return waitForAnswer(verdictFile(paths.state, id), paths.daemon, parseAnswer);
}

/**
 * state/verdicts/<id>.json (a verdict, or why it was cancelled), journaled first: a daemon killed between leaves an
 * entry and no file, never a file unjournaled.
 */
export async function writeVerdictFile(journal: JournalStore, state: string, answer: SubmitAnswer): Promise<void> {
  const text = `${JSON.stringify(answer, null, 2)}\n`;
  const commit = "cancelled" in answer ? answer.commit : answer.outcome.request.commit;
  await journal.exclusive(async (tx) => {
    await tx.append({ kind: "verdict", payload: { id: answer.id, commit, sha256: hashText(text) } });
    await writeFileAtomic(verdictFile(state, answer.id), text);
  });
}

/** Refuse a verdict file the verifier did not write (`org submit`, `org wait`), and tell it as tampering. */
export async function assertJournaledVerdict(root: string, id: string, say: (line: string) => void): Promise<void> {
  const { state } = orgPaths(root);
  const [text, journal] = await Promise.all([readText(verdictFile(state, id)), readJournalChain(state)]);
  const trust = checkVerdict(id, text ?? "", journal);
  if (trust.kind !== "tampered") return;
  const agents = (await readOptionalRecord(root).catch(() => undefined))?.agents.map((agent) => agent.name) ?? [];
  await reportIncidents({
    state, agents, say,
    incidents: [
      {
        kind: "tampered", title: `verdict file ${id}.json is not the verifier's`,
        body: `${trust.reason}; it was not shown as a verdict`,
      },
    ],
  });
  throw new OrgError(`${trust.reason} — not shown; \`org results\` has the verifier's record`, "tampered");
}
