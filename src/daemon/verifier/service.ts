import type { OrgPaths } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import type { GpuProbe } from "../../domain/ports.js";
import { SlurmSchema, type JudgeConfig, type OrgConfig, type RuntimeConfig } from "../../domain/config/index.js";
import type { ChildRecords } from "../../adapters/child-records.js";
import type { ReadConfigResult } from "../../adapters/store/config-file.js";
import { createVerifierPort } from "../../adapters/verifier/port.js";
import { tracePort } from "../../adapters/trace.js";
import { findVerifySandbox } from "../../adapters/verifier/run-sandbox.js";
import { defineLoop } from "../loop-service.js";
import { VerifierHandle } from "./handle.js";
import type { Service } from "../services.js";
import { VerifierLoop } from "./loop.js";
import { prepareQueue, watchQueue } from "../../adapters/store/queue.js";
import { JournalStore } from "../../adapters/store/journal-store.js";

const VERIFY_MS = 2000;

/** The verifier as a service: it judges the queue every VERIFY_MS, and at once when a submit lands in it. */
export function defineVerifier(opts: {
  paths: OrgPaths;
  record: OrgRecord;
  children: ChildRecords;
  gpus: GpuProbe;
  readConfig: () => Promise<ReadConfigResult>;
  firstRead: () => Promise<ReadConfigResult>;
  say: (line: string) => void;
  /** Why no verify run may start now (the disk is below its floor), or undefined. */
  holdRuns?: () => Promise<string | undefined>;
}): { service: Service; queuePerAgent: () => number | undefined; judgedVerify: VerifierHandle["judgedVerify"] } {
  const { paths, say } = opts;
  // Held for the daemon's life: a reload's new loop keeps the chain the old one checked, not what the file says now.
  const journal = new JournalStore(paths.state);
  // A reload that changes the agents hands the verifier a new org: the handle swaps loops between runs.
  const verifier = new VerifierHandle(paths, (next, config) => {
    // Under Slurm a pool run is a job of its own; the GPU inventory it would check is the cluster's, not this host's.
    const slurmPool =
      next.pool && config.backend === "slurm"
        ? { org: next.name, settings: config.slurm ?? SlurmSchema.parse({}) }
        : undefined;
    // Decided once, at the loop's first run, as org up decided the agents' sandbox.
    let sandbox: ReturnType<typeof findVerifySandbox> | undefined;
    const port = tracePort(createVerifierPort({
      repo: next.repo, state: paths.state, baseCommit: next.baseCommit, say, messages: config.messages,
      backend: config.backend, children: opts.children, slurmPool,
      shares: config.share.map((entry) => (typeof entry === "string" ? { path: entry, mode: "link" as const } : entry)),
      sandbox: () => (sandbox ??= findVerifySandbox({ ...paths, repo: next.repo, sandbox: config.sandbox })),
      ...judgeOf(config),
    }), "verifier.port");
    return new VerifierLoop(next, config, port, say, opts.gpus, journal, opts.holdRuns);
  }, opts.readConfig, say);
  const service = defineLoop({
    name: "verifier",
    periodMs: VERIFY_MS,
    open: async () => {
      const read = await opts.firstRead();
      await verifier.begin(opts.record, "loaded" in read ? read.loaded.config : undefined);
      if ("problems" in read)
        say(`org.yaml has problems; the verifier is off until they are fixed:\n${read.problems.join("\n")}`);
      else if (!verifier.active) say("no verify section in org.yaml: experiments are not judged");
      await prepareQueue(paths.state);
    },
    wake: (wake) => watchQueue(paths.state, wake),
    tick: (now) => verifier.tick(now),
    fail: (error) => say(`verifier: ${error.message}`),
    close: () => verifier.stop(),
  });
  return { service, queuePerAgent: () => verifier.queuePerAgent, judgedVerify: (live) => verifier.judgedVerify(live) };
}

/** verify.judge and its runtime (normalizing made an entry for a bare preset), for the port's runJudge. */
function judgeOf(config: OrgConfig): { judge?: { config: JudgeConfig; runtime: RuntimeConfig } } {
  const judge = config.verify?.judge;
  const runtime = judge && config.runtimes[judge.runtime];
  return judge && runtime ? { judge: { config: judge, runtime } } : {};
}
