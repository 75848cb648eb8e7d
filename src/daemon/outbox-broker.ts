import { join } from "node:path";
import { agentPaths, type OrgPaths } from "../org/paths.js";
import { decideOutboxRequest } from "../org/sandbox/outbox.js";
import type { OrgRecord } from "../org/state.js";
import type { ChildTracker } from "../org/ports.js";
import { watchDir } from "../adapters/fs/files.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";
import { pinnedGitEnv } from "../adapters/git/global-config.js";
import {
  checkOutboxCommand, refuseOutboxRequest, runOutboxCommand, stopOutboxCommand, takeOutboxRequests, type OutboxEntry,
} from "../adapters/store/outbox.js";
import { defineLoop } from "./loop-service.js";
import type { Service } from "./services.js";

// A watch on every outbox wakes the broker at once; this look catches what no watch reports (Slurm's shared filesystem).
const OUTBOX_MS = 1000;

/**
 * The daemon side of a sandboxed agent's `org`: each command an agent leaves in its outbox runs here, outside every
 * sandbox, as that agent (whose outbox it is decides, not its environment), and is stopped when the agent gives up on it.
 */
export function defineOutboxBroker(opts: { root: string; paths: OrgPaths; orgArgv: string[]; children: ChildTracker; say: (line: string) => void }): Service {
  const running = new Map<string, { entry: OutboxEntry; pid: number; ended: () => void }>();
  const watched = new Map<string, () => void>();
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
        const decision = decideOutboxRequest(entry, { org: record.name, root: opts.root, state: opts.paths.state, agent });
        if (decision.kind === "refuse") {
          await refuseOutboxRequest(entry, decision.reason).catch(() => undefined);
          continue;
        }
        // Its git reads the global config the daemon pinned, never a ~/.gitconfig the agent wrote since.
        const env = { ...decision.env, ...pinnedGitEnv() };
        const argv = [...opts.orgArgv, ...decision.args];
        const started = await runOutboxCommand(entry, argv, { cwd: decision.cwd, env, children: opts.children, agent: agent.name }).catch((error: Error) => {
          opts.say(`outbox: ${agent.name}: org ${entry.argv[0] ?? ""} did not start: ${error.message}`);
          return undefined;
        });
        if (started) running.set(entry.base, { entry, ...started });
      }
    }
  };
  const settle = async () => {
    for (const [base, { entry, pid, ended }] of running) {
      const state = await checkOutboxCommand(entry);
      if (state === "running") continue;
      // Its grace runs on its own: a loop that waited on it would leave new requests waiting too.
      if (state === "abandoned") void stopOutboxCommand(pid).finally(ended);
      else ended();
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
  return defineLoop({
    name: "outbox",
    periodMs: OUTBOX_MS,
    tick: async (now) => {
      const agents = await readAgents(now.getTime());
      if (agents) await serve(agents);
      await settle();
    },
    wake: (wake) => {
      wakeUp = wake;
      return () => (wakeUp = () => {});
    },
    close: async () => {
      for (const unwatch of watched.values()) unwatch();
    },
    fail: (error) => opts.say(`outbox: ${error.message}`),
  });
}

// A new request (.ready) or one given up (.cancel) wants the broker now; the shim's other files come before its .ready,
// and a command's output and status can wait for the period. A nameless event may be anything.
export function isOutboxEvent(name: string | undefined): boolean {
  return name === undefined || name.endsWith(".ready") || name.endsWith(".cancel");
}
