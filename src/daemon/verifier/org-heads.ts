import type { OrgRecord } from "../../domain/state.js";
import { RefStamp } from "../../adapters/git/ref-stamp.js";
import { listRefs } from "../../adapters/git/refs.js";

/** The org's branches as one listing: each agent's head and subject, and where `org/<name>/best` points. */
export interface OrgHeads {
  heads: Map<string, string | null>;
  subjects: Map<string, string>;
  best: string | undefined;
}

// A listing this young serves again: a plain commit counts only once it stood HEAD_SETTLE_MS, and the guard asks git
// itself where the best points when the listing disagrees with the journal.
const REUSE_MS = 1000;

/** The org's branch heads, listed again only when the ref folder may have changed. */
export class OrgHeadsReader {
  // Idle, the org's branches rarely move: two stats per tick instead of a git process.
  private readonly refStamp;
  private last: OrgHeads | undefined;
  private listedAt = -Infinity;

  constructor(private readonly record: OrgRecord, private readonly agents: ReadonlyMap<string, unknown>) {
    this.refStamp = new RefStamp(record.repo, `refs/heads/org/${record.name}`);
  }

  /** The heads; `fresh` false when they are the last listing's, reused (up to REUSE_MS old, and maybe moved since). */
  async read(now = Date.now()): Promise<OrgHeads & { fresh: boolean }> {
    if (this.last && now - this.listedAt < REUSE_MS) return { ...this.last, fresh: false };
    if (this.last && !(await this.refStamp.mayHaveMoved(now))) return { ...this.last, fresh: true };
    this.listedAt = now;
    this.last = await this.list();
    return { ...this.last, fresh: true };
  }

  /** The verifier moved the org best itself: a reused listing says so, and the guard asks git nothing of it. */
  noteBest(commit: string): void {
    if (this.last) this.last = { ...this.last, best: commit };
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
