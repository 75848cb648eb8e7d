// One variant per kept change: the best with that change reverted; a revert that conflicts goes with its partner.
import type { KeptChange } from "./split-changes.js";

export type RevertOutcome = { kind: "clean"; commit: string } | { kind: "conflict"; files: string[] };

/** org's own git, on the verifier's store: never an agent's worktree. */
export interface RevertPort {
  /** The target with these changes reverted, newest first, as one commit; or the files the reverts conflict in. */
  revert(changes: readonly KeptChange[]): Promise<RevertOutcome>;
  /** The paths a change touched. */
  changedFiles(change: KeptChange): Promise<string[]>;
}

/** A variant: the target without `reverted` (commits, oldest first). */
export interface VariantPlan {
  reverted: string[];
  /** The variant's commit; none when no revert applied. */
  commit?: string;
  /** The change whose revert conflicted with the first one's, reverted with it. */
  entangled?: { with: string; files: string[] };
  /** Why no variant could be made. */
  skipped?: string;
}

/**
 * Reverts each change alone. One that conflicts is entangled with a later change that touched a conflicting file
 * (the nearest first): the pair is reverted together. When no pair applies, the change is reported, not measured.
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
    if (alone.kind === "clean") {
      add({ reverted: [change.commit], commit: alone.commit });
      continue;
    }
    add(await pairUp(change, changes.slice(index + 1), alone.files, port));
  }
  return plans;
}

async function pairUp(change: KeptChange, later: readonly KeptChange[], files: string[], port: RevertPort)
  : Promise<VariantPlan> {
  const where = files.length > 0 ? ` in ${files.join(", ")}` : "";
  for (const partner of later) {
    const touched = await port.changedFiles(partner);
    if (files.length > 0 && !touched.some((file) => files.includes(file))) continue;
    const pair = await port.revert([change, partner]);
    if (pair.kind === "clean") {
      const entangled = { with: partner.commit, files };
      return { reverted: [change.commit, partner.commit], commit: pair.commit, entangled };
    }
  }
  const skipped = `its revert conflicts${where}, and no later change reverted with it applies: not measured`;
  return { reverted: [change.commit], skipped };
}
