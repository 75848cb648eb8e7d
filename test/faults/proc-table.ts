// A snapshot of /proc, enough to tell which processes a daemon left and which verify runs share a slot.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export interface ProcFact {
  pid: number;
  ppid: number;
  pgid: number;
  startTicks: number;
  cwd: string;
  cmdline: string;
}

/** Every live, non-zombie process this user can read. */
export function readProcTable(): ProcFact[] {
  const facts: ProcFact[] = [];
  for (const name of readdirSync("/proc").filter((entry) => /^\d+$/.test(entry))) {
    const fact = readProc(Number(name));
    if (fact) facts.push(fact);
  }
  return facts;
}

// The process or thread ended meanwhile: it has no children to follow.
function readOrNothing<T>(read: () => T[]): T[] {
  try {
    return read();
  } catch {
    return [];
  }
}

function readProc(pid: number): ProcFact | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] === "Z") return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      startTicks: Number(fields[19]),
      cwd: readlinkSync(`/proc/${pid}/cwd`),
      cmdline,
    };
  } catch {
    // Gone between the listing and the read.
    return undefined;
  }
}

/**
 * The process's descendants, read through each task's /proc children
 * file: a few reads, quick enough to run just before a kill.
 */
export function readDescendants(pid: number): ProcFact[] {
  const found: ProcFact[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const task of readOrNothing(() => readdirSync(`/proc/${parent}/task`))) {
      const children = readOrNothing(() =>
        readFileSync(`/proc/${parent}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
      );
      for (const child of children) {
        const fact = readProc(child);
        if (fact) found.push(fact);
        queue.push(child);
      }
    }
  }
  return found;
}

/** Verify runs in flight under an org's state/verifier/<slot>: process groups per slot. */
export function verifyGroupsBySlot(table: ProcFact[], root: string): Map<string, Set<number>> {
  const prefix = `${root}/state/verifier/`;
  const slots = new Map<string, Set<number>>();
  for (const fact of table.filter((candidate) => candidate.cwd.startsWith(prefix))) {
    const slot = fact.cwd.slice(prefix.length).split("/")[0]!;
    // objects.git is the verifier's store, not a slot: its git calls may overlap, each in a group of its own.
    if (!/^(cpu|gpu)\d+$/.test(slot)) continue;
    slots.set(slot, (slots.get(slot) ?? new Set()).add(fact.pgid));
  }
  return slots;
}

/** Which of `facts` still run as the same processes (pid and start time). */
export function stillRunning(facts: ProcFact[]): ProcFact[] {
  const now = new Map(readProcTable().map((fact) => [fact.pid, fact.startTicks]));
  return facts.filter((fact) => now.get(fact.pid) === fact.startTicks);
}

/** Samples the org every `everyMs` until stopped: every moment two verify groups shared a slot, or an agent had more
 * distinct candidates queued on disk than `cap`. */
export function sampleOrg(
  root: string,
  cap: number,
  everyMs = 100,
): { stop(): { samples: number; doubled: string[]; overCap: string[] } } {
  let samples = 0;
  const doubled: string[] = [];
  const overCap: string[] = [];
  const timer = setInterval(() => {
    samples++;
    const at = new Date().toISOString();
    for (const [slot, groups] of verifyGroupsBySlot(readProcTable(), root)) {
      if (groups.size > 1) doubled.push(`${at} ${slot}: process groups ${[...groups].join(", ")}`);
    }
    for (const [agent, commits] of queuedCandidates(join(root, "state/queue"))) {
      if (commits.size > cap) overCap.push(`${at} ${agent}: ${commits.size} queued (${[...commits].join(", ")})`);
    }
  }, everyMs);
  return { stop: () => (clearInterval(timer), { samples, doubled, overCap }) };
}

function queuedCandidates(queue: string): Map<string, Set<string>> {
  const byAgent = new Map<string, Set<string>>();
  for (const name of readOrNothing(() => readdirSync(queue).filter((entry) => entry.endsWith(".json")))) {
    try {
      const request = JSON.parse(readFileSync(join(queue, name), "utf8")) as {
        agent: string;
        commit: string;
        kind: string;
      };
      if (request.kind === "candidate")
        byAgent.set(request.agent, (byAgent.get(request.agent) ?? new Set()).add(request.commit.slice(0, 7)));
    } catch {
      // Cleared or half-written between the listing and the read.
    }
  }
  return byAgent;
}
