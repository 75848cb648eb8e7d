import type { OrgRecord } from "../../org/state.js";
import { RefStamp } from "../../adapters/git/ref-stamp.js";
import { listRefs } from "../../adapters/git/refs.js";

export interface AgentHeads {
  heads: Map<string, string | null>;
  subjects: Map<string, string>;
}

/** Each agent's branch head and subject, read again only when the org's refs may have moved. */
export class AgentHeadsCache {
  // Idle, the org's branches rarely move: two stats per tick instead of a git process.
  private readonly refStamp;
  private heads: AgentHeads | undefined;

  constructor(
    private readonly record: OrgRecord,
    private readonly agents: ReadonlyMap<string, unknown>,
  ) {
    this.refStamp = new RefStamp(record.repo, `refs/heads/org/${record.name}`);
  }

  async read(): Promise<AgentHeads> {
    if (this.heads && !(await this.refStamp.mayHaveMoved())) return this.heads;
    this.heads = await this.list();
    return this.heads;
  }

  private async list(): Promise<AgentHeads> {
    const prefix = `refs/heads/org/${this.record.name}/`;
    const refs = await listRefs(this.record.repo, prefix, ["refname", "objectname", "subject"]);
    const heads = new Map<string, string | null>();
    const subjects = new Map<string, string>();
    for (const [ref, sha, subject] of refs) {
      const agent = ref!.slice(prefix.length);
      if (!this.agents.has(agent)) continue;
      heads.set(agent, sha!);
      subjects.set(agent, subject ?? "");
    }
    return { heads, subjects };
  }
}
