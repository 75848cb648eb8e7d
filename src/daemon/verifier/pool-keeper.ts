import type { VerifierPort } from "../../domain/experiments/verifier-port.js";
import { poolSlots, type Served } from "../../domain/experiments/schedule.js";
import { formatLogEntry } from "../../domain/log-entry.js";
import type { GpuProbe } from "../../domain/ports.js";
import { checkGpuPresent } from "../../domain/lifecycle/select-gpus.js";

/**
 * The verifier's GPU pool (verify.gpus: pool) for the life of one loop: each agent's share of it since the
 * daemon started, for fair-share scheduling, and the GPUs that fell off the machine.
 */
export class PoolKeeper {
  private readonly served = new Map<string, Served>();
  private turns = 0;
  private readonly lost = new Set<number>();
  private checked = false;

  constructor(
    private readonly gpus: number[] | undefined,
    private readonly port: Pick<VerifierPort, "appendLog">,
    private readonly log: (line: string) => void,
    private readonly probe?: GpuProbe,
  ) {}

  /** pickNext's pool arguments: the slots left and each agent's share; none in own mode. */
  readSlots(cpuSlots: number): { pool?: string[]; served?: Map<string, Served> } {
    return this.gpus ? { pool: poolSlots(this.gpus, this.lost, cpuSlots), served: this.served } : {};
  }

  /** One run of `agent`'s started on the pool. */
  countStart(agent: string): void {
    this.served.set(agent, { runs: (this.served.get(agent)?.runs ?? 0) + 1, last: this.turns++ });
  }

  // org.json's pool is as `org up` found it: a GPU lost since would crash this daemon's first run on it.
  async checkOnce(): Promise<void> {
    if (this.checked || !this.probe || !this.gpus?.length) return;
    this.checked = true;
    const probed = await this.probe.probe();
    for (const gpu of this.gpus) {
      const presence = checkGpuPresent(gpu, probed);
      if (presence.kind === "gone") await this.dropGpu(gpu, presence.reason);
    }
  }

  /** A GPU gone from nvidia-smi leaves the pool for the life of this daemon; the queue goes on on the others. */
  async dropGpu(gpu: number, reason: string): Promise<void> {
    this.lost.add(gpu);
    const left = (this.gpus ?? []).filter((index) => !this.lost.has(index));
    const next = left.length > 0
      ? `runs go on on gpu ${left.join(", ")}`
      : "no GPU is left: runs wait until `org down && org up`";
    const body = `${reason}; ${next}`;
    this.log(`verifier: gpu ${gpu} left the pool: ${body}`);
    await this.port.appendLog(
      formatLogEntry({ date: new Date(), op: "pool", title: `gpu ${gpu} left the pool`, body }),
    );
  }
}
