import { sbatchArgv, slurmPaneArgv } from "../../domain/slurm/job-argv.js";
import { decideAgentJob, isRequeueHold, jobsByAgent } from "../../domain/slurm/decide-job.js";
import { describeJob, describeMove } from "../../domain/slurm/job.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import { slurmAgentPaths } from "../../domain/slurm/slurm-paths.js";
import { filesPort } from "../fs/files-port.js";
import {
  loadJobRequest, readJobRecord, writeJobRecord, type SlurmJobRecord,
} from "../../domain/slurm/slurm-job-file.js";
import { isRefusedSandbox, readAgentSandbox } from "../store/agent-sandbox.js";
import { runInteractive } from "../process.js";
import type { SlurmPort } from "./slurm.js";

export interface AttachOptions {
  state: string;
  agent: string;
  /** Run the program's resume argv (the supervisor found a conversation to resume) rather than its start. */
  resume?: boolean;
  slurm: SlurmPort;
  log: (line: string) => void;
  /** log.md: an entry when the agent's job ended and was resubmitted, or runs on another node than it last did. */
  appendLog?: (entry: string) => Promise<void>;
  /** Mirrors "pending (Resources)" etc. on the pane border. */
  setStatus?: (status: string) => Promise<void>;
  pollMs?: number;
  /** Runs the srun step on this terminal; returns its exit code. */
  interactive?: (argv: string[], env: Record<string, string>) => Promise<number>;
}

/**
 * `org slurm-run`: find this agent's job (adopt it, or submit/resubmit one), show why it waits, and once it
 * runs, run the agent as an `srun --overlap --pty` step on this terminal. Resolves to the exit code.
 */
export async function attachAgentJob(opts: AttachOptions): Promise<number> {
  const paths = slurmAgentPaths(opts.state, opts.agent);
  const request = await loadJobRequest(filesPort, opts.state, opts.agent);
  if (typeof request === "string") return fail(opts, request);
  const launch = opts.resume && request.resume ? { ...request.launch, argv: request.resume } : request.launch;
  // The job this agent last ran in, on which node: a node gone down shows as a move once the agent runs elsewhere.
  const previous = (await readJobRecord(filesPort, opts.state, opts.agent))?.job;
  const submitted = new Set<string>();
  const released = new Set<string>();
  let shown = "";
  // A listing (shared by the org's panes) taken before our sbatch lacks its job: it must not make us submit again.
  let submittedAt = 0;
  for (;;) {
    const listed = await opts.slurm.listJobs({ since: submittedAt });
    if (!listed.ok) return fail(opts, listed.error);
    const decision = decideAgentJob(jobsByAgent(listed.value, request.org).get(opts.agent) ?? []);
    if (decision.kind === "submit" || decision.kind === "resubmit") {
      // A job this very process submitted ended before it ran: stop, and let the supervisor's backoff decide.
      if (decision.kind === "resubmit" && submitted.has(decision.after.id)) {
        return fail(opts, `${decision.reason} before it ran; see ${paths.output}`);
      }
      submittedAt = Date.now();
      const id = await opts.slurm.submit(sbatchArgv(request));
      if (!id.ok) return fail(opts, id.error);
      submitted.add(id.value);
      opts.log(`org: ${decision.reason}: submitted job ${id.value}`);
      // A job that ended under the agent (time limit, node failure, a cancel from outside) is news for log.md.
      if (decision.kind === "resubmit") {
        const body = `${decision.reason}: submitted job ${id.value}`;
        const title = `${opts.agent} resubmitted`;
        await opts.appendLog?.(formatLogEntry({ date: new Date(), op: "slurm", title, body }));
      }
    } else if (decision.kind === "adopt") {
      if (decision.cancel.length > 0) await opts.slurm.cancel(decision.cancel);
      const { job } = decision;
      const status = describeJob(job);
      if (status !== shown) {
        shown = status;
        const record: SlurmJobRecord = { id: job.id, status, job, updatedAt: new Date().toISOString() };
        await writeJobRecord(filesPort, opts.state, opts.agent, record);
        opts.log(`org: job ${job.id} ${status}`);
        await opts.setStatus?.(status);
      }
      if (isRequeueHold(previous, job) && !released.has(job.id)) {
        released.add(job.id);
        const started = await opts.slurm.startNow(job.id);
        const node = previous?.kind === "running" ? previous.node : "its node";
        const outcome = started.ok ? "released Slurm's requeue delay" : started.error;
        opts.log(`org: job ${job.id} was requeued off ${node}: ${outcome}`);
      }
      if (job.kind === "running") {
        const move = describeMove(opts.agent, previous, job);
        if (move) await opts.appendLog?.(formatLogEntry({ date: new Date(), op: "slurm", ...move }));
        const run = opts.interactive ?? runInteractive;
        const sandbox = await readAgentSandbox(opts.state, opts.agent);
        if (isRefusedSandbox(sandbox)) return fail(opts, sandbox.refused);
        return run(slurmPaneArgv(job.id, launch, sandbox), launch.env);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, opts.pollMs ?? 1000));
  }
}

function fail(opts: AttachOptions, message: string): number {
  opts.log(`org: ${message}`);
  return 1;
}
