import { spawn, type ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { formatLogEntry } from "../org/log-entry.js";
import { agentPaths } from "../org/paths.js";
import type { AgentState, AgentStatus, LaunchSpec } from "../org/state.js";
import { decideAfterExit, explainSpawnError, parseLaunchSpec, type ProgramExit, type RestartHistory } from "../org/supervise.js";
import { appendLines, readJson, writeJsonAtomic } from "./files.js";

export interface SupervisorOptions {
  /** Absolute state directory holding agents/<agent>/launch.json. */
  state: string;
  agent: string;
  /** Where `[org]` lines go; defaults to stdout, which is the pane. */
  log?: (line: string) => void;
  /** Mirrors each state into the pane (a tmux pane option); its failures are ignored. */
  setPaneStatus?: (status: string) => Promise<void>;
}

const KILL_GRACE_MS = 3000;

/** Run one agent's program in this terminal, restarting it by policy, until SIGTERM or SIGHUP. Resolves to the exit status. */
export async function runSupervisor(opts: SupervisorOptions): Promise<number> {
  const log = opts.log ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const paths = agentPaths(opts.state, opts.agent);
  const spec = await loadLaunchSpec(paths.launch);
  if (typeof spec === "string") {
    log(`[org] ${opts.agent}: ${spec}`);
    return 1;
  }
  const stop = listenForStop();
  let status: AgentStatus = { agent: opts.agent, state: "starting", supervisorPid: process.pid, pid: null, startedAt: null,
    restarts: 0, consecutiveFailures: 0, lastExit: null, reason: "starting", updatedAt: new Date().toISOString() };
  let paneState: AgentState = "starting";
  const record: Recorder = {
    async update(patch) {
      status = { ...status, ...patch, updatedAt: new Date().toISOString() };
      await writeJsonAtomic(paths.status, status);
      // The pane label is cosmetic: a tmux hiccup must never stop the agent. `org up` already set "starting".
      if (patch.state !== paneState) await opts.setPaneStatus?.(patch.state).catch(() => undefined);
      paneState = patch.state;
    },
    append: (fields) => appendLines(paths.events, [JSON.stringify({ at: new Date().toISOString(), ...fields })]),
    print: (line) => log(`[org] ${opts.agent} ${line}`),
    // log.md is the org's timeline: restarts and give-ups belong there next to the verdicts.
    timeline: (op, reason) => appendLines(join(opts.state, "log.md"), [formatLogEntry({ date: new Date(), op, title: opts.agent, body: reason })]),
  };
  try {
    return await superviseProgram(spec, stop, record);
  } finally {
    stop.dispose();
  }
}

/** Every trace of a transition: status.json, events.jsonl and the pane. */
interface Recorder {
  update(patch: Partial<AgentStatus> & { state: AgentState }): Promise<void>;
  append(fields: Record<string, unknown>): Promise<void>;
  print(line: string): void;
  timeline(op: string, reason: string): Promise<void>;
}

async function superviseProgram(spec: LaunchSpec, stop: ReturnType<typeof listenForStop>, record: Recorder): Promise<number> {
  const program = spec.argv[0]!;
  let history: RestartHistory = { restarts: 0, consecutiveFailures: 0 };
  for (;;) {
    await record.update({ state: "starting", pid: null, startedAt: null, reason: `starting ${program}` });
    const run = startProgram(spec);
    const pid = run.child.pid ?? null;
    await record.append({ type: "start", pid, code: null, signal: null, durationMs: null });
    if (pid !== null) {
      await record.update({ state: "running", pid, startedAt: new Date(run.startedAt).toISOString(), reason: `running ${program}` });
      record.print(`started ${program} (pid ${pid})`);
    }
    const exit = (await Promise.race([run.exited, stop.stopped.then(() => null)])) ?? (await terminate(run));
    const lastExit = { code: exit.code, signal: exit.signal, at: new Date().toISOString() };
    const decision = decideAfterExit(spec, history, exit, Date.now());
    const reason = stop.signal ? `stopped by ${stop.signal}` : decision.reason;
    await record.append({ type: "exit", pid, code: exit.code, signal: exit.signal, durationMs: Date.now() - run.startedAt, reason });
    if (stop.signal) return await stopWith(record, stop.signal, lastExit);
    history = decision.history;
    const state = ({ restart: "restarting", "give-up": "failed", done: "stopped" } as const)[decision.kind];
    await record.update({ state, pid: null, lastExit, ...history, reason });
    if (decision.kind !== "done") await record.timeline(decision.kind === "restart" ? "restart" : "failed", reason);
    const hint = state === "failed" ? ` — see \`org logs ${spec.agent}\`` : "";
    record.print(`${state === "restarting" ? "" : `${state}: `}${reason}${hint}`);
    // After give-up or done, stay alive so the pane keeps showing why; `org down` ends us with SIGTERM.
    if (decision.kind !== "restart") return await stopWith(record, await stop.stopped, lastExit);
    await sleepUnlessStopped(decision.delayMs, stop.stopped);
    if (stop.signal) return await stopWith(record, stop.signal, lastExit);
  }
}

async function stopWith(record: Recorder, signal: string, lastExit: AgentStatus["lastExit"]): Promise<number> {
  await record.update({ state: "stopped", pid: null, lastExit, reason: `stopped by ${signal}` });
  record.print(`stopped by ${signal}`);
  return 0;
}

async function loadLaunchSpec(path: string): Promise<LaunchSpec | string> {
  const raw = await readJson(path).catch((error: Error) => error);
  if (raw === undefined) return `${path} not found — run \`org up\` to write it`;
  if (raw instanceof Error) return `cannot read ${path}: ${raw.message} — rerun \`org up\``;
  const spec = parseLaunchSpec(raw);
  return typeof spec === "string" ? `invalid ${path}: ${spec} — rerun \`org up\`` : spec;
}

// Inherited stdio and no `detached`: the program owns the pane's terminal and gets its Ctrl-C.
function startProgram(spec: LaunchSpec): { child: ChildProcess; startedAt: number; exited: Promise<ProgramExit> } {
  const startedAt = Date.now();
  const [file, ...args] = spec.argv;
  const child = spawn(file!, args, { cwd: spec.cwd, env: { ...process.env, ...spec.env }, stdio: "inherit" });
  const exited = new Promise<ProgramExit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal, startedAt }));
    child.once("error", (error) => void explainFailedStart(error, spec).then((why) => resolve({ ...why, signal: null, startedAt })));
  });
  return { child, startedAt, exited };
}

// Node reports a missing cwd as ENOENT of the program, so look at the cwd before blaming PATH.
async function explainFailedStart(error: NodeJS.ErrnoException, spec: LaunchSpec): Promise<{ code: number; error: string }> {
  const cwdExists = await stat(spec.cwd).then((info) => info.isDirectory(), () => false);
  return explainSpawnError({ code: error.code, message: error.message }, spec, cwdExists);
}

// Same process group as us, so only the program itself is signalled, never the group.
async function terminate(run: ReturnType<typeof startProgram>): Promise<ProgramExit> {
  run.child.kill("SIGTERM");
  const timer = setTimeout(() => run.child.kill("SIGKILL"), KILL_GRACE_MS);
  const exit = await run.exited;
  clearTimeout(timer);
  return exit;
}

/** `signal` is the first SIGTERM or SIGHUP received; `stopped` resolves to it. */
function listenForStop() {
  let resolveStop: (signal: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (resolveStop = resolve));
  const listener = { signal: null as string | null, stopped, dispose };
  const onStop = (signal: NodeJS.Signals) => resolveStop((listener.signal ??= signal));
  // Ctrl-C in the pane reaches us and the program; only the program should react to it.
  const ignore = () => undefined;
  process.on("SIGTERM", onStop).on("SIGHUP", onStop).on("SIGINT", ignore);
  // Signal listeners do not keep Node alive; this timer does, waking once every 24 days.
  const keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
  function dispose(): void {
    process.off("SIGTERM", onStop).off("SIGHUP", onStop).off("SIGINT", ignore);
    clearInterval(keepAlive);
  }
  return listener;
}

async function sleepUnlessStopped(ms: number, stopped: Promise<string>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, ms))), stopped]);
  clearTimeout(timer);
}
