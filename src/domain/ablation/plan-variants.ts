// One variant per kept change: the best with that change reverted; a revert that conflicts goes with its partner.
import type { KeptChange } from "./split-changes.js";

/** undone: the reverts leave the target as it is (later changes undid the change): nothing to measure. */
export type RevertOutcome =
  | { kind: "clean"; commit: string } | { kind: "conflict"; files: string[] } | { kind: "undone" };

/** org's own git, on the verifier's store: never an agent's worktree. */
export interface RevertPort {
  /** The target with these changes reverted, newest first, as one commit; or the files the reverts conflict in. */
  revert(changes: readonly KeptChange[]): Promise<RevertOutcome>;
  /** What a change did to each file it touched: the lines it removed and the lines it added. */
  readLines(change: KeptChange): Promise<ChangedLines[]>;
}

export interface ChangedLines {
  file: string;
  removed: string[];
  added: string[];
}

const UNDONE = "nothing of it is left in the best: later changes undid it";

/** A variant: the target without `reverted` (commits, oldest first). */
export interface VariantPlan {
  reverted: string[];
  /** The variant's commit; none when no revert applied. */
  commit?: string;
  /** The later changes the first one's revert conflicted with (in `files`), reverted with it. */
  entangled?: { with: string[]; files: string[] };
  /** Why no variant could be made. */
  skipped?: string;
}

/**
 * Reverts each change alone. One that conflicts is entangled with the later changes that touched a conflicting file
 * (the nearest first): they are reverted together. When no group applies, the change is reported, not measured.
 */
export async function planVariants(changes: readonly KeptChange[], port: RevertPort): Promise<VariantPlan[]> {
  const plans: VariantPlan[] = [];
  const made = new Set<string>();
  const add = (plan: VariantPlan) => {
    const key = plan.reverted.join(" ");
    if (made.has(key)) return;
    made.add(key);
    plans.push(plan);
  };
  for (const [index, change] of changes.entries()) {
    const alone = await port.revert([change]);
    if (alone.kind === "clean") add({ reverted: [change.commit], commit: alone.commit });
    else if (alone.kind === "undone") add({ reverted: [change.commit], skipped: UNDONE });
    else add(await pairUp(change, changes.slice(index + 1), alone.files, port));
  }
  return plans;
}

// The nearest later change that touched a conflicting file joins the group, until its reverts apply together: a
// constant rewritten by three keeps in turn comes back out only with all three.
async function pairUp(change: KeptChange, later: readonly KeptChange[], files: string[], port: RevertPort)
  : Promise<VariantPlan> {
  const where = files.length > 0 ? ` in ${files.join(", ")}` : "";
  const group: KeptChange[] = [change];
  let conflicting = files;
  for (;;) {
    const rest = later.filter((candidate) => !group.includes(candidate));
    const partner = await findPartner(rest, group, conflicting, port);
    if (!partner) break;
    group.push(partner);
    group.sort((a, b) => later.indexOf(a) - later.indexOf(b));
    const tried = await port.revert(group);
    const entangled = { with: group.slice(1).map((one) => one.commit), files };
    const reverted = group.map((one) => one.commit);
    if (tried.kind === "clean") return { reverted, commit: tried.commit, entangled };
    if (tried.kind === "undone") return { reverted, entangled, skipped: UNDONE };
    conflicting = tried.files;
  }
  const skipped = `its revert conflicts${where}, and no later changes reverted with it apply: not measured`;
  return { reverted: [change.commit], skipped };
}

// The later change that rewrote a line the group added (same file, the very line), else the nearest that touched a
// conflicting file: a file of constants is touched by every change, a line by the few that tuned it.
async function findPartner(candidates: readonly KeptChange[], group: readonly KeptChange[], files: string[],
  port: RevertPort): Promise<KeptChange | undefined> {
  const added = new Set<string>();
  for (const member of group) {
    for (const lines of await port.readLines(member)) {
      for (const line of lines.added) added.add(`${lines.file}\0${line}`);
    }
  }
  let touching: KeptChange | undefined;
  for (const candidate of candidates) {
    const lines = (await port.readLines(candidate)).filter((one) => files.length === 0 || files.includes(one.file));
    if (lines.some((one) => one.removed.some((line) => added.has(`${one.file}\0${line}`)))) return candidate;
    touching ??= lines.length > 0 ? candidate : undefined;
  }
  return touching;
}
