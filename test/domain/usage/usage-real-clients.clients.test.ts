import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { AgentUsageReader } from "../../../src/adapters/usage/agent.js";
import { parseLedger } from "../../../src/domain/usage/ledger.js";
import { usagePaths } from "../../../src/domain/usage/summary.js";
import type { UsageSummary } from "../../../src/domain/usage/summary.js";
import {
  reactions, startModelServer, type Exchange, type ModelServer, type Script,
} from "../../helpers/model-server/index.js";
import { PACKAGE_ROOT } from "../../helpers/org-cli.js";
import { killClient, runRealClient, type Preset } from "../../helpers/real-client-run.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";
import { makeLaunchSpec } from "../../helpers/launch-spec.js";

// Each real CLI, non-interactive, against the scripted server:
// org's counts must be the server's usage, reply for reply.
const MIND = reactions([{ when: /research/, commands: ["echo one", "echo two"], done: "All done." }]);
// A text before each tool call: Claude Code writes such a reply as two lines, which must count once.
const TALKATIVE: Script = (request) => {
  const move = MIND(request);
  return move.kind === "shell" ? { ...move, text: `Running ${move.command}` } : move;
};
// The conversation's requests offer tools; side requests (titles, Gemini's router) do not, and no CLI records them.
const conversation = (exchange: Exchange) => exchange.request.tools.length > 0;

beforeAll(() => {
  execFileSync(join(PACKAGE_ROOT, "scripts/install-clients.sh"), { stdio: "inherit", timeout: 300_000 });
}, 300_000);

describe("token usage read from what each real CLI records", () => {
  let dir: string;
  let server: ModelServer | undefined;
  let child: { pid?: number } | undefined;
  afterEach(async () => {
    // Nothing of ours left running: the CLI's whole process group goes, then the server.
    killClient(child);
    await server?.close();
    removeDir(dir);
  });

  /**
   * The CLI run to its end in a folder of its own, with `home` as its config folder, then read as the daemon reads it.
   */
  async function run(preset: Preset, script: Script) {
    dir = makeTempDir(`org-usage-${preset}-`);
    const home = join(dir, "state/agents/a-1/home");
    server = await startModelServer({ script });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(dir, "state/agents/a-1/launch.json"),
      JSON.stringify(makeLaunchSpec({ agent: "a-1", runtime: { preset, home } })),
    );
    const exit = await runRealClient(preset, {
      url: server.url,
      dir,
      home,
      prompt: "Please do research",
      track: (started) => (child = started),
    });
    expect(exit.output).toContain("All done.");
    await new AgentUsageReader(join(dir, "state"), "a-1").poll(new Date(), {});
    const paths = usagePaths(join(dir, "state"), "a-1");
    const summary = JSON.parse(readFileSync(paths.summary, "utf8")) as UsageSummary;
    const ledger = parseLedger(readFileSync(paths.ledger, "utf8"));
    const served = server.exchanges.filter(conversation).map((exchange) => exchange.usage);
    const counted = {
      input: summary.input,
      output: summary.output,
      cacheRead: summary.cacheRead,
      cacheWrite: summary.cacheWrite,
    };
    return {
      summary,
      counted,
      served,
      replies: ledger.map(({ input, output, cacheRead, cacheWrite }) => ({ input, output, cacheRead, cacheWrite })),
      server,
    };
  }

  test("Claude Code (claude -p): every request, each reply once though written as two lines", async () => {
    const result = await run("claude", TALKATIVE);
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage());
    expect(result.summary).toMatchObject({ cli: "Claude Code", replies: 3, costUsd: null, priced: false });
    expect(result.summary.unknown).toBeUndefined();
  }, 90_000);

  test("Codex (codex exec): every request, cached input taken out of input", async () => {
    const result = await run("codex", MIND);
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage());
    expect(result.summary).toMatchObject({ cli: "Codex", replies: 3, byModel: { "gpt-5": result.counted } });
  }, 90_000);

  test("Gemini CLI (gemini -p): the conversation's requests exactly; its router call is not recorded", async () => {
    const result = await run("gemini", MIND);
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage(conversation));
    const side = result.server.exchanges.filter((exchange) => !conversation(exchange) && exchange.usage);
    expect(side.map((exchange) => exchange.request.path)).toEqual([expect.stringMatching(/:generateContent$/)]);
  }, 90_000);

  test("opencode (opencode run): the conversation's requests exactly, " +
    "read from its SQLite file and WAL; its title call is not recorded", async () => {
    const result = await run("opencode", MIND);
    expect(result.served).toHaveLength(3);
    expect(result.replies).toEqual(result.served);
    expect(result.counted).toEqual(result.server.totalUsage(conversation));
    expect(result.server.exchanges.filter((exchange) => !conversation(exchange))).toHaveLength(1);
    expect(result.summary).toMatchObject({ cli: "opencode", byModel: { model: result.counted } });
    // opencode leaves its last writes in the WAL, not yet in the database file: read through both.
    expect(statSync(join(dir, "state/agents/a-1/home/opencode/opencode.db-wal")).size).toBeGreaterThan(0);
  }, 90_000);
});
