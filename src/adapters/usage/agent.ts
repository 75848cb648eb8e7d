import { join } from "node:path";
import { agentPaths } from "../../domain/paths.js";
import type { LaunchSpec } from "../../domain/state.js";
import { parseLaunchText } from "../../domain/lifecycle/launch-file.js";
import { usageFormatOf } from "../../domain/usage/usage-formats.js";
import { addToTally, emptyTally, takeNew, type UsageTally } from "../../domain/usage/ledger.js";
import type { Pricing } from "../../domain/usage/pricing.js";
import { buildSummary } from "../../domain/usage/summary.js";
import type { UsageRecord } from "../../domain/usage/token-counts.js";
import { cachedReadText } from "../fs/read-cache.js";
import { readJsonlUsage } from "./jsonl.js";
import { readOpencodeUsage } from "./opencode.js";
import { UsageStore, type UsageCursors } from "./store.js";

/**
 * One agent's usage as the daemon keeps it: what its CLI recorded since the last look, counted once, summed, priced.
 */
export class AgentUsageReader {
  private readonly store;
  private loaded: { seen: Set<string>; tally: UsageTally; cursors: UsageCursors } | undefined;
  private problems: string[] = [];
  private written = "";
  // launch.json changes only on up and reload: a stat each look, a read and parse only after a change.
  private readonly readLaunch = cachedReadText();
  private launch: { text: string; spec: LaunchSpec | undefined } | undefined;

  constructor(private readonly state: string, private readonly agent: string) {
    this.store = new UsageStore(state, agent);
  }

  private async readLaunchSpec(): Promise<LaunchSpec | undefined> {
    const text = await this.readLaunch(agentPaths(this.state, this.agent).launch).catch(() => undefined);
    if (text === undefined) return undefined;
    if (this.launch?.text !== text) this.launch = { text, spec: asSpec(parseLaunchText(text)) };
    return this.launch.spec;
  }

  /** One look: new replies into the ledger, usage.json rewritten when it changed; false: its CLI records none. */
  async poll(now: Date, pricing: Pricing): Promise<boolean> {
    const launch = await this.readLaunchSpec();
    // Not started yet by `org up`: nothing to say, not even unknown.
    if (!launch) return true;
    const format = usageFormatOf(launch.runtime?.preset);
    if (format.kind === "none" || !launch.runtime) {
      const none = format.kind === "none" ? format.why : "no config folder";
      await this.write(buildSummary({ cli: null, none, tally: emptyTally(), pricing, now }));
      return false;
    }
    if (!this.loaded) {
      const { records, cursors } = await this.store.load();
      this.loaded = {
        seen: new Set(records.map((record) => record.id)), tally: addToTally(emptyTally(), records), cursors,
      };
    }
    const { cursors } = this.loaded;
    const before = JSON.stringify(cursors);
    let records: UsageRecord[] = [];
    if (format.kind === "jsonl") {
      const { home } = launch.runtime;
      const read = await readJsonlUsage(join(home, format.dir), format, cursors.files, now.getTime(), home);
      ({ records, problems: this.problems } = read);
      cursors.files = read.cursors;
    } else {
      const { home } = launch.runtime;
      const read = await readOpencodeUsage(join(home, format.file), cursors.opencodeStamp, home);
      if (read.kind === "failed") this.problems = [read.problem];
      if (read.kind === "read") {
        records = read.records;
        cursors.opencodeStamp = read.stamp;
        this.problems = read.problem ? [read.problem] : [];
      }
    }
    const fresh = takeNew(records, this.loaded.seen);
    if (fresh.length > 0 || JSON.stringify(cursors) !== before) await this.store.save(fresh, cursors);
    this.loaded.tally = addToTally(this.loaded.tally, fresh);
    const [first, ...more] = this.problems;
    const unknown = first && `${first}${more.length > 0 ? ` (and ${more.length} more)` : ""}`;
    await this.write(buildSummary({ cli: format.cli, tally: this.loaded.tally, pricing, unknown, now }));
    return true;
  }

  // An idle agent's summary is not rewritten every look: only its content, not its time, decides.
  private async write(summary: ReturnType<typeof buildSummary>): Promise<void> {
    const { updatedAt: _at, ...content } = summary;
    const text = JSON.stringify(content);
    if (text === this.written) return;
    await this.store.writeSummary(summary);
    this.written = text;
  }
}

// A launch.json of another shape is no known CLI: its usage is not read until `org up` or a reload writes it again.
function asSpec(spec: LaunchSpec | string): LaunchSpec | undefined {
  return typeof spec === "string" ? undefined : spec;
}
