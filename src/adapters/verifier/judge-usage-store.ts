// state/verifier/judge-usage.json, the judge's spend: its one owner (the daemon's verifier, and `org up` calibrating).
import { join } from "node:path";
import type { JudgeRunRecord } from "../../domain/judge/index.js";
import { verifierStorePaths } from "../../domain/paths.js";
import { readText, writeJsonAtomic } from "../fs/files.js";

export interface JudgeUsageFile {
  runs: JudgeRunRecord[];
  /** Why the file could not be read whole: what it held is not in `runs`, so the judge's spend is a floor. */
  problem?: string;
}

export function judgeUsagePath(state: string): string {
  return join(verifierStorePaths(state).dir, "judge-usage.json");
}

/** Every judge run recorded; none before the first. A file that does not parse is a problem, never a throw. */
export async function readJudgeUsage(state: string): Promise<JudgeUsageFile> {
  const path = judgeUsagePath(state);
  const text = await readText(path).catch((error: Error) => error);
  if (text instanceof Error) return { runs: [], problem: `${path} cannot be read: ${text.message}` };
  if (text === undefined) return { runs: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { runs: [], problem: `${path} is not JSON` };
  }
  // The schema (zod) only once there is a record: `org status` of an org with no judge loads none of it.
  const { JUDGE_USAGE_FILE } = await import("./judge-usage-schema.js");
  const parsed = JUDGE_USAGE_FILE.safeParse(value);
  const issue = parsed.error?.issues[0];
  const where = issue && `${issue.path.join(".")}: ${issue.message}`;
  if (issue) return { runs: [], problem: `${path} is not a judge usage record (${where})` };
  return { runs: parsed.data!.runs };
}

// Verify slots judge at once: each record is read, added to and written whole, one at a time per file.
const queues = new Map<string, Promise<void>>();

/** Adds one judge run, written atomically; a record that did not parse is started afresh, its loss kept as a note. */
export function appendJudgeRun(state: string, run: JudgeRunRecord): Promise<void> {
  const path = judgeUsagePath(state);
  const next = (queues.get(path) ?? Promise.resolve()).then(async () => {
    const file = await readJudgeUsage(state);
    const lost = file.problem ? [{ ...run, run: 1, byModel: undefined, cliUsd: undefined, unknown: file.problem }] : [];
    await writeJsonAtomic(path, { runs: [...file.runs, ...lost, run] });
  });
  queues.set(path, next.catch(() => undefined));
  return next;
}
