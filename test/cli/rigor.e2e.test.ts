import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { git } from "../helpers/temp-repo.js";
import { createTestOrg, idleOrgYaml, teardownOrg, type TestOrg } from "../helpers/test-org/index.js";

const orgYaml = idleOrgYaml(", count: 2, edits: [value.txt, seconds.txt]", `verify:
  command: [sh, train.sh, "{seed}"]
  metric: { name: val_loss, pattern: '^val_loss:\\s*([0-9.]+)' }
  parallel: 2
  repeats: 3
  keep: { k: 2, min_delta: 0, confirm: 2 }
  budgets:
    training_seconds: { pattern: '^training_seconds:\\s*([0-9.]+)', max: 100 }
`);

// Seed noise the test can predict: seeds 0,1,2 (and 3,4,5, …) add -0.01, 0, +0.01, so σ is exactly 0.01.
const TRAIN = `#!/bin/sh
noise=$(( $1 % 3 - 1 ))
awk -v v="$(cat value.txt)" -v n="$noise" 'BEGIN { printf "val_loss: %.6f\\n", v + n / 100 }'
echo "training_seconds: $(cat seconds.txt)"
`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

function submit(dir: string, agent: string, files: Record<string, string>, message: string) {
  const worktree = join(dir, "worktrees", agent);
  for (const [path, content] of Object.entries(files)) writeFileSync(join(worktree, path), content);
  return runOrg(["submit", "-m", message], { cwd: worktree });
}

describe("research rigor in the running org", () => {
  test("noise floor, confirmed keeps, budgets, the org frontier and org confirm", async () => {
    org = createTestOrg({ yaml: orgYaml, files: { "train.sh": TRAIN, "value.txt": "1.0\n", "seconds.txt": "50\n" } });
    const { dir, name } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const results = () =>
      readFileSync(join(dir, "state", "results.tsv"), "utf8")
        .trim()
        .split("\n")
        .map((line) => line.split("\t"));
    await pollUntil(
      () => {
        try {
          return results().length === 3;
        } catch {
          return false;
        }
      },
      { what: "two baselines", timeoutMs: 30_000 },
    );
    expect(results()[0]).toEqual([
      "commit",
      "val_loss",
      "memory_gb",
      "status",
      "description",
      "agent",
      "gpu",
      "seconds",
      "time",
      "program",
      "training_seconds",
      "lines_added",
      "lines_removed",
    ]);
    expect(
      results()
        .slice(1)
        .map((row) => [row[1], row[3], row[4]]),
    ).toEqual([
      ["1.000000", "keep", "baseline (mean of 3 seeds)"],
      ["1.000000", "keep", "baseline (mean of 3 seeds)"],
    ]);

    const keep = submit(dir, "researcher-1", { "value.txt": "0.9\n" }, "lower value");
    expect(keep.stdout).toContain(
      "keep: val_loss 0.9000 (mean of 3) beats best 1.0000 by 0.1000 > 2σ·√(1/3+1/3) (0.0163)",
    );
    const kept = git(dir, ["rev-parse", `org/${name}/researcher-1`]).trim();
    expect(git(dir, ["rev-parse", `org/${name}/best`]).trim()).toBe(kept);
    // The first baseline to finish starts the frontier; which agent that is depends on scheduling.
    expect(readFileSync(join(dir, "state", "log.md"), "utf8")).toMatch(
      new RegExp(
        `\\] frontier \\| researcher-1 ${kept.slice(0, 7)}\\nval_loss 0\\.9 by researcher-1 beats the org's best 1 ` +
          `\\(researcher-[12]\\)`,
      ),
    );

    const noise = submit(dir, "researcher-1", { "value.txt": "0.895\n" }, "a hair lower");
    expect(noise.stdout).toContain("discard: val_loss 0.8950 (mean of 3) -0.0050 < 2σ·√(1/3+1/3) (0.0163)");
    const budget = submit(dir, "researcher-2", { "value.txt": "0.5\n", "seconds.txt": "150\n" }, "train longer");
    expect(budget.stdout).toContain("discard: over budget: training_seconds 150 > max 100");
    expect(results().at(-1)!.slice(9)).toEqual([expect.stringMatching(/^[0-9a-f]{8}$/), "150", "2", "2"]);

    const board = runOrg(["results"], { cwd: dir }).stdout;
    expect(board).toContain("noise σ: 0.010000 (pooled over 12 repeated runs)");
    expect(board).toContain(
      `org best: val_loss 0.900000 by researcher-1 at ${kept.slice(0, 7)} · 10.0σ better than its baseline`,
    );

    const confirm = runOrg(["confirm", kept.slice(0, 7), "-n", "3"], { cwd: dir });
    expect(confirm.code).toBe(0);
    expect(confirm.stdout.trim().split("\n").slice(1)).toEqual([
      `${kept.slice(0, 7)} (researcher-1): val_loss 0.900000 ± 0.010000 over 3 runs`,
      "baseline 1.000000 ± 0.010000 (n=3) · +10.0σ vs baseline (σ 0.010000)",
    ]);
    expect(runOrg(["confirm", "nope"], { cwd: dir }).stderr.trim()).toBe(
      `org: "nope" is not a commit in ${dir} — name a commit from \`org results\``,
    );
  });

  test("a baseline that crashes: experiments are refused with the reason, nothing committed", async () => {
    org = createTestOrg({
      yaml: orgYaml,
      files: {
        "train.sh": "#!/bin/sh\necho 'data not found' >&2\nexit 2\n",
        "value.txt": "1.0\n",
        "seconds.txt": "50\n",
      },
    });
    const { dir } = org;
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const ledger = join(dir, "state", "agents", "researcher-1", "ledger.json");
    await pollUntil(
      () => {
        try {
          return JSON.parse(readFileSync(ledger, "utf8")).baselineCrash;
        } catch {
          return undefined;
        }
      },
      { what: "the crashed baseline", timeoutMs: 30_000 },
    );
    const worktree = join(dir, "worktrees", "researcher-1");
    const head = git(worktree, ["rev-parse", "HEAD"]).trim();
    const refused = submit(dir, "researcher-1", { "value.txt": "0.5\n" }, "anything");
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "org: your baseline crashed, so the base is broken: crash: no line matched /^val_loss:\\s*([0-9.]+)/; " +
        "exit code 2 — fix it, then `org down && org up` (nothing was committed)",
    );
    expect(git(worktree, ["rev-parse", "HEAD"]).trim()).toBe(head);
  });
});
