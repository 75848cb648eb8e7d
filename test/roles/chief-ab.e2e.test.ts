// A topology A/B run of built-ins: one independent researcher
// (A) against a built-in chief with two built-in juniors (B).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseFocus } from "../../src/roles/index.js";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../helpers/test-org/index.js";

const TRAIN =
  "const A = 1.0;\nconst B = 2.0;\nconst C = 3.0;\nconsole.log(`val_loss: ${((A - 3) ** 2 + (B - 1) ** 2 + (C - 2) " +
    "** 2).toFixed(6)}`);\n";
const VERIFY = `verify:
  command: [node, train.mjs]
  metric: { name: val_loss, pattern: '^val_loss:\\s*([0-9.]+)', goal: minimize }
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;
const head = (name: string) => `name: ${name}\nrepo: .\nbase: main\ngpus: none\n`;
const independent = (name: string) => `${head(name)}runtimes:
  hill: { builtin: hillclimb, restart: always }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: hill, edits: [train.mjs] }
${VERIFY}`;
const chiefAndJuniors = (name: string) => `${head(name)}runtimes:
  hill: { builtin: hillclimb, restart: always }
  boss: { builtin: chief, restart: always }
roles:
  chief: { prompt: prompts/researcher.md, runtime: boss, edits: [plan.md] }
  junior: { prompt: prompts/researcher.md, runtime: hill, count: 2, edits: [train.mjs], reports_to: chief }
${VERIFY}`;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("a built-in chief and juniors in an A/B run", () => {
  test("the chief tasks each junior with its own constant through org task, " +
    "and each junior's experiments work on it", async () => {
    org = createTestOrg({ yaml: independent, files: { "train.mjs": TRAIN } });
    const { dir, name } = org;
    const state = join(dir, "state");
    writeFileSync(join(dir, "other.yaml"), chiefAndJuniors(name));
    const up = runOrg(["up", "--no-attach", "--ab", "other.yaml"], { cwd: dir });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toMatch(/\(other\.yaml: b-chief-1, b-junior-1, b-junior-2\)/);

    const taskOf = (junior: string) => {
      const file = join(state, "agents", junior, "task.md");
      return existsSync(file) ? readFileSync(file, "utf8") : "";
    };
    const tasks = await pollUntil(() => {
      const both = ["b-junior-1", "b-junior-2"].map(taskOf);
      return both.every((task) => parseFocus(task).length === 1) ? both : undefined;
    }, { what: "both juniors tasked by the chief", timeoutMs: 60_000 });
    for (const task of tasks) expect(task).toMatch(/^from: b-chief-1$/m);
    expect(new Set(tasks.map((task) => parseFocus(task)[0])).size).toBe(2);

    // Each junior's ledger rows come to name the constant its task gives it (a re-plan may move it; then the new one).
    const ledger = () =>
      (existsSync(join(state, "tried.jsonl")) ? readFileSync(join(state, "tried.jsonl"), "utf8") : "")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { agent: string; description: string });
    await pollUntil(() => ["b-junior-1", "b-junior-2"].every((junior) => {
      const focus = parseFocus(taskOf(junior))[0]!;
      return ledger().some((entry) => entry.agent === junior && entry.description.startsWith(`${focus} `));
    }), { what: "a judged experiment of each junior on its focus", timeoutMs: 120_000 });
    expect(ledger().some((entry) => entry.agent === "b-chief-1")).toBe(false);

    const compare = runOrg(["compare", "--json"], { cwd: dir });
    expect(compare.code, compare.stderr).toBe(0);
    expect(JSON.parse(compare.stdout)).toMatchObject({
      a: { experiments: expect.any(Number) },
      b: { experiments: expect.any(Number) },
    });
  });
});
