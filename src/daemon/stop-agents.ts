import { readLaunchSpec } from "../domain/lifecycle/launch-file.js";
import { paneLaunch } from "../domain/lifecycle/supervise-step.js";
import { pickEnv } from "../domain/lifecycle/secrets.js";
import { isRefusedSandbox, readAgentSandbox } from "../adapters/store/agent-sandbox.js";
import { orgPaths } from "../domain/paths.js";
import type { PanesPort } from "../domain/ports.js";
import { chooseStartArgv } from "../domain/runtimes/launch.js";
import { readAgentStatus, writeAgentStatus } from "../domain/lifecycle/agent-status-file.js";
import type { AgentStatus } from "../domain/state.js";
import { describeStopped, isHeldByStop } from "../domain/experiments/stop-state.js";
import type { World } from "../domain/world.js";
import { processRunner } from "../adapters/process.js";
import { hasConversation } from "../adapters/probes/runtime.js";
import type { StopControl } from "./stop-watch.js";
import { noteRestart } from "./resume-kickoff-service.js";
import { readBestCommit, startAblation } from "../adapters/verifier/ablation-start.js";

// As `org down` and a reload's removal: SIGTERM to the program's group, this long to exit, then SIGKILL.
const STOP_GRACE_MS = 3000;
const REPORT_TIMEOUT_MS = 120_000;

/** The stop carried out on a grid (tmux or the pty host): panes stay, with their last screen, for a person to read. */
export function createStopControl(opts: { root: string; world: World; tmux: PanesPort }): StopControl {
  const { world, tmux } = opts;
  const state = orgPaths(opts.root).state;
  return {
    async stopAgents(record, reason) {
      const panes = await tmux.listPanes();
      const stopped: string[] = [];
      await Promise.all(record.agents.map(async (agent) => {
        const status = await readAgentStatus(world.files, state, agent.name);
        const pane = panes.find((candidate) => candidate.id === agent.paneId);
        const live = pane !== undefined && !pane.dead;
        if (!status || (!live && status.state !== "restarting")) return;
        // Marked first, so the supervisor finds a stopped agent behind the dead pane and restarts nothing.
        const at = world.now().toISOString();
        const next: AgentStatus = {
          ...status, state: "stopped", reason: describeStopped(reason), restartAt: null, updatedAt: at,
        };
        await writeAgentStatus(world.files, state, agent.name, next);
        if (live && world.processes.isAlive(-pane.pid)) await world.processes.killGroup(pane.pid, STOP_GRACE_MS);
        stopped.push(agent.name);
      }));
      return stopped.sort();
    },
    async resumeAgents(record) {
      const resumed: string[] = [];
      for (const agent of record.agents) {
        const status = await readAgentStatus(world.files, state, agent.name);
        if (!agent.paneId || !isHeldByStop(status)) continue;
        const spec = await readLaunchSpec(world.files, state, agent.name);
        if (!spec) continue;
        // As the supervisor's restart: a CLI resumes its conversation,
        // and secrets come from our environment, never a file.
        const start = spec.runtime
          ? chooseStartArgv(spec, await hasConversation(spec.runtime))
          : { argv: spec.argv, resumed: false };
        const sandbox = await readAgentSandbox(state, agent.name);
        if (isRefusedSandbox(sandbox)) {
          const at = world.now().toISOString();
          const failed = { ...status!, state: "failed" as const, reason: sandbox.refused, updatedAt: at };
          await writeAgentStatus(world.files, state, agent.name, failed);
          continue;
        }
        await noteRestart(state, spec, agent.paneId, start.resumed, world.now().getTime());
        const env = pickEnv(process.env, spec.passEnv ?? []);
        await tmux.respawnPane(agent.paneId, paneLaunch({ ...spec, argv: start.argv }, env, sandbox));
        resumed.push(agent.name);
      }
      return resumed;
    },
    async ablate(record, config, cancel) {
      // Held to the stop's budget: a GPU-hour or cost limit cancels queued experiments, so no ablation runs past it.
      if (cancel) return { skipped: "the stop's limit cancels queued experiments: no ablation runs past it" };
      try {
        const target = await readBestCommit(state);
        await startAblation({ record, config, target, now: world.now(), ready: async () => undefined });
        return { commit: target };
      } catch (error) {
        return { skipped: (error as Error).message };
      }
    },
    async writeReport() {
      // `org report` in its own process: the chart's renderer is heavy, and the daemon never loads it.
      const result = await processRunner.run([...world.orgArgv, "-C", opts.root, "report"], {
        timeoutMs: REPORT_TIMEOUT_MS,
      });
      if (result.exitCode === 0) return { path: `${state}/report.html` };
      const why = (
        result.stderr.trim() ||
        result.stdout.trim() ||
        result.spawnError ||
        `exit ${result.exitCode ?? result.signal}`
      )
        .split("\n")
        .pop()!;
      return { error: why };
    },
  };
}
