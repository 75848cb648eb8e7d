import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AgentUsageReader } from "../../../src/adapters/usage/agent.js";
import { formatHeader, formatRow } from "../../../src/domain/experiments/results-table.js";
import { parseLedger } from "../../../src/domain/usage/ledger.js";
import { usagePaths, type UsageSummary } from "../../../src/domain/usage/summary.js";
import {
  latestUserTurn, startModelServer, type Exchange, type ModelServer, type Script,
} from "../../helpers/model-server/index.js";
import { PACKAGE_ROOT, runOrgAsync } from "../../helpers/org-cli.js";
import { killClient, runRealClient, type Preset } from "../../helpers/real-client-run.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { makeLaunchSpec } from "../../helpers/launch-spec.js";

// Each real CLI run once, non-interactive, against the scripted server, in one org's state folder: what it records is
// read back as the daemon reads usage (org's counts must be the server's, reply for reply) and as `org traces
// --diverged` reads its transcript (each scripted expectation beside its verdict). One start per CLI for both.
const PRESETS: Preset[] = ["claude", "codex", "gemini", "opencode"];
const COMMITS: Record<Preset, string> = { claude: "aaaaaaa", codex: "bbbbbbb", gemini: "ccccccc", opencode: "ddddddd" };
const expectation = (preset: Preset) => `I expect ${preset} halving the learning rate to lower val_loss below 0.8.`;
const AFTER = "The loss went up; I will try a smaller change. All done.";
// The conversation's requests offer tools; side requests (titles, Gemini's router) do not, and no CLI records them.
const conversation = (exchange: Exchange) => exchange.request.tools.length > 0;

/**
 * Looks, states its expectation, submits with the stand-in at `org`, then says what it will do next: a text before
 * each tool call, which Claude Code writes as two lines that must count once.
 */
function scriptOf(preset: Preset, org: string): Script {
  const steps = [
    { text: "Let me look first.", command: "echo looking" },
    { text: expectation(preset), command: `${org} submit -m "halve lr"` },
  ];
  return (request) => {
    const latest = latestUserTurn(request.turns);
    if (!latest || request.tools.length === 0) return { kind: "text", text: "Research" };
    const step = steps[latest.toolResults.length];
    return step ? { kind: "shell", ...step } : { kind: "text", text: AFTER };
  };
}

beforeAll(() => {
  execFileSync(join(PACKAGE_ROOT, "scripts/install-clients.sh"), { stdio: "inherit", timeout: 300_000 });
}, 300_000);

describe("what each real CLI records: its token usage and its trace", () => {
  const root = makeTempDir("org-records-real-");
  const state = join(root, "state");
  const servers = new Map<Preset, ModelServer>();
  const outputs = new Map<Preset, string>();
  const children: { pid?: number }[] = [];
  afterAll(async () => {
    // Nothing of ours left running: each CLI's whole process group goes, then the servers.
    children.forEach(killClient);
    await Promise.all([...servers.values()].map((server) => server.close()));
    removeDir(root);
  });

  // The four CLIs side by side, each the agent `<preset>-1` of one org whose `org submit` is a stand-in that prints a
  // discard; the tests read what they left.
  beforeAll(async () => {
    const agents = PRESETS.map((preset) => ({
      name: `${preset}-1`, role: "researcher", runtime: preset, branch: `org/t/${preset}-1`,
      worktree: join(root, preset), gpu: null,
    }));
    mkdirSync(state, { recursive: true });
    writeFileSync(join(root, "org.yaml"), "name: t\n");
    const orgJson = {
      version: 1, name: "t", root, repo: root, base: "main", baseCommit: "0".repeat(40),
      socket: "none", session: "none", cpuMode: true, agents, upAt: new Date().toISOString(),
    };
    writeFileSync(join(state, "org.json"), JSON.stringify(orgJson));
    await Promise.all(PRESETS.map(async (preset) => {
      const dir = join(root, "runs", preset);
      const org = join(dir, "bin/org");
      mkdirSync(join(dir, "bin"), { recursive: true });
      const fakeOrg = `#!/bin/sh\necho 'submitted ${COMMITS[preset]} "halve lr"; waiting for the verifier…'\n` +
        "echo 'metric 0.910000 · your best 0.800000 (1234567) · delta +0.110000 · discard'\n" +
        "echo 'worse than your best'\n";
      writeFileSync(org, fakeOrg);
      chmodSync(org, 0o755);
      const home = join(state, "agents", `${preset}-1`, "home");
      mkdirSync(home, { recursive: true });
      const launch = makeLaunchSpec({ agent: `${preset}-1`, runtime: { preset, home } });
      writeFileSync(join(state, "agents", `${preset}-1`, "launch.json"), JSON.stringify(launch));
      const server = await startModelServer({ script: scriptOf(preset, org) });
      servers.set(preset, server);
      const track = (child: { pid?: number }) => children.push(child);
      const exit = await runRealClient(preset, { url: server.url, dir, home, prompt: "Please do research", track });
      outputs.set(preset, exit.output);
    }));
  }, 180_000);

  /** The CLI's records read as the daemon reads them, beside what the server served. */
  async function usageOf(preset: Preset) {
    expect(outputs.get(preset)).toContain(AFTER);
    const agent = `${preset}-1`;
    await new AgentUsageReader(state, agent).poll(new Date(), {});
    const paths = usagePaths(state, agent);
    const summary = JSON.parse(readFileSync(paths.summary, "utf8")) as UsageSummary;
    const ledger = parseLedger(readFileSync(paths.ledger, "utf8"));
    const server = servers.get(preset)!;
    const { input, output, cacheRead, cacheWrite } = summary;
    return {
      summary,
      counted: { input, output, cacheRead, cacheWrite },
      served: server.exchanges.filter(conversation).map((exchange) => exchange.usage),
      replies: ledger.map(({ input, output, cacheRead, cacheWrite }) => ({ input, output, cacheRead, cacheWrite })),
      server,
    };
  }

  test("Claude Code (claude -p): every request, each reply once though written as two lines", async () => {
    const result = await usageOf("claude");
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage());
    expect(result.summary).toMatchObject({ cli: "Claude Code", replies: 3, costUsd: null, priced: false });
    expect(result.summary.unknown).toBeUndefined();
  });

  test("Codex (codex exec): every request, cached input taken out of input", async () => {
    const result = await usageOf("codex");
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage());
    expect(result.summary).toMatchObject({ cli: "Codex", replies: 3, byModel: { "gpt-5": result.counted } });
  });

  test("Gemini CLI (gemini -p): the conversation's requests exactly; its router call is not recorded", async () => {
    const result = await usageOf("gemini");
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage(conversation));
    const side = result.server.exchanges.filter((exchange) => !conversation(exchange) && exchange.usage);
    expect(side.map((exchange) => exchange.request.path)).toEqual([expect.stringMatching(/:generateContent$/)]);
  });

  test("opencode (opencode run): the conversation's requests exactly, " +
    "read from its SQLite file and WAL; its title call is not recorded", async () => {
    const result = await usageOf("opencode");
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage(conversation));
    expect(result.server.exchanges.filter((exchange) => !conversation(exchange))).toHaveLength(1);
    expect(result.summary).toMatchObject({ cli: "opencode", byModel: { model: result.counted } });
    // opencode leaves its last writes in the WAL, not yet in the database file: read through both.
    expect(statSync(join(state, "agents/opencode-1/home/opencode/opencode.db-wal")).size).toBeGreaterThan(0);
  });

  test("org traces --diverged: each CLI's scripted expectation beside its discard, " +
    "with the command and what came next", async () => {
    const rows = PRESETS.map((preset) => formatRow({
      agent: `${preset}-1`, commit: COMMITS[preset].padEnd(40, "0"), status: "discard", metric: 0.91, memoryGb: 0,
      description: "halve lr", gpu: null, seconds: 3, time: new Date().toISOString(), program: "",
    }));
    writeFileSync(join(state, "results.tsv"), `${formatHeader("val_loss")}\n${rows.join("\n")}\n`);
    const json = await runOrgAsync(["-C", root, "traces", "--diverged", "--json"], { cwd: root });
    expect(json.stderr).toBe("");
    const traces = JSON.parse(json.stdout) as {
      result: { agent: string; status: string };
      expected?: string;
      unknown?: string;
      submit?: { message?: string; commit?: string };
      commands: string[];
      next?: { said?: string };
    }[];
    expect(traces.map((trace) => trace.result.agent).sort()).toEqual(PRESETS.map((preset) => `${preset}-1`));
    for (const trace of traces) {
      const preset = trace.result.agent.replace(/-1$/, "") as Preset;
      expect(trace).toMatchObject({
        result: { status: "discard" },
        expected: expectation(preset),
        submit: { message: "halve lr", commit: COMMITS[preset] },
        commands: ["echo looking", expect.stringMatching(/\/bin\/org submit -m "halve lr"$/)],
        next: { said: AFTER },
      });
      expect(trace.unknown).toBeUndefined();
    }
    const text = await runOrgAsync(["-C", root, "traces", "--diverged"], { cwd: root });
    for (const preset of PRESETS) expect(text.stdout).toContain(`  expected: ${expectation(preset)}`);
  }, 60_000);
});
