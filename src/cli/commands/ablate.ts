import { formatJson } from "../../domain/safe-text.js";
import { ablateCommit, type AblationView } from "../../flows/ablate-commit.js";
import { renderAblation } from "../../ui/ablation-table.js";
import type { Io } from "../io.js";

/** `org ablate [commit] [--json]`: starts (or resumes) the ablation, waits for its variants, prints the table. */
export async function runAblate(opts: { root: string; commit?: string; json: boolean }, io: Io): Promise<number> {
  const ablating = await ablateCommit(opts);
  let current: AblationView;
  if (ablating.tag === "measured") current = ablating.view;
  else {
    const { ablation } = ablating;
    const verb = ablating.resumed ? "resuming the ablation of" : "ablating";
    io.err(`${verb} ${ablating.target.slice(0, 7)}: ${ablation.changes.length} kept changes, `
      + `${ablation.variants.length} variants × ${ablation.repeats} seeds (${ablating.queued} queued now), `
      + "as experiments of org in the verifier's queue…");
    let told = -1;
    current = await ablating.waitForView((view) => {
      // Progress on stderr as each variant is measured.
      if (view.measured !== told) io.err(`measured ${view.measured} of ${view.rows.length} variants`);
      told = view.measured;
    });
  }
  io.out(opts.json ? formatJson(toJson(current)) : renderAblation(current, io.columns));
  return current.waiting > 0 || current.rows.some((row) => row.state === "cancelled") ? 1 : 0;
}

function toJson(view: AblationView) {
  const { ablation } = view;
  return {
    commit: ablation.commit, base: ablation.base, metric: ablation.metric, goal: ablation.goal, best: ablation.best,
    baseline: ablation.baseline ?? null, sigma: view.sigma ?? null, repeats: ablation.repeats,
    changes: ablation.changes,
    variants: view.rows, waterfall: view.waterfall ?? null,
  };
}
