// Launch to first model request for each real CLI: started by `org up`, and started bare (the same argv and environment
// as org's launch.json, in a tmux pane of its own). Run by `node bench/run.mjs clients` through tsx; JSON on stdout.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LaunchSpec } from "../src/domain/state.js";
import { CLIENTS, createRealOrg, type Cli } from "../test/helpers/real-org.js";
import type { Script } from "../test/helpers/model-server/index.js";

const RUNS = Number(process.env.ORG_BENCH_CLIENT_RUNS ?? 3);
const CLIS: Cli[] = ["claude", "codex", "gemini", "opencode"];
const ready: Script = () => ({ kind: "text", text: "Ready." });

async function firstRequest(exchanges: { at: number; request: { tools: string[] } }[], since: number): Promise<number> {
  for (let waited = 0; waited < 120_000; waited += 20) {
    const first = exchanges.find((exchange) => exchange.request.tools.length > 0);
    if (first) return first.at - since;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("no request within 120 s");
}

function run(argv: string[], options: { cwd: string; env: Record<string, string> }): Promise<number | null> {
  return new Promise((resolve) => spawn(argv[0]!, argv.slice(1), { ...options, stdio: "ignore" }).on("close", resolve));
}

/** When a process started, from /proc (10 ms ticks): the CLI's own launch, whoever started it. */
function processStartMs(pid: number): number {
  const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))![1]);
  const ticks = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
  return bootSeconds * 1000 + ticks * 10;
}

interface Timing {
  /** From the CLI's process start to its first request. */
  launch: number;
  /** From the command a person types (`org up`, or tmux with the CLI) to the first request. */
  total: number;
}

/** `org up` of a fresh one-agent org. */
async function viaOrg(cli: Cli): Promise<Timing> {
  const org = await createRealOrg([{ role: "r", cli, kickoff: "Begin." }], ready);
  try {
    const start = Date.now();
    void org.up();
    const total = await firstRequest(org.server.exchanges, start);
    return { total, launch: start + total - processStartMs(org.status("r-1").pid!) };
  } finally {
    await org.close();
  }
}

/** The same CLI with org's argv and environment, cold: org prepared it with a stand-in program that exits at once. */
async function bare(cli: Cli): Promise<Timing> {
  const org = await createRealOrg([{ role: "r", cli, kickoff: "Begin." }], ready, "tmux", () => "/bin/true");
  try {
    await org.up();
    await org.org(["down"]);
    const spec = JSON.parse(readFileSync(join(org.state, "agents", "r-1", "launch.json"), "utf8")) as LaunchSpec;
    const argv = [join(CLIENTS, cli), ...spec.argv.slice(1)];
    const env = { ...process.env, ...org.env, ...spec.env, PATH: spec.env.PATH ?? "" } as Record<string, string>;
    const socket = `orgbench-${process.pid}-${cli}`;
    const start = Date.now();
    await run(
      [
        "tmux",
        "-L",
        socket,
        "-f",
        "/dev/null",
        "new-session",
        "-d",
        "-x",
        "200",
        "-y",
        "50",
        "-c",
        spec.cwd,
        "--",
        ...argv,
      ],
      { cwd: spec.cwd, env },
    );
    try {
      const total = await firstRequest(org.server.exchanges, start);
      const pid = Number(
        execFileSync("tmux", ["-L", socket, "list-panes", "-F", "#{pane_pid}"], { encoding: "utf8" }).trim(),
      );
      return { total, launch: start + total - processStartMs(pid) };
    } finally {
      await run(["tmux", "-L", socket, "kill-server"], { cwd: spec.cwd, env });
    }
  } finally {
    await org.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<string, unknown> = {};
for (const cli of CLIS) {
  const runs: { bare: Timing; org: Timing }[] = [];
  for (let index = 0; index < RUNS; index++) runs.push({ bare: await bare(cli), org: await viaOrg(cli) });
  const of = (side: "bare" | "org", key: keyof Timing) => median(runs.map((one) => one[side][key]));
  results[cli] = {
    runs,
    launch_to_request_ms: {
      bare: of("bare", "launch"),
      org: of("org", "launch"),
      org_adds: of("org", "launch") - of("bare", "launch"),
    },
    command_to_request_ms: {
      bare: of("bare", "total"),
      org: of("org", "total"),
      org_adds: of("org", "total") - of("bare", "total"),
    },
  };
  process.stderr.write(
    `clients: ${cli} launch → first request: bare ${of("bare", "launch")} ms, under org ${of("org", "launch")} ms; ` +
      `command → first request: tmux ${of("bare", "total")} ms, org up ${of("org", "total")} ms\n`,
  );
}
process.stdout.write(`${JSON.stringify(results)}\n`);
process.exit(0);
