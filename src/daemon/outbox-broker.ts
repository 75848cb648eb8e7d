import { join } from "node:path";
import { agentPaths, type OrgPaths } from "../domain/paths.js";
import { decideOutboxRequest } from "../domain/sandbox/outbox-rules.js";
import type { OrgRecord } from "../domain/state.js";
import type { ChildTracker } from "../domain/ports.js";
import { watchDir } from "../adapters/fs/files.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";
import { pinnedGitEnv } from "../adapters/git/global-config.js";
import {
  checkOutboxCommand, closeOutboxRequest, refuseOutboxRequest, releaseOutboxShim, runOutboxCommand, stopOutboxCommand,
  takeOutboxRequests,
} from "../adapters/store/outbox.js";
import type { OutboxEntry } from "../adapters/store/outbox-entry.js";
import { createWarmWorkers } from "../adapters/store/outbox-warm.js";
import { isAlive } from "../adapters/process.js";
import { defineLoop } from "./loop-service.js";
import type { Service } from "./services.js";

/** A command the broker runs for an agent: its request, its process group and our copy of its file. */
interface Running {
  entry: OutboxEntry;
  agent: string;
  pid: number;
  ended: () => void;
  folder?: string;
}

// A watch on every outbox wakes the broker at once; this look
// catches what no watch reports (Slurm's shared filesystem).
const OUTBOX_MS = 1000;
// With every outbox watched on a local disk and no command running, the look is only a safety net: 64 idle agents
// cost 64 readdirs a second otherwise (and 6 a second at a 10 s look).
const WATCHED_OUTBOX_MS = 60_000;

/**
 * The daemon side of a sandboxed agent's `org`: each command an agent leaves in its outbox runs here, outside every
 * sandbox, as that agent (whose outbox it is decides, not its environment), at most OUTBOX_CAP at once for each, and is
 * stopped when the agent gives up on it: its `org` cancelled or gone (killed, or its pane ended).
 */
export function defineOutboxBroker(opts: {
  root: string;
  paths: OrgPaths;
  orgArgv: string[];
  children: ChildTracker;
  say: (line: string) => void;
}): Service {
  const running = new Map<string, Running>();
  const watched = new Map<string, () => void>();
  // Started once some agent has an outbox (it is sandboxed): an org without one never pays for an idle worker.
  const warm = createWarmWorkers(opts.orgArgv, opts.children);
  let wakeUp = () => {};
  const outboxOf = (agent: string) => join(agentPaths(opts.paths.state, agent).dir, "outbox");
  // org.json, read once a period: a wake-up for a new request goes straight to the outboxes.
  let known: { at: number; record: OrgRecord } | undefined;
  const readAgents = async (now: number) => {
    if (known && now - known.at < OUTBOX_MS) return known;
    const record = await readOptionalRecord(opts.root);
    if (!record) return undefined;
    watchOutboxes(record);
    return (known = { at: now, record });
  };
  const serve = async ({ record }: { record: OrgRecord }) => {
    for (const agent of record.agents) {
      for (const entry of await takeOutboxRequests(outboxOf(agent.name))) {
        // Live groups, not what the last look saw: a command just over leaves room for the next at once.
        const mine = [...running.values()].filter((command) => command.agent === agent.name && isAlive(-command.pid));
        const context = { org: record.name, root: opts.root, state: opts.paths.state, agent, running: mine.length };
        const decision = entry.problem
          ? { kind: "refuse" as const, reason: entry.problem }
          : decideOutboxRequest({ ...entry, file: entry.file !== undefined }, context);
        if (decision.kind === "refuse") {
          await refuseOutboxRequest(entry, decision.reason).catch(() => undefined);
          await closeOutboxRequest(entry, { files: false });
          continue;
        }
        // Its git reads the global config the daemon pinned, never a ~/.gitconfig the agent wrote since.
        const env = { ...decision.env, ...pinnedGitEnv() };
        const started = await runOutboxCommand(entry, [...opts.orgArgv, ...decision.args], {
          cwd: decision.cwd,
          env,
          children: opts.children,
          agent: agent.name,
          warm: { workers: warm, args: decision.args },
          ...(decision.file ? { file: decision.file } : {}),
        }).catch((error: Error) => {
          opts.say(`outbox: ${agent.name}: org ${entry.argv[0] ?? ""} did not start: ${error.message}`);
          return undefined;
        });
        if (started) running.set(entry.base, { entry, agent: agent.name, ...started });
        else await releaseOutboxShim(entry).finally(() => closeOutboxRequest(entry, { files: false }));
      }
    }
  };
  const settle = async () => {
    for (const [base, { entry, pid, ended, folder }] of running) {
      const state = await checkOutboxCommand(entry, pid);
      if (state === "running") continue;
      const files = state === "abandoned";
      const close = () => closeOutboxRequest(entry, { files, ...(folder ? { folder } : {}) }).finally(ended);
      // Its grace runs on its own: a loop that waited on it would leave new requests waiting too.
      if (state === "abandoned") void stopOutboxCommand(pid).finally(close);
      else void releaseOutboxShim(entry).finally(close);
      running.delete(base);
    }
  };
  // Agents added by a reload get their watch at the next look.
  const watchOutboxes = (record: OrgRecord) => {
    for (const agent of record.agents) {
      if (watched.has(agent.name)) continue;
      try {
        watched.set(agent.name, watchDir(outboxOf(agent.name), (name) => isOutboxEvent(name) && wakeUp()));
      } catch {
        // No outbox: the agent runs unsandboxed (or its folder is not made yet), and looks find what a watch would.
      }
    }
  };
  // Slurm's shared filesystem drops events; a running command is settled (its end, a cancel) by looking.
  const isQuiet = () => known !== undefined && known.record.backend !== "slurm" && running.size === 0
    && known.record.agents.every((agent) => watched.has(agent.name));
  return defineLoop({
    name: "outbox",
    periodMs: OUTBOX_MS,
    // A wake-up (a watch event) cuts this pause short like the period's sleep.
    pause: () => new Promise((resolve) => setTimeout(resolve, isQuiet() ? WATCHED_OUTBOX_MS : OUTBOX_MS).unref()),
    tick: async (now) => {
      const agents = await readAgents(now.getTime());
      if (agents) await serve(agents);
      await settle();
      if (watched.size > 0) warm.ensure();
    },
    wake: (wake) => {
      wakeUp = wake;
      // A reload that adds an agent rewrites org.json: its outbox is watched at once, not a quiet period later.
      let unwatchRecord = () => {};
      try {
        unwatchRecord = watchDir(opts.paths.state, (name) => {
          if (name !== undefined && name !== "org.json") return;
          known = undefined;
          wake();
        });
      } catch {
        // No state folder to watch: the period's look still reads org.json.
      }
      return () => {
        unwatchRecord();
        wakeUp = () => {};
      };
    },
    close: async () => {
      for (const unwatch of watched.values()) unwatch();
      await warm.close();
      // The commands go on (a submit waits for its verdict across a restart); only what watched them is let go.
      await Promise.all([...running.values()].map(({ entry }) => entry.live?.close().catch(() => undefined)));
    },
    fail: (error) => opts.say(`outbox: ${error.message}`),
  });
}

// A new request (.ready) or one given up (.cancel) wants the broker now; the shim's other files come before its .ready,
// and a command's output and status can wait for the period. A nameless event may be anything.
export function isOutboxEvent(name: string | undefined): boolean {
  return name === undefined || name.endsWith(".ready") || name.endsWith(".cancel");
}
