import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../../helpers/org-cli.js";
import { pollUntil } from "../../helpers/poll.js";
import { bin, createTestOrg, teardownOrg, type TestOrg, tmux } from "../../helpers/test-org/index.js";

const SECRETS = {
  DECLARED_API_KEY: "sk-declared", MY_API_KEY: "sk-undeclared", PWN_TOKEN: "tok", SECRET_THING: "s3cr3t",
};

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

describe("secrets in org up's environment", () => {
  test("reach only the runtime that declares them: not other agents, "
    + "not verify runs, not the tmux server", async () => {
    org = createTestOrg({ yaml: (name) => `name: ${name}
gpus: none
runtimes:
  keyed:
    command: ["${bin("print-argv")}"]
    env: { PRINT_ARGV_FILE: "argv.jsonl", PRINT_ARGV_SLEEP: "1" }
    pass_env: [DECLARED_API_KEY]
  plain: { command: ["${bin("print-argv")}"], env: { PRINT_ARGV_FILE: "argv.jsonl", PRINT_ARGV_SLEEP: "1" } }
roles:
  keyed: { prompt: prompts/researcher.md, runtime: keyed }
  plain: { prompt: prompts/researcher.md, runtime: plain }
verify:
  command: ["${bin("print-argv")}"]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
` });
    const { dir, socket } = org;
    expect(runOrg(["up"], { cwd: dir, env: SECRETS }).code).toBe(0);
    const seen = (agent: string) => pollUntil(() => {
      const file = join(dir, "worktrees", agent, "argv.jsonl");
      // The first line once whole: the agent may be writing it as the poll reads.
      const [line, rest] = existsSync(file) ? readFileSync(file, "utf8").split("\n", 2) : [];
      return rest === undefined ? undefined : (JSON.parse(line!) as { env: Record<string, string | null> }).env;
    }, { what: `${agent}'s environment`, timeoutMs: 20_000 });
    expect(await seen("keyed-1")).toMatchObject({
      DECLARED_API_KEY: "sk-declared", MY_API_KEY: null, PWN_TOKEN: null, SECRET_THING: null,
    });
    expect(await seen("plain-1")).toMatchObject({
      DECLARED_API_KEY: null, MY_API_KEY: null, PWN_TOKEN: null, SECRET_THING: null,
    });
    const server = tmux(socket, ["show-environment", "-g"]).out;
    for (const name of Object.keys(SECRETS)) expect(server).not.toMatch(new RegExp(`^${name}=`, "m"));
    // Looked for in results.tsv, not with an `org results` process a look; then `org results --json` names it too.
    const results = join(dir, "state/results.tsv");
    await pollUntil(() => existsSync(results) && readFileSync(results, "utf8").includes("\tkeyed-1\t"), {
      what: "a verify run", timeoutMs: 30_000,
    });
    expect(runOrg(["results", "--json"], { cwd: dir }).stdout).toContain("keyed-1");
    const runs = join(dir, "state/runs");
    expect(existsSync(runs)).toBe(true);
    const logs = (await import("node:fs")).readdirSync(runs, { recursive: true }) as string[];
    const text = logs.filter((file) => file.endsWith(".log")).map((file) =>
      readFileSync(join(runs, file), "utf8")).join("");
    for (const value of Object.values(SECRETS)) expect(text).not.toContain(value);
  }, 90_000);
});
