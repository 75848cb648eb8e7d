// `org submit --no-wait` queues and returns; `org wait <id>` prints the verdict as `org submit` would. The test plays
// the daemon.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { ExperimentRequest } from "../../../src/domain/experiments/request.js";
import { formatSubmitReply, type VerdictFile } from "../../../src/domain/experiments/submit-reply.js";
import { runOrgAsync } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, removeDir } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

const alive = () => ({
  "state/daemon.json": JSON.stringify({ pid: process.pid, heartbeatAt: new Date().toISOString(), queuePerAgent: 2 }),
});
const queuedIn = (state: string) =>
  readdirSync(join(state, "queue"))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(state, "queue", name), "utf8")) as ExperimentRequest);

/** The request `org wait` is asked about, as `org submit --no-wait` would have queued it. */
const REQUEST: ExperimentRequest = {
  id: "2026-12-02T00-00-00-000Z-researcher-1-abcdef0",
  agent: "researcher-1",
  commit: "abcdef0123",
  description: "double it",
  kind: "candidate",
  submittedAt: "2026-12-02T00:00:00.000Z",
};

/** Every file under `root` with its size and time: what "nothing changed" compares. */
function snapshot(root: string): string[] {
  const walk = (path: string): string[] => statSync(path).isDirectory()
    ? readdirSync(path).flatMap((name) => walk(join(path, name)))
    : [`${relative(root, path)} ${statSync(path).size} ${statSync(path).mtimeMs}`];
  return walk(root).sort();
}

function verdictFor(request: ExperimentRequest, base: string): VerdictFile {
  return {
    id: request.id,
    best: { commit: base, metric: 1 },
    outcome: {
      request,
      verdict: {
        kind: "discard",
        metric: 2,
        delta: 1,
        reason: "discard: score 2.0000 not better than best 1.0000 (+1.0000)",
      },
      metric: 2,
      memoryGb: undefined,
      seconds: 1,
      runSeconds: 1,
      samples: [2],
      logFile: "state/runs/x.log",
      logTail: "",
      head: base,
      patch: `state/patches/researcher-1-${request.commit.slice(0, 7)}-discard.patch`,
    },
  };
}

describe("org submit --no-wait", () => {
  test("commits, queues and returns with the id; the next one, made on it, records it; " +
    "past queue_per_agent it is refused and nothing is committed", async () => {
    const { worktree, ...org } = createTestOrg({ daemon: false, judged: true, state: alive() });
    dir = org.dir;
    const state = join(dir, "state");
    writeFileSync(join(worktree, "value.txt"), "2\n");
    const first = await runOrgAsync(["submit", "--no-wait", "-m", "double it"], { cwd: worktree, timeoutMs: 30_000 });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const [queued] = queuedIn(state);
    const a = git(worktree, ["rev-parse", "HEAD"]).trim();
    expect(queued).toMatchObject({
      agent: "researcher-1",
      commit: a,
      description: "double it",
      kind: "candidate",
      reply: "message",
    });
    expect(queued).not.toHaveProperty("after");
    expect(first.stdout).toBe(
      `queued ${a.slice(0, 7)} "double it" as ${queued!.id}\nits verdict comes to your inbox (\`org inbox\`); ` +
        `\`org wait ${queued!.id}\` waits for it here\n`,
    );

    // Nothing new since the queued commit: nothing to queue again.
    const again = await runOrgAsync(["submit", "--no-wait"], { cwd: worktree, timeoutMs: 30_000 });
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      `org: nothing to submit: no changes since ${a.slice(0, 7)}, which is queued already — ` +
        `\`org wait ${queued!.id}\` waits for its verdict`,
    );

    writeFileSync(join(worktree, "value.txt"), "3\n");
    const second = await runOrgAsync(["submit", "--no-wait", "-m", "triple it"], { cwd: worktree, timeoutMs: 30_000 });
    expect(second.code).toBe(0);
    const b = git(worktree, ["rev-parse", "HEAD"]).trim();
    expect(git(worktree, ["rev-parse", "HEAD^"]).trim()).toBe(a);
    expect(queuedIn(state)[1]).toMatchObject({ commit: b, after: a, reply: "message" });

    writeFileSync(join(worktree, "value.txt"), "4\n");
    const third = await runOrgAsync(["submit", "--no-wait", "-m", "quadruple it"], {
      cwd: worktree,
      timeoutMs: 30_000,
    });
    expect(third.code).toBe(1);
    expect(third.stderr.trim()).toBe(
      `org: you already have 2 experiments queued (${a.slice(0, 7)} "double it", ${b.slice(0, 7)} "triple it") ` +
        `and verify.queue_per_agent is 2: wait for a verdict, then submit (nothing was committed)`,
    );
    expect(git(worktree, ["rev-parse", "HEAD"]).trim()).toBe(b);
    expect(git(worktree, ["status", "--porcelain"])).toBe(" M value.txt\n");
    expect(queuedIn(state)).toHaveLength(2);
  });
});

describe("org wait", () => {
  test("no id, an unknown id, or a path for an id: " +
    "a clear error naming how to list ids, and nothing changes", async () => {
    const org = createTestOrg({ daemon: false, judged: true, state: alive() });
    dir = org.dir;
    mkdirSync(join(dir, "state", "queue"), { recursive: true });
    const before = snapshot(dir);
    const none = await runOrgAsync(["wait"], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(
      "org: which experiment? — run `org wait <id>` with the id `org submit --no-wait` printed; " +
        "`org inbox` shows your verdicts with their ids, `org results` the judged commits",
    );
    for (const id of ["2026-12-02T00-00-00-000Z-researcher-1-abcdef0", "../org"]) {
      const unknown = await runOrgAsync(["wait", id], { cwd: dir });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr.trim()).toBe(
        `org: no experiment "${id}" is queued or judged — \`org inbox\` shows your verdicts with their ids, ` +
          `\`org results\` the judged commits`,
      );
      expect(unknown.stdout).toBe("");
    }
    expect(snapshot(dir)).toEqual(before);
  });

  test("an id already judged prints at once, exactly as org submit would, even with the org down", async () => {
    const { base, ...org } = createTestOrg({ daemon: false, judged: true });
    dir = org.dir;
    const request = REQUEST;
    mkdirSync(join(dir, "state", "verdicts"), { recursive: true });
    writeFileSync(join(dir, "state", "verdicts", `${request.id}.json`), JSON.stringify(verdictFor(request, base)));
    const waited = await runOrgAsync(["wait", request.id], { cwd: dir });
    expect(waited.code).toBe(0);
    expect(waited.stdout).toBe(`${formatSubmitReply(verdictFor(request, base)).join("\n")}\n`);
    expect(waited.stdout).toBe([
      `metric 2.000000 · your best 1.000000 (${base.slice(0, 7)}) · delta +1.000000 · discard`,
      "discard: score 2.0000 not better than best 1.0000 (+1.0000)",
      `your branch was reset to ${base.slice(0, 7)}; the diff is saved in ` +
        `state/patches/researcher-1-abcdef0-discard.patch`,
      "",
    ].join("\n"));
  });

  test("an id cancelled by a stop prints why it never ran and exits 1, instead of waiting for ever", async () => {
    const org = createTestOrg({ daemon: false, judged: true });
    dir = org.dir;
    const id = "2026-12-02T00-00-00-000Z-researcher-1-abcdef0";
    mkdirSync(join(dir, "state", "verdicts"), { recursive: true });
    writeFileSync(
      join(dir, "state", "verdicts", `${id}.json`),
      JSON.stringify({
        id,
        commit: "abcdef0123",
        description: "double\nit",
        cancelled: "the org stopped (GPU-hours 2.0 ≥ 2)",
      }),
    );
    const waited = await runOrgAsync(["wait", id], { cwd: dir });
    expect({ code: waited.code, stdout: waited.stdout }).toEqual({
      code: 1,
      stdout: 'not run: abcdef0 "double it" was cancelled: the org stopped (GPU-hours 2.0 ≥ 2)\n',
    });
  });

  test("a queued id blocks until its verdict lands, then prints it; " +
    "with the daemon gone it fails as org submit does and the request stays", async () => {
    const { base, ...org } = createTestOrg({ daemon: false, judged: true, state: alive() });
    dir = org.dir;
    const request: ExperimentRequest = { ...REQUEST, reply: "message" };
    const queueFile = join(dir, "state", "queue", `${request.id}.json`);
    mkdirSync(join(dir, "state", "queue"), { recursive: true });
    mkdirSync(join(dir, "state", "verdicts"), { recursive: true });
    writeFileSync(queueFile, JSON.stringify(request));
    const waiting = runOrgAsync(["wait", request.id], { cwd: dir, timeoutMs: 30_000 });
    // The daemon answers once org wait runs: it is waiting, as its process is still there.
    await pollUntil(() => spawnSync("pgrep", ["-f", `wait ${request.id}`]).status === 0, { what: "org wait running" });
    writeFileSync(join(dir, "state", "verdicts", `${request.id}.json`), JSON.stringify(verdictFor(request, base)));
    const waited = await waiting;
    expect(waited.code).toBe(0);
    expect(waited.stdout).toBe(`${formatSubmitReply(verdictFor(request, base)).join("\n")}\n`);

    const gone = spawnSync("true").pid;
    writeFileSync(
      join(dir, "state", "daemon.json"),
      JSON.stringify({ pid: gone, heartbeatAt: new Date().toISOString() }),
    );
    const other = { ...request, id: "2026-12-02T00-00-01-000Z-researcher-1-abcdef1", commit: "abcdef1123" };
    writeFileSync(join(dir, "state", "queue", `${other.id}.json`), JSON.stringify(other));
    const down = await runOrgAsync(["wait", other.id], { cwd: dir, timeoutMs: 30_000 });
    expect(down.code).toBe(1);
    expect(down.stderr.trim()).toBe(
      "org: the org went down while your request waited; it stays queued and runs at the next `org up`",
    );
    expect(JSON.parse(readFileSync(join(dir, "state", "queue", `${other.id}.json`), "utf8"))).toEqual(other);
  });
});
