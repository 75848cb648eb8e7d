// kill -9 of an org's daemon at a chosen moment, then `org up`: the fault the issue names first.
import { existsSync, readdirSync, readFileSync, watch } from "node:fs";
import { join } from "node:path";
import { runOrgAsync } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { isRunning } from "../helpers/processes.js";
import type { Rng } from "../fuzz/rng.js";
import { readDescendants, stillRunning, type ProcFact } from "./proc-table.js";
import { readDaemonPid } from "./demo-org.js";
import { type DemoOrg } from "../helpers/test-org/index.js";

/**
 * random: any time; verify-run: while a verify command runs;
 * after-row: the instant a results row lands, before its reset.
 */
export const KILL_MOMENTS = ["random", "verify-run", "after-row"] as const;
export type KillMoment = (typeof KILL_MOMENTS)[number];

/** Kill the daemon at `moment`, bring it back with `org up`, and wait for the new one. pending (rowPending): it died
 * with the latest row written but its request not yet cleared, the window between the row and the reset. inRun: a
 * verify run of its was alive the instant before it died. */
export async function killDaemonAt(
  org: DemoOrg,
  moment: KillMoment,
  rng: Rng,
): Promise<{ pid: number; rowPending: boolean; pending?: PendingRow; inRun: boolean; left: string[] }> {
  const pid = await pollUntil(() => readDaemonPid(org), { what: "daemon.json" });
  let children: ProcFact[] = [];
  let inRun = false;
  const kill = () => {
    // What the daemon started (verify runs, waiters, clients), as of the instant before it dies.
    children = readDescendants(pid);
    inRun = findLiveVerifyRuns(org.dir).length > 0;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone: the moment came after its death, which org up handles the same way.
    }
  };
  if (moment === "random") {
    await sleep(rng.int(0, 4000));
    kill();
  } else if (moment === "verify-run") {
    // A run's child record naming a live process: a changed .log file may be a run already over.
    await pollUntil(() => findLiveVerifyRuns(org.dir).length > 0 || undefined, {
      what: "a verify run in progress",
      timeoutMs: 90_000,
      intervalMs: 50,
    });
    // The demo's runs take a few seconds: somewhere inside one.
    await sleep(rng.int(50, 500));
    kill();
  } else {
    // Killed from inside the watch callback: the daemon has not yet reached the branch reset or the verdict file.
    await onChange(join(org.dir, "state"), (name) => name === "results.tsv", kill);
  }
  await pollUntil(() => !isRunning(pid), { what: `daemon ${pid} dead` });
  const pending = findPendingRow(org);
  const up = await runOrgAsync(["up", "--no-attach"], { cwd: org.dir });
  if (up.code !== 0) throw new Error(`org up after kill -9 failed (${up.code}): ${up.stderr}`);
  const next = await pollUntil(() => {
    const current = readDaemonPid(org);
    return current !== undefined && current !== pid && isRunning(current) ? current : undefined;
  }, { what: "a new daemon after org up", timeoutMs: 30_000 });
  // The new daemon ends what its predecessor left before its first heartbeat; a second is all it may take.
  const left = await pollUntil(() => (stillRunning(children).length === 0 ? [] : undefined), {
    what: "nothing of the killed daemon left",
    timeoutMs: 1000,
  }).catch(() =>
    stillRunning(children).map((fact) => `pid ${fact.pid} (${fact.cmdline.slice(0, 100)}) of killed daemon ${pid}`),
  );
  return { pid: next, rowPending: pending !== undefined, ...(pending ? { pending } : {}), inRun, left };
}

/** The verify runs the daemon recorded that are running now. */
function findLiveVerifyRuns(root: string): number[] {
  const dir = join(root, "state/children");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith(".json")).flatMap((name) => {
    try {
      const record = JSON.parse(readFileSync(join(dir, name), "utf8")) as { kind?: string; pid?: number | null };
      return record.kind === "verify" && typeof record.pid === "number" && isRunning(record.pid) ? [record.pid] : [];
    } catch {
      // Being written or removed: the next look sees it whole or not at all.
      return [];
    }
  });
}

/** A request a killed daemon had written the row of but not cleared: its id, and the row's agent and commit. */
export interface PendingRow {
  id: string;
  agent: string;
  commit: string;
}

function findPendingRow(org: DemoOrg): PendingRow | undefined {
  if (!existsSync(join(org.dir, "state/results.tsv"))) return undefined;
  const [commit, , , , , agent] = readFileSync(join(org.dir, "state/results.tsv"), "utf8")
    .trimEnd()
    .split("\n")
    .at(-1)!
    .split("\t");
  return listQueued(org).find((request) => request.agent === agent && request.commit.startsWith(commit!));
}

/** The requests in the queue now. */
export function listQueued(org: DemoOrg): PendingRow[] {
  const queue = join(org.dir, "state/queue");
  return readdirSync(queue).filter((name) => name.endsWith(".json")).flatMap((name) => {
    try {
      return [JSON.parse(readFileSync(join(queue, name), "utf8")) as PendingRow];
    } catch {
      // Being written or removed: the next look sees it whole or not at all.
      return [];
    }
  });
}

/** The results rows of `agent` whose commit is `commit` (a row holds its short sha). */
export function countRowsOf(org: DemoOrg, { agent, commit }: { agent: string; commit: string }): number {
  const rows = readFileSync(join(org.dir, "state/results.tsv"), "utf8").trimEnd().split("\n");
  return rows.map((row) => row.split("\t")).filter(([short, , , , , of]) => of === agent && commit.startsWith(short!))
    .length;
}

/** How many requests a restarted daemon answered from a row its killed predecessor had written. */
export function countRecoveredRows(org: DemoOrg): number {
  const log = join(org.dir, "state/log.md");
  return existsSync(log) ? readFileSync(log, "utf8").split("before the daemon stopped; not run again").length - 1 : 0;
}

function onChange(
  dir: string,
  matches: (name: string) => boolean,
  then: () => void = () => undefined,
  timeoutMs = 90_000,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, (_event, name) => {
      if (!name || !matches(name)) return;
      then();
      watcher.close();
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`nothing changed in ${dir} for ${timeoutMs} ms`));
    }, timeoutMs);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
