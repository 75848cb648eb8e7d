import type { OrgRecord } from "../../domain/state.js";
import { RefStamp } from "../../adapters/git/ref-stamp.js";
import { listRefs } from "../../adapters/git/refs.js";

/** The org's branches as one listing: each agent's head and subject, and where `org/<name>/best` points. */
export interface OrgHeads {
  heads: Map<string, string | null>;
  subjects: Map<string, string>;
  best: string | undefined;
}

/** The org's branch heads, listed again only when the ref folder may have changed. */
export class OrgHeadsReader {
  // Idle, the org's branches rarely move: two stats per tick instead of a git process.
  private readonly refStamp;
  private last: OrgHeads | undefined;

  constructor(private readonly record: OrgRecord, private readonly agents: ReadonlyMap<string, unknown>) {
    this.refStamp = new RefStamp(record.repo, `refs/heads/org/${record.name}`);
  }

  async read(): Promise<OrgHeads> {
    if (this.last && !(await this.refStamp.mayHaveMoved())) return this.last;
    this.last = await this.list();
    return this.last;
  }

  private async list(): Promise<OrgHeads> {
    const prefix = `refs/heads/org/${this.record.name}/`;
    const refs = await listRefs(this.record.repo, prefix, ["refname", "objectname", "subject"]);
    const heads = new Map<string, string | null>();
    const subjects = new Map<string, string>();
    let best: string | undefined;
    for (const [ref, sha, subject] of refs) {
      const name = ref!.slice(prefix.length);
      if (name === "best") best = sha;
      if (!this.agents.has(name)) continue;
      heads.set(name, sha!);
      subjects.set(name, subject ?? "");
    }
    return { heads, subjects, best };
  }
}
