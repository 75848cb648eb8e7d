// Every verify run leaves its busy interval in state/gpu-runs.jsonl:
// baseline repeats and confirmation runs each their own.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { VerifierLoop } from "../../../src/daemon/verifier/loop.js";
import { createVerifierPort } from "../../../src/adapters/verifier/port.js";
import { readUtilizationInput } from "../../../src/adapters/store/gpu-runs-file.js";
import { ChildRecords } from "../../../src/adapters/child-records.js";
import { pollUntil } from "../../helpers/poll.js";
import { git, removeAfterEachTest } from "../../helpers/temp-repo.js";
import { createTestOrg } from "../../helpers/test-org/index.js";
import { parseScoreConfig } from "../../helpers/test-org/verifier-loop.js";

const AGENT = "r-1";
const config = parseScoreConfig({ repeats: 2, keep: { k: 0, min_delta: 0, confirm: 1 } });
const removeAfterTest = removeAfterEachTest();

const lines = (state: string) =>
  readFileSync(join(state, "gpu-runs.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

test("a run's start is on disk while it runs and its whole interval " +
  "once it ends; the verifier records its slots", async () => {
  // Each run waits for the file state/go (two levels above its
  // checkout, state/verifier/cpu0), so one can be caught in flight.
  const files = {
    "score.sh": 'while [ ! -e ../../go ]; do sleep 0.05; done\necho "score: $(cat value.txt)"\n',
    "value.txt": "1.0\n",
  };
  const { root, worktree, base: baseCommit, record, state } = createTestOrg({ daemon: false, agents: [AGENT], files });
  removeAfterTest(root);
  const loop = new VerifierLoop(
    record,
    config,
    createVerifierPort({ repo: root, state, children: new ChildRecords(join(state, "children")) }),
    () => undefined,
  );

  await loop.tick(new Date());
  expect(JSON.parse(readFileSync(join(state, "gpu-slots.json"), "utf8"))).toEqual({
    unit: "slot",
    slots: ["cpu0", "cpu1"],
  });
  await pollUntil(() => existsSync(join(state, "gpu-runs.jsonl")), { what: "the first run's start line" });
  const [started] = lines(state);
  expect(started).toMatchObject({
    slot: "cpu0",
    gpu: null,
    agent: AGENT,
    commit: baseCommit,
    kind: "baseline",
    run: 1,
    pid: expect.any(Number),
  });
  expect(started).not.toHaveProperty("end");
  const inFlight = await readUtilizationInput(state, new Date());
  expect(inFlight?.runs).toEqual([{ slot: "cpu0", start: Date.parse(started!.start as string) }]);

  writeFileSync(join(state, "go"), "");
  await loop.drain();
  writeFileSync(join(worktree, "value.txt"), "0.5\n");
  git(worktree, ["commit", "-qam", "halve it"]);
  const candidate = git(worktree, ["rev-parse", "HEAD"]).trim();
  await pollUntil(async () => {
    await loop.tick(new Date());
    await loop.drain();
    return readdirSync(join(state, "runs")).length === 4 && readdirSync(join(state, "queue")).length === 0;
  }, { what: "the baseline's two runs and the candidate's two", timeoutMs: 30_000 });

  const ended = lines(state).filter((line) => "end" in line);
  expect(ended.map((line) => [line.kind, line.run, line.commit, line.slot])).toEqual([
    ["baseline", 1, baseCommit, "cpu0"],
    ["baseline", 2, baseCommit, "cpu0"],
    ["candidate", 1, candidate, "cpu0"],
    ["confirmation", 2, candidate, "cpu0"],
  ]);
  expect(ended[0]).toMatchObject({ id: started!.id, start: started!.start });
  for (const line of ended)
    expect(Date.parse(line.end as string)).toBeGreaterThanOrEqual(Date.parse(line.start as string));
  const after = await readUtilizationInput(state, new Date());
  expect(after?.runs.map((run) => run.end !== undefined)).toEqual([true, true, true, true]);
});
