import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { createDemoRepo } from "../../src/adapters/git/demo-repo.js";
import { parseResults } from "../../src/domain/experiments/results-table.js";
import { PACKAGE_ROOT, runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { createRepo, removeDir } from "../helpers/temp-repo.js";
import { CLUSTER_START_MS, startCluster } from "./cluster.js";

const VERDICTS = 4;
let dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs) {
    runOrg(["down"], { cwd: dir });
    removeDir(dir);
  }
  dirs = [];
});

/**
 * The demo org (builtin hillclimb researchers, node train.mjs
 * judged by the verifier) on one backend, until it has verdicts.
 */
async function runDemo(backend: "local" | "slurm") {
  const dir = createRepo({
    "README.md": "demo under test\n",
    "prompts/researcher.md": readFileSync(join(PACKAGE_ROOT, "prompts", "researcher.md"), "utf8"),
  });
  dirs.push(dir);
  await createDemoRepo(join(dir, "research"));
  const demo = readFileSync(join(PACKAGE_ROOT, "org.yaml"), "utf8")
    .replace(/^name: .*$/m, `name: d${process.pid}${backend}`)
    .replace(/^repo: .*$/m, "repo: research");
  writeFileSync(
    join(dir, "org.yaml"),
    demo.replace(
      /^gpus: .*$/m,
      backend === "slurm" ? "gpus: auto\nbackend: slurm\nslurm: { partition: node4 }" : "gpus: none",
    ),
  );
  const up = runOrg(["up"], { cwd: dir });
  expect(up.code, up.stderr).toBe(0);
  const results = join(dir, "state", "results.tsv");
  return pollUntil(() => {
    try {
      const { rows } = parseResults(readFileSync(results, "utf8"));
      return rows.length >= VERDICTS ? rows : undefined;
    } catch {
      return undefined;
    }
  }, { what: `${VERDICTS} verdicts under ${backend}`, timeoutMs: 90_000 });
}

describe("the demo org under backend: slurm", { tags: ["slurm"] }, () => {
  beforeAll(async () => {
    await startCluster();
  }, CLUSTER_START_MS);

  test("produces the same kind of results as the local backend: " +
    "baselines kept, then experiments judged, metric parsed", async () => {
    // Side by side: each waits on its own verify runs, not on the other's.
    const [local, slurm] = await Promise.all([runDemo("local"), runDemo("slurm")]);
    for (const rows of [local, slurm]) {
      expect(
        rows.filter((row) => row.description.startsWith("baseline") && row.status === "keep").length,
      ).toBeGreaterThanOrEqual(1);
      for (const row of rows.filter((candidate) => candidate.status === "keep" || candidate.status === "discard"))
        expect(row.metric).toBeGreaterThan(0);
    }
    expect(Object.keys(slurm[0]!).sort()).toEqual(Object.keys(local[0]!).sort());
  }, 240_000);
});
