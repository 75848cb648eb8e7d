import {
  chownSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { CliResult } from "./org-cli.js";
import { pollUntil } from "./poll.js";

let count = 0;

/** Runs a shell script inside an agent's pane, through the run-jobs fixture agent whose jobs live in `jobs`/<agent>. */
export async function runInPane(jobs: string, agent: string, script: string): Promise<CliResult> {
  const folder = join(jobs, agent);
  mkdirSync(folder, { recursive: true });
  // The agent's, as if its pane had made it: made first here (a pane still starting), it moves no job of another uid.
  const owner = statSync(jobs);
  if (statSync(folder).uid !== owner.uid) chownSync(folder, owner.uid, owner.gid);
  const base = join(jobs, agent, `job-${++count}`);
  writeFileSync(`${base}.tmp`, script);
  renameSync(`${base}.tmp`, `${base}.sh`);
  const code = await pollUntil(() => existsSync(`${base}.rc`) && readFileSync(`${base}.rc`, "utf8").trim(), {
    timeoutMs: 45_000,
    what: `${agent}'s job ${script}`,
  });
  return {
    code: Number(code),
    stdout: readFileSync(`${base}.out`, "utf8"),
    stderr: readFileSync(`${base}.err`, "utf8"),
  };
}

/**
 * The files a refused command must leave alone: inboxes and their
 * receipts, sent logs, tasks, contracts and reviews, notes.
 */
export function snapshotActs(state: string): Record<string, string> {
  if (!existsSync(state)) return {};
  const entries: Record<string, string> = {};
  for (const name of readdirSync(state, { recursive: true }) as string[]) {
    if (!/^(agents\/[^/]+\/(inbox\/|task)|contracts\/|messages\/|notes)/.test(name)) continue;
    const file = join(state, name);
    try {
      entries[name] = readFileSync(file, "utf8");
    } catch {
      entries[name] = "(folder)";
    }
  }
  return entries;
}
