import type { OrgConfig } from "../domain/config/index.js";
import { orgPaths } from "../domain/paths.js";
import type { Pricing } from "../domain/usage/pricing.js";
import { AgentUsageReader } from "../adapters/usage/agent.js";
import { readOptionalRecord } from "../adapters/store/org-record.js";

// New replies show in `org status` within this long; each look reads only what the CLIs appended since the last.
export const USAGE_EVERY_MS = 10_000;
// An agent whose CLI records no usage (a generic program) is looked at this seldom: only a reload can change that.
const NO_USAGE_EVERY_MS = 60_000;

type ReadConfig = () => Promise<{ loaded: { config: OrgConfig } } | { problems: string[] }>;

/** The daemon's reading of every agent's token usage into state/agents/<agent>/usage.json and usage.jsonl. */
export class UsagePoller {
  private readonly readers = new Map<string, AgentUsageReader>();
  private readonly reported = new Set<string>();
  /** By agent: when an agent whose CLI records no usage is next looked at. */
  private readonly quietUntil = new Map<string, number>();
  private pricing: Pricing = {};

  constructor(private readonly opts: { root: string; readConfig: ReadConfig; say: (line: string) => void }) {}

  /** One look, run by the daemon's loop every USAGE_EVERY_MS: a failure is said, never thrown. */
  async tick(now: Date): Promise<void> {
    await this.work(now).catch((error: Error) => this.opts.say(`usage: ${error.message}`));
  }

  private async work(now: Date): Promise<void> {
    const paths = orgPaths(this.opts.root);
    const record = await readOptionalRecord(paths.root).catch(() => undefined);
    const read = await this.opts.readConfig().catch(() => undefined);
    // An org.yaml with problems keeps the last good prices rather than dropping every cost to unpriced.
    if (read && "loaded" in read) this.pricing = read.loaded.config.pricing ?? {};
    for (const agent of record?.agents ?? []) {
      if ((this.quietUntil.get(agent.name) ?? 0) > now.getTime()) continue;
      let reader = this.readers.get(agent.name);
      if (!reader) this.readers.set(agent.name, (reader = new AgentUsageReader(paths.state, agent.name)));
      // Reading usage must never take the daemon down: a failure is said once per agent and kind, then retried quietly.
      const records = await reader.poll(now, this.pricing).catch((error: Error) => {
        const key = `${agent.name}: ${error.message}`;
        if (!this.reported.has(key)) this.opts.say(`usage: ${key}`);
        this.reported.add(key);
        return true;
      });
      if (!records) this.quietUntil.set(agent.name, now.getTime() + NO_USAGE_EVERY_MS);
    }
  }
}
