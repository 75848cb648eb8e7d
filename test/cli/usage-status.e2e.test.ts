import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { runOrg } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { bin, createTestOrg, teardownOrg, type TestOrg } from "../helpers/test-org/index.js";

const PRICE = { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 };
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  talker: { preset: claude, program: "${bin("claude-transcript")}" }
  printer: { command: ["${bin("print-env-sleep")}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: talker }
  helper: { prompt: prompts/researcher.md, runtime: printer }
pricing:
  "claude-opus-*":
    input: ${PRICE.input}
    output: ${PRICE.output}
    cache_read: ${PRICE.cache_read}
    cache_write: ${PRICE.cache_write}
`;
// The fixture transcript's three replies, as the scripted server sent them (test/fixtures/transcripts/README.md).
const SERVED = { input: 3021, output: 123, cacheRead: 903, cacheWrite: 150 };
const DOLLARS =
  (SERVED.input * PRICE.input +
    SERVED.output * PRICE.output +
    SERVED.cacheRead * PRICE.cache_read +
    SERVED.cacheWrite * PRICE.cache_write) /
  1e6;

let org: TestOrg | undefined;
afterEach(() => {
  teardownOrg(org);
  org = undefined;
});

interface StatusJson {
  agents: {
    name: string;
    usage: {
      input: number;
      output: number;
      cacheRead: number;
      cacheWrite: number;
      costUsd: number | null;
      priced: boolean;
      unknown?: string;
    } | null;
  }[];
}

describe("tokens and dollars in a running org", () => {
  test("the daemon reads each agent's transcript: org status shows " +
    "its tokens and dollars, org results its cost per keep", async () => {
    org = createTestOrg({ yaml: orgYaml });
    const { dir } = org;
    expect(runOrg(["up", "--no-attach"], { cwd: dir }).code).toBe(0);
    const status = await pollUntil(() => {
      const parsed = JSON.parse(runOrg(["status", "--json"], { cwd: dir }).stdout) as StatusJson;
      return parsed.agents.find((agent) => agent.name === "researcher-1")?.usage?.input ? parsed : undefined;
    }, { timeoutMs: 45_000, intervalMs: 500, what: "researcher-1's usage in org status --json" });
    const usage = status.agents.find((agent) => agent.name === "researcher-1")!.usage!;
    expect(usage).toEqual({ ...SERVED, costUsd: expect.closeTo(DOLLARS, 12), priced: true });
    expect(status.agents.find((agent) => agent.name === "helper-1")!.usage).toBeNull();
    const table = runOrg(["status"], { cwd: dir }).stdout;
    expect(table).toMatch(/TOKENS \$/);
    expect(table).toMatch(new RegExp(`^researcher-1 .* 4\\.20k \\$${DOLLARS.toFixed(2).replace(".", "\\.")}`, "m"));

    // One kept improvement judged after the transcript's replies: it cost all three.
    writeFileSync(join(dir, "state/results.tsv"), [
      "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime",
      "aaaaaaa\t1.000000\t0.0\tkeep\tbaseline\tresearcher-1\tcpu\t1.0\t2026-12-01T21:00:00.000Z",
      "bbbbbbb\t0.900000\t0.0\tkeep\tlr 2x\tresearcher-1\tcpu\t1.0\t2026-12-01T22:00:00.000Z",
      "",
    ].join("\n"));
    const results = runOrg(["results"], { cwd: dir }).stdout;
    expect(results).toContain(
      `  bbbbbbb researcher-1 val_bpb 0.900000: 4.20k tokens, $${DOLLARS.toFixed(2)} over 1 experiment`,
    );
    const json = JSON.parse(runOrg(["results", "--json"], { cwd: dir }).stdout) as {
      usage: { keeps: { usage: object }[] };
    };
    expect(json.usage.keeps[0]!.usage).toMatchObject({ ...SERVED, replies: 3 });
  }, 90_000);
});
