// A submit that lands before the verifier's first look: the agent's baseline still runs first, and the candidate is judged against it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { VerifierLoop } from "../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../src/adapters/verifier/port.js";
import { ConfigSchema } from "../src/org/config/schema.js";
import type { ExperimentRequest } from "../src/org/experiments/experiment.js";
import type { OrgRecord } from "../src/org/state.js";
import { pollUntil } from "./helpers/poll.js";
import { createRepo, git, removeDir } from "./helpers/temp-repo.js";

const AGENT = "r-1";
const config = ConfigSchema.parse({
  roles: { researcher: { prompt: "p.md", runtime: "idle", edits: ["value.txt"] } },
  verify: { command: ["sh", "score.sh"], metric: { name: "score", pattern: "^score: ([0-9.]+)" }, timeout: "30s", parallel: 1, repeats: 1, keep: { k: 0, min_delta: 0, confirm: 0 } },
});

let root: string | undefined;
afterEach(() => {
  if (root) removeDir(root);
  root = undefined;
});

describe("the verifier's first look", { tags: ["slow"] }, () => {
  test("a candidate queued before any baseline waits for its agent's baseline, then is judged against it", async () => {
    root = createRepo({ "score.sh": 'echo "score: $(cat value.txt)"\n', "value.txt": "1.0\n" });
    const worktree = join(root, "worktrees", AGENT);
    git(root, ["worktree", "add", "-q", "-b", `org/t/${AGENT}`, worktree, "main"]);
    const base = git(root, ["rev-parse", "main"]).trim();
    writeFileSync(join(worktree, "value.txt"), "0.5\n");
    git(worktree, ["commit", "-qam", "halve the value"]);
    const commit = git(worktree, ["rev-parse", "HEAD"]).trim();
    const record: OrgRecord = {
      version: 1, name: "t", root, repo: root, base: "main", baseCommit: base, socket: "none", session: "none", cpuMode: true,
      agents: [{ name: AGENT, role: "researcher", runtime: "idle", branch: `org/t/${AGENT}`, worktree, gpu: null }], upAt: new Date().toISOString(),
    };
    const state = join(root, "state");
    mkdirSync(join(state, "queue"), { recursive: true });
    const request: ExperimentRequest = { id: "a-candidate", agent: AGENT, commit, description: "halve the value", kind: "candidate", submittedAt: new Date().toISOString() };
    writeFileSync(join(state, "queue", "a-candidate.json"), JSON.stringify(request));
    const loop = new VerifierLoop(record, config, createVerifierPort({ repo: root, state }), () => undefined);
    const rows = () => readFileSync(join(state, "results.tsv"), "utf8").trim().split("\n").slice(1).map((line) => line.split("\t").slice(0, 5));
    await pollUntil(async () => {
      await loop.tick(new Date());
      await loop.drain();
      return rows().length === 2;
    }, { what: "the baseline and the candidate", timeoutMs: 30_000 });
    expect(rows()).toEqual([
      [base.slice(0, 7), "1.000000", "0.0", "keep", "baseline"],
      [commit.slice(0, 7), "0.500000", "0.0", "keep", "halve the value"],
    ]);
    const verdict = JSON.parse(readFileSync(join(state, "verdicts", "a-candidate.json"), "utf8")) as { outcome: { verdict: { kind: string; reason: string } } };
    expect(verdict.outcome.verdict.kind).toBe("keep");
  });
});
