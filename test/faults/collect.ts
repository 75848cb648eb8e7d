// Reads the facts checkInvariants judges from a stopped org's state/, git and /proc.
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { OrgRecord } from "../../src/domain/state.js";
import { git } from "../helpers/temp-repo.js";
import { runOrg } from "../helpers/org-cli.js";
import { checkInvariants, type OrgFacts, type RowFact, type VerdictFact } from "./invariants.js";
import { findUnreadable } from "./state-files.js";
import { tmux } from "../helpers/test-org/index.js";

const list = (dir: string, suffix: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(suffix))
        .map((name) => name.slice(0, -suffix.length))
    : [];

export function collectFacts(root: string): OrgFacts {
  const state = join(root, "state");
  const record = JSON.parse(readFileSync(join(state, "org.json"), "utf8")) as OrgRecord;
  const [header, ...lines] = (
    existsSync(join(state, "results.tsv")) ? readFileSync(join(state, "results.tsv"), "utf8") : ""
  )
    .split("\n")
    .filter(Boolean);
  const columns = (header ?? "").split("\t");
  const at = (cells: string[], name: string) => cells[columns.indexOf(name)] ?? "";
  const rows: RowFact[] = lines
    .map((line) => line.split("\t"))
    .map((cells) => ({
      commit: at(cells, "commit"),
      status: at(cells, "status"),
      description: at(cells, "description"),
      agent: at(cells, "agent"),
    }));
  const verdicts: VerdictFact[] = list(join(state, "verdicts"), ".json").map((id) => {
    const file = JSON.parse(readFileSync(join(state, "verdicts", `${id}.json`), "utf8")) as {
      outcome: { request: { agent: string; commit: string; description: string }; verdict: { kind: string } };
    };
    const { request, verdict } = file.outcome;
    return {
      id,
      agent: request.agent,
      commit: request.commit,
      description: request.description,
      verdict: verdict.kind,
    };
  });
  const queued = list(join(state, "queue"), ".json").map((id) => {
    const request = JSON.parse(readFileSync(join(state, "queue", `${id}.json`), "utf8")) as {
      agent: string;
      commit: string;
    };
    return { id, agent: request.agent, commit: request.commit };
  });
  const ids = new Set([...verdicts.map((verdict) => verdict.id), ...queued.map((request) => request.id)]);
  // Repeats and confirmations log as <id>-<n>.log: they belong to their experiment.
  const runs = [
    ...new Set(list(join(state, "runs"), ".log").map((name) => (ids.has(name) ? name : name.replace(/-run\d+$/, "")))),
  ];
  verdicts.push(...readStackVerdicts(state, runs));
  const branches = record.agents.map((agent) => {
    const head = git(record.repo, ["rev-parse", agent.branch]).trim();
    const commits = git(record.repo, ["rev-list", head, `^${record.baseCommit}`]).split("\n").filter(Boolean);
    return { agent: agent.name, head, commits };
  });
  return {
    baseCommit: record.baseCommit,
    rows,
    verdicts,
    runs,
    queued,
    branches,
    leftovers: findLeftovers(root, record.socket),
  };
}

// A stack is the org's experiment: its row (agent org) answers
// its line in stacks.jsonl, its run named <id>-stack-<kept>.
function readStackVerdicts(state: string, runs: string[]): VerdictFact[] {
  const file = join(state, "stacks.jsonl");
  const attempts = existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { kept: string; onto: string; outcome: string; commit?: string })
    : [];
  return attempts
    .filter((attempt) => attempt.commit !== undefined)
    .map((attempt) => ({
      id:
        runs.find((run) => run.endsWith(`-stack-${attempt.kept.slice(0, 7)}`)) ??
        `stack ${attempt.kept.slice(0, 7)} onto ${attempt.onto.slice(0, 7)}`,
      agent: "org",
      commit: attempt.commit!,
      description: `stack ${attempt.kept.slice(0, 7)} onto ${attempt.onto.slice(0, 7)}`,
      verdict: attempt.outcome,
    }));
}

/** Live processes whose cwd or command line is inside the org's folder, and our tmux server. */
export function findLeftovers(root: string, socket: string): string[] {
  const found: string[] = [];
  if (tmux(socket, ["has-session"]).code === 0) found.push(`tmux server on socket ${socket}`);
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      if (/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) continue;
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === root || cwd.startsWith(`${root}/`) || cmdline.includes(root))
        found.push(`pid ${pid} (${cmdline.slice(0, 120)}) in ${cwd}`);
    } catch {
      // Gone between the listing and the read, or not ours to read.
    }
  }
  return found;
}

/**
 * `org down`, then every invariant and every state file: [] when nothing was lost, doubled, corrupted or left running.
 */
export function downAndFindProblems(root: string): string[] {
  const down = runOrg(["down"], { cwd: root });
  return [
    ...(down.code === 0 ? [] : [`org down exited ${down.code}: ${down.stderr}`]),
    ...checkInvariants(collectFacts(root)),
    ...findUnreadable(join(root, "state")),
  ];
}
