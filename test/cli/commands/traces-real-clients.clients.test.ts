import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatHeader, formatRow } from "../../../src/domain/experiments/results-table.js";
import { latestUserTurn, startModelServer, type ModelServer, type Script } from "../../helpers/model-server/index.js";
import { PACKAGE_ROOT, runOrgAsync } from "../../helpers/org-cli.js";
import { killClient, runRealClient, type Preset } from "../../helpers/real-client-run.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { makeLaunchSpec } from "../../helpers/launch-spec.js";

// The four real CLIs, each scripted to state an expectation and then `org submit` (a stand-in that prints a discard),
// write their own transcripts; `org traces --diverged` must put each scripted expectation beside its verdict.
const PRESETS: Preset[] = ["claude", "codex", "gemini", "opencode"];
const COMMITS: Record<Preset, string> = { claude: "aaaaaaa", codex: "bbbbbbb", gemini: "ccccccc", opencode: "ddddddd" };
const expectation = (preset: Preset) => `I expect ${preset} halving the learning rate to lower val_loss below 0.8.`;
const AFTER = "The loss went up; I will try a smaller change. All done.";

/** Looks, states its expectation, submits with the stand-in at `org`, then says what it will do next. */
function scriptOf(preset: Preset, org: string): Script {
  const steps = [
    { text: "Let me look first.", command: "echo looking" },
    { text: expectation(preset), command: `${org} submit -m "halve lr"` },
  ];
  return (request) => {
    const latest = latestUserTurn(request.turns);
    // Side requests (titles, Gemini's router) offer no tools and are not the conversation.
    if (!latest || request.tools.length === 0) return { kind: "text", text: "Research" };
    const step = steps[latest.toolResults.length];
    return step ? { kind: "shell", ...step } : { kind: "text", text: AFTER };
  };
}

beforeAll(() => {
  execFileSync(join(PACKAGE_ROOT, "scripts/install-clients.sh"), { stdio: "inherit", timeout: 300_000 });
}, 300_000);

describe("org traces on what the real CLIs wrote", () => {
  const root = makeTempDir("org-traces-real-");
  const servers: ModelServer[] = [];
  const children: { pid?: number }[] = [];
  afterAll(async () => {
    children.forEach(killClient);
    await Promise.all(servers.map((server) => server.close()));
    removeDir(root);
  });

  test("--diverged: each CLI's scripted expectation beside its discard, " +
    "with the command and what came next", async () => {
    const state = join(root, "state");
    const agents = PRESETS.map((preset) => ({
      name: `${preset}-1`,
      role: "researcher",
      runtime: preset,
      branch: `org/t/${preset}-1`,
      worktree: join(root, preset),
      gpu: null,
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
      servers.push(server);
      const exit = await runRealClient(preset, {
        url: server.url,
        dir,
        home,
        prompt: "Please do research",
        track: (child) => children.push(child),
      });
      expect(exit.output).toContain(AFTER);
    }));
    const rows = PRESETS.map((preset) => formatRow({
      agent: `${preset}-1`, commit: COMMITS[preset].padEnd(40, "0"), status: "discard", metric: 0.91, memoryGb: 0,
      description: "halve lr",
      gpu: null, seconds: 3, time: new Date().toISOString(), program: "",
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
  }, 180_000);
});
