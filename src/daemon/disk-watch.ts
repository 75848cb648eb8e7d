import { relative } from "node:path";
import { formatSize, type OrgConfig } from "../domain/config/index.js";
import { formatLogEntry } from "../domain/log-entry.js";
import { agentPaths, logPath, orgPaths } from "../domain/paths.js";
import type { ProcessPort, PanesPort } from "../domain/ports.js";
import {
  chooseFloor, judgeAgentDisk, judgeFloor, readDiskSettings, type AgentDiskUse,
} from "../domain/sandbox/disk-budget.js";
import { appendLines } from "../adapters/fs/files.js";
import { readDiskUse } from "../adapters/fs/disk-space.js";
import { measureTree } from "../adapters/fs/tree-size.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";
import { writeDiskRecord } from "../adapters/store/disk-state.js";
import { chooseNextDiskLook, DISK_LOOK_MS } from "../domain/sandbox/disk-cadence.js";
import { blockAgent } from "./disk-block.js";

// One statfs every second while the disk moves (disk-cadence.ts); the agents' folders are walked every
// sandbox.disk.every, or sooner when the disk fills fast.
// Per folder and sweep: a folder of more files is measured as at least what the walk found.
const MAX_ENTRIES = 200_000;
// A disk whose use moved less than this since the last walk is quiet: walked again only after IDLE_SWEEPS periods.
const QUIET_BYTES = 16 * 1024 ** 2;
const IDLE_SWEEPS = 10;

type ReadConfig = () => Promise<{ loaded: { config: OrgConfig } } | { problems: string[] }>;
type Settings = ReturnType<typeof readDiskSettings>;
type Disk = { free: number; used: number; total: number };
interface WatchOptions {
  root: string;
  readConfig: ReadConfig;
  tmux: PanesPort;
  processes: ProcessPort;
  say: (line: string) => void;
}

/**
 * The daemon's watch over the disk: what each agent has written in its worktree and its state folder (an agent over
 * sandbox.disk.per_agent is stopped and blocked), and the free space verify runs need (sandbox.disk.floor).
 */
export class DiskWatch {
  private readonly state: string;
  private uses: AgentDiskUse[] = [];
  private settings: Settings = readDiskSettings(undefined);
  private swept: { at: number; used: number; ms: number } | undefined;
  // The verifier and the watch's own loop may both ask for a sweep: one runs, the other waits for it.
  private sweeping: Promise<void> | undefined;
  private low: string | null = null;
  private look: { used: number | undefined; waitMs: number } = { used: undefined, waitMs: DISK_LOOK_MS };

  constructor(private readonly opts: WatchOptions) {
    this.state = orgPaths(opts.root).state;
  }

  async tick(now: Date): Promise<void> {
    const read = await this.opts.readConfig();
    // org.yaml with problems keeps the budgets it last had.
    if ("loaded" in read) this.settings = readDiskSettings(read.loaded.config);
    const disk = await readDiskUse(this.state);
    this.pace(disk);
    const due = this.isSweepDue(now, disk);
    if (due) await this.sweep(now, disk?.used ?? 0);
    await this.judgeFloor(disk, now, due);
  }

  /** How long the loop waits before the next tick: a second while the disk moves, up to a few while it is still. */
  nextTickMs(): number {
    return this.look.waitMs;
  }

  private pace(disk: Disk | undefined): void {
    if (!disk) return void (this.look = { used: undefined, waitMs: DISK_LOOK_MS });
    const floor = chooseFloor(this.settings.floor, disk.total);
    const look = { usedBefore: this.look.used, used: disk.used, free: disk.free, floor, waitedMs: this.look.waitMs };
    this.look = { used: disk.used, waitMs: chooseNextDiskLook(look) };
  }

  /** Asked before each verify run: why none may start now, or undefined. */
  async holdRuns(now = new Date()): Promise<string | undefined> {
    const disk = await readDiskUse(this.state);
    if (disk && this.isCrossing(disk)) await this.sweep(now, disk.used);
    await this.judgeFloor(disk, now, false);
    return this.low ?? undefined;
  }

  /**
   * No agent can have passed its budget unless the disk's use grew by its headroom, or something freed as much
   * meanwhile: an idle org's disk barely changes, so its folders are walked only every IDLE_SWEEPS periods.
   */
  private isSweepDue(now: Date, disk: Disk | undefined): boolean {
    if (!this.swept || !disk || this.isCrossing(disk)) return true;
    const headroom = Math.min(this.settings.perAgent, ...this.uses.map((use) => this.settings.perAgent - use.bytes));
    const grown = disk.used - this.swept.used;
    const elapsed = now.getTime() - this.swept.at;
    if (grown >= headroom || elapsed >= IDLE_SWEEPS * this.settings.everyMs) return true;
    return elapsed >= this.settings.everyMs && Math.abs(grown) >= QUIET_BYTES;
  }

  // The floor just crossed: what each agent wrote is measured now, so the message names who filled the disk.
  private isCrossing(disk: Disk): boolean {
    return disk.free < chooseFloor(this.settings.floor, disk.total) && this.low === null;
  }

  private sweep(now: Date, used: number): Promise<void> {
    this.sweeping ??= this.measureAll(now, used).finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async measureAll(now: Date, used: number): Promise<void> {
    const started = Date.now();
    const record = await readOptionalRecord(this.opts.root).catch(() => undefined);
    if (!record) return;
    const uses: AgentDiskUse[] = [];
    // One agent at a time: the walk's lstats never crowd the daemon's own file work.
    for (const agent of record.agents) {
      const use = await this.measureAgent(agent.name, agent.worktree);
      uses.push(use);
      const decision = judgeAgentDisk(use, this.settings.perAgent);
      if (decision.kind !== "over") continue;
      const { tmux, processes } = this.opts;
      const where = { state: this.state, record, tmux, processes, now };
      const stopped = await blockAgent(where, agent.name, decision.reason);
      if (stopped) this.opts.say(`${agent.name} blocked: ${decision.reason}`);
    }
    this.uses = uses;
    this.swept = { at: now.getTime(), used, ms: Date.now() - started };
  }

  private async measureAgent(agent: string, worktree: string): Promise<AgentDiskUse> {
    const dir = agentPaths(this.state, agent).dir;
    const tree = await measureTree(worktree, MAX_ENTRIES);
    const own = await measureTree(dir, MAX_ENTRIES);
    const places = [relative(this.opts.root, worktree) || worktree, relative(this.opts.root, dir)];
    const largest = tree.bytes >= own.bytes ? places[0]! : places[1]!;
    return { agent, bytes: tree.bytes + own.bytes, places, largest, partial: tree.partial || own.partial };
  }

  /** Says once when the floor is crossed either way, in log.md and the feed; writes disk.json on a change or sweep. */
  private async judgeFloor(disk: Disk | undefined, now: Date, swept: boolean): Promise<void> {
    // A disk that cannot be asked is no news either way.
    if (!disk) return;
    const { free } = disk;
    const floor = chooseFloor(this.settings.floor, disk.total);
    const decision = judgeFloor(free, floor, this.uses);
    const low = decision.kind === "low" ? decision.reason : null;
    const changed = (low === null) !== (this.low === null);
    this.low = low;
    if (changed) {
      const room = `${formatSize(free)} free on the disk of state/`;
      const body = low ?? `${room}, at or above sandbox.disk.floor (${formatSize(floor)}): verify runs start again`;
      const entry = formatLogEntry({ date: now, op: low ? "paused" : "resumed", title: "verifier", body });
      await appendLines(logPath(this.state), [entry]).catch(() => undefined);
      this.opts.say(`verifier ${low ? "paused" : "resumed"}: ${body}`);
    }
    if (!changed && !swept) return;
    const record = { at: now.toISOString(), free, floor, low, agents: this.uses, sweepMs: this.swept?.ms ?? null };
    await writeDiskRecord(this.state, record).catch(() => undefined);
  }
}
