// Stacking on the verifier's real loop and git:
// a keep that improves its agent's best but not the org's is tried on the org best.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import type { Frontier } from "../../../src/domain/experiments/frontier.js";
import { buildLeaderboard, parseResults } from "../../../src/domain/experiments/results-table.js";
import { toStackRequest } from "../../../src/domain/experiments/stack.js";
import type { OrgRecord } from "../../../src/domain/state.js";
import { pollUntil } from "../../helpers/poll.js";
import { createRepo, git, makeTempDir, removeDir } from "../../helpers/temp-repo.js";

// score = a + b; a run of a combination (both files changed) waits while $1 exists,
// so a test can kill the daemon mid-stack.
const SUM = `if [ -e "$1" ] && [ "$(cat a.txt)" != 1 ] && [ "$(cat b.txt)" != 1 ]; then sleep 30; fi
echo "score: $(( $(cat a.txt) + $(cat b.txt) ))"
`;
// score = max(a, b): two changes that do not add up.
const MAX = `a=$(cat a.txt); b=$(cat b.txt); if [ "$a" -gt "$b" ]; then echo "score: $a"; else echo "score: $b"; fi
`;

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) removeDir(dir);
  dirs = [];
});

/** Two agents of two roles: ra-1 may edit a.txt, rb-1 b.txt (or what `rbEdits` says); every keep is confirmed by a
 * second run. */
function createOrg(options: { score?: string; stack?: boolean; rbEdits?: string[] } = {}) {
  const root = createRepo({ "score.sh": options.score ?? SUM, "a.txt": "1\n", "b.txt": "1\n" });
  const outside = makeTempDir("org-stack-flag-");
  dirs.push(root, outside);
  const slow = join(outside, "slow");
  const agents = { "ra-1": "ra", "rb-1": "rb" };
  for (const agent of Object.keys(agents)) git(root, [
    "worktree", "add", "-q", "-b", `org/t/${agent}`, join(root, "worktrees", agent), "main",
  ]);
  const record: OrgRecord = {
    version: 1, name: "t", root, repo: root, base: "main", baseCommit: git(root, ["rev-parse", "main"]).trim(),
    socket: "none", session: "none", cpuMode: true,
    agents: Object.entries(agents).map(([name, role]) =>
      ({ name, role, runtime: "idle", branch: `org/t/${name}`, worktree: join(root, "worktrees", name), gpu: null })),
    upAt: new Date().toISOString(),
  };
  const config = ConfigSchema.parse({
    roles: {
      ra: { prompt: "p.md", runtime: "idle", edits: ["a.txt"] },
      rb: { prompt: "p.md", runtime: "idle", edits: options.rbEdits ?? ["b.txt"] },
    },
    verify: {
      command: ["sh", "score.sh", slow], metric: { name: "score", pattern: "^score: ([0-9.]+)", goal: "maximize" },
      timeout: "60s", parallel: 2, repeats: 1,
      keep: { k: 0, min_delta: 0, confirm: 1 }, ...(options.stack === undefined ? {} : { stack: options.stack }),
    },
  });
  const state = join(root, "state");
  mkdirSync(join(state, "queue"), { recursive: true });
  const daemon = () => new VerifierLoop(record, config, createVerifierPort({ repo: root, state }), () => undefined);
  const commit = (agent: string, file: string, value: string) => {
    const worktree = join(root, "worktrees", agent);
    writeFileSync(join(worktree, file), `${value}\n`);
    git(worktree, ["commit", "-qam", `${file} ${value}`]);
    return git(worktree, ["rev-parse", "HEAD"]).trim();
  };
  const submit = (agent: string, commit: string) => {
    const at = new Date().toISOString();
    const request: ExperimentRequest = {
      id: `${at.replace(/[:.]/g, "-")}-${agent}-${commit.slice(0, 7)}`, agent, commit,
      description: `change ${commit.slice(0, 7)}`, kind: "candidate", submittedAt: at,
    };
    writeFileSync(join(state, "queue", `${request.id}.json`), JSON.stringify(request));
  };
  const queued = () => readdirSync(join(state, "queue")).filter((name) => name.endsWith(".json"));
  /** Tick and wait for the runs until both baselines are in and the queue is empty. */
  const settle = async (loop: VerifierLoop) => {
    await pollUntil(async () => {
      await loop.tick(new Date());
      await loop.drain();
      return Object.keys(agents).every((agent) => existsSync(join(state, "agents", agent, "ledger.json")))
        && queued().length === 0;
    }, { what: "an empty queue", timeoutMs: 60_000 });
  };
  const text = (file: string) => (existsSync(join(state, file)) ? readFileSync(join(state, file), "utf8") : "");
  const rows = () => parseResults(text("results.tsv")).rows;
  const orgRows = () => rows().filter((row) => row.agent === "org");
  const frontier = () => JSON.parse(text("frontier.json")) as Frontier;
  const best = () => git(root, ["rev-parse", "org/t/best"]).trim();
  const branch = (agent: string) => git(root, ["rev-parse", `org/t/${agent}`]).trim();
  const inbox = (agent: string) => readdirSync(join(state, "agents", agent, "inbox")).map((name) =>
    readFileSync(join(state, "agents", agent, "inbox", name), "utf8")).join("\n");
  const attempts = () => text("stacks.jsonl").split("\n").filter(Boolean).map((line) =>
    JSON.parse(line) as { kept: string; onto: string; outcome: string });
  const stackRuns = () => readdirSync(join(state, "runs")).filter((name) => name.includes("-stack-"));
  /** Both agents' keeps: ra-1's a=3 (score 4) advances the org best; rb-1's b=2 (score 3) improves only its own. */
  const keepBoth = async (loop: VerifierLoop, values = { a: "3", b: "2" }) => {
    await settle(loop);
    const a = commit("ra-1", "a.txt", values.a);
    submit("ra-1", a);
    await settle(loop);
    expect(best()).toBe(a);
    const b = commit("rb-1", "b.txt", values.b);
    submit("rb-1", b);
    return { a, b };
  };
  return {
    record, state, slow, daemon, commit, submit, queued, settle, text, rows, orgRows, frontier, best, branch, inbox,
    attempts, stackRuns, keepBoth,
  };
}

describe("stacking keeps onto the org best", () => {
  test("two independent keeps: the second, not beating the org on its own, is stacked, confirmed and becomes the org "
    + "best; every agent is told", async () => {
    const org = createOrg();
    const loop = org.daemon();
    const { a, b } = await org.keepBoth(loop);
    await org.settle(loop);
    const row = rows1(org.rows().filter((candidate) => candidate.commit === b.slice(0, 7)));
    expect(row).toMatchObject({ status: "keep", metric: 3, agent: "rb-1" });
    const [stack] = org.orgRows();
    expect(org.orgRows()).toHaveLength(1);
    expect(stack).toMatchObject({
      status: "keep",
      metric: 5,
      description: `stack ${b.slice(0, 7)} onto ${a.slice(0, 7)} (mean of 2 runs)`,
    });
    // The org best is one commit holding both changes, made by the verifier on top of ra-1's keep.
    const combined = org.best();
    expect(combined.slice(0, 7)).toBe(stack!.commit);
    expect(git(org.record.repo, ["show", `${combined}:a.txt`])).toBe("3\n");
    expect(git(org.record.repo, ["show", `${combined}:b.txt`])).toBe("2\n");
    expect(git(org.record.repo, ["rev-parse", `${combined}^`]).trim()).toBe(a);
    expect(org.frontier()).toMatchObject({ commit: combined, metric: 5, agent: "org", runs: 2 });
    for (const agent of ["ra-1", "rb-1"]) expect(org.inbox(agent)).toContain(
      "score 5 by org beats the org's best 4 (ra-1)",
    );
    // No branch moves for a stack.
    expect(org.branch("ra-1")).toBe(a);
    expect(org.branch("rb-1")).toBe(b);
    expect(org.text("log.md")).toContain(`keep | org ${combined.slice(0, 7)} stack ${b.slice(0, 7)} onto `
      + `${a.slice(0, 7)} (rb-1's keep)\nkeep: score 5.0000 (mean of 2) beats best 4.0000`);
    expect(org.text("log.md")).toContain("\nthe org best advanced to it\n");
    expect(org.attempts()).toEqual([expect.objectContaining({ kept: b, onto: a, outcome: "keep" })]);
    // `org results`: the org is a row of the leaderboard, measured from the base's baseline.
    const board = buildLeaderboard(org.rows(), "maximize");
    expect(board.best).toMatchObject({ agent: "org", metric: 5 });
    expect(board.agents.find((standing) => standing.agent === "org")).toMatchObject({
      baseline: 2, best: 5, delta: 3, runs: 1,
    });
  });

  test("a change that conflicts with the org best: logged with its reason, nothing run, "
    + "never tried again for that pair", async () => {
    const org = createOrg({ rbEdits: ["a.txt", "b.txt"] });
    const loop = org.daemon();
    await org.settle(loop);
    const a = org.commit("ra-1", "a.txt", "3");
    org.submit("ra-1", a);
    await org.settle(loop);
    const b = org.commit("rb-1", "a.txt", "2");
    org.submit("rb-1", b);
    await org.settle(loop);
    const entry = `stack | org stack ${b.slice(0, 7)} onto ${a.slice(0, 7)} (rb-1's keep)\n`
      + `not stacked: rb-1's change ${b.slice(0, 7)} conflicts in a.txt with the org best ${a.slice(0, 7)}\n`;
    expect(org.text("log.md")).toContain(entry);
    expect(org.orgRows()).toEqual([]);
    expect(org.stackRuns()).toEqual([]);
    expect(org.attempts()).toEqual([expect.objectContaining({ kept: b, onto: a, outcome: "conflict" })]);
    // The same stack queued again (a daemon killed before it cleared the request):
    // the pair was tried, so nothing happens.
    requeue(org, b, org.record.baseCommit, a);
    await org.settle(loop);
    for (let tick = 0; tick < 3; tick++) await loop.tick(new Date());
    await loop.drain();
    expect(org.text("log.md").split(entry)).toHaveLength(2);
    expect(org.attempts()).toHaveLength(1);
    expect(org.best()).toBe(a);
  });

  test("a combination that does not beat the org best: a discard row by org, "
    + "the best stays, never tried again", async () => {
    const org = createOrg({ score: MAX });
    const loop = org.daemon();
    const { a, b } = await org.keepBoth(loop);
    await org.settle(loop);
    expect(org.orgRows()).toEqual([
      expect.objectContaining({
        status: "discard",
        metric: 3,
        description: `stack ${b.slice(0, 7)} onto ${a.slice(0, 7)}`,
      }),
    ]);
    expect(org.text("log.md")).toContain(`discard | org ${org.orgRows()[0]!.commit} stack ${b.slice(0, 7)} onto `
      + `${a.slice(0, 7)} (rb-1's keep)\ndiscard: score 3.0000 not better than best 3.0000 (+0.0000)\n`);
    expect(org.best()).toBe(a);
    requeue(org, b, org.record.baseCommit, a);
    await org.settle(loop);
    expect(org.orgRows()).toHaveLength(1);
    expect(org.attempts()).toEqual([expect.objectContaining({ kept: b, onto: a, outcome: "discard" })]);
  });

  test("a daemon killed mid-stack: the next one judges the same combination, once", async () => {
    const org = createOrg();
    const first = org.daemon();
    const { a, b } = await org.keepBoth(first);
    await first.tick(new Date());
    await first.drain();
    // rb-1's keep is judged and its stack queued; the combination's runs now hang until the daemon is killed.
    const stackFile = org.queued().find((name) => name.includes("-stack-"));
    expect(stackFile).toBeDefined();
    writeFileSync(org.slow, "");
    await first.tick(new Date());
    await pollUntil(() => org.stackRuns().length > 0, { what: "the stack's run", timeoutMs: 30_000 });
    await first.stop();
    rmSync(org.slow);
    expect(org.orgRows()).toEqual([]);
    const persisted = JSON.parse(readFileSync(join(org.state, "queue", stackFile!), "utf8")) as ExperimentRequest;
    expect(persisted.rebased).toMatchObject({ kind: "rebased", from: b, onto: a });
    const next = org.daemon();
    await org.settle(next);
    expect(org.orgRows()).toEqual([
      expect.objectContaining({
        status: "keep",
        metric: 5,
        commit: (persisted.rebased as { commit: string }).commit.slice(0, 7),
      }),
    ]);
    expect(org.best()).toBe((persisted.rebased as { commit: string }).commit);
    expect(org.attempts()).toHaveLength(1);
  });

  test("verify.stack: false: a keep that does not beat the org best stays the agent's own", async () => {
    const org = createOrg({ stack: false });
    const loop = org.daemon();
    const { a } = await org.keepBoth(loop);
    await org.settle(loop);
    expect(org.rows().at(-1)).toMatchObject({ status: "keep", metric: 3, agent: "rb-1" });
    expect(org.orgRows()).toEqual([]);
    expect(org.best()).toBe(a);
    expect(org.attempts()).toEqual([]);
    expect(org.stackRuns()).toEqual([]);
  });
});

function rows1<T>(rows: T[]): T {
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** A stack request for the pair as `org/t/best` stood, written to the queue as the verifier writes it. */
function requeue(org: { state: string }, kept: string, after: string, onto: string): void {
  const request = toStackRequest({ agent: "rb-1", kept, after, target: { onto, metric: 4, runs: 2 }, now: new Date() });
  writeFileSync(join(org.state, "queue", `${request.id}.json`), JSON.stringify(request));
}
