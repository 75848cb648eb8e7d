import { OrgError } from "../../domain/errors.js";
import { orgPaths, verifierStorePaths } from "../../domain/paths.js";
import { formatJson } from "../../domain/safe-text.js";
import { assertDaemonAlive } from "../../adapters/daemon-client.js";
import { resolveCommit } from "../../adapters/git/run.js";
import { readAblation } from "../../adapters/store/ablation.js";
import { assertOrgState, readRecord } from "../../adapters/store/org-record.js";
import { loadConfigOrThrow } from "../../adapters/store/run-config.js";
import { readBestCommit, startAblation } from "../../adapters/verifier/ablation-start.js";
import { readAblationView, type AblationView } from "../../adapters/verifier/ablation-view.js";
import { renderAblation } from "../../ui/ablation-table.js";
import type { Io } from "../io.js";

const NOT_RUNNING = "the org is not running — start it with `org up` (or `org up --resume`), then run "
  + "`org ablate` again; nothing was queued";
const GONE_DOWN = "the org went down before every variant was measured — `org up --resume`, then `org ablate` resumes"
  + " where it was (a variant measured is never measured again)";
const POLL_MS = 1000;

/** `org ablate [commit] [--json]`: starts (or resumes) the ablation, waits for its variants, prints the table. */
export async function runAblate(opts: { root: string; commit?: string; json: boolean }, io: Io): Promise<number> {
  await assertOrgState(opts.root);
  const record = await readRecord(opts.root);
  const config = await loadConfigOrThrow(opts.root);
  const { state, daemon } = orgPaths(opts.root);
  const target = opts.commit === undefined ? await readBestCommit(state)
    : await resolveTarget(record.repo, state, opts.commit);
  const agents = record.agents.map((agent) => agent.name);
  const view = (ablation: Parameters<typeof readAblationView>[0]["ablation"]) =>
    readAblationView({ root: opts.root, keep: config.verify?.keep, agents, ablation });
  const done = await readAblation(state, target);
  // Measured whole already: the table needs no running org.
  let current = done && isSettled(await view(done)) ? await view(done) : undefined;
  if (!current) {
    const ready = () => assertDaemonAlive(daemon, NOT_RUNNING, { outcome: "nothing was queued" }).then(() => undefined);
    const started = await startAblation({ record, config, target, now: new Date(), ready });
    const ablation = started.record;
    const verb = started.resumed ? "resuming the ablation of" : "ablating";
    io.err(`${verb} ${target.slice(0, 7)}: ${ablation.changes.length} kept changes, `
      + `${ablation.variants.length} variants × ${ablation.repeats} seeds (${started.queued} queued now), `
      + "as experiments of org in the verifier's queue…");
    current = await waitForVariants(() => view(ablation), daemon, io);
  }
  io.out(opts.json ? formatJson(toJson(current)) : renderAblation(current, io.columns));
  return current.waiting > 0 || current.rows.some((row) => row.state === "cancelled") ? 1 : 0;
}

function isSettled(view: AblationView): boolean {
  return view.rows.every((row) => row.state !== "pending" && row.state !== "cancelled");
}

// The name as the verifier's store knows it first (a variant or a stack lives there), then as the research repo does.
async function resolveTarget(repo: string, state: string, name: string): Promise<string> {
  const commit = (await resolveCommit(verifierStorePaths(state).repo, name)) ?? (await resolveCommit(repo, name));
  if (commit) return commit;
  const fix = "name a kept commit from `org lineage`, or none for the org best; nothing was queued";
  throw new OrgError(`"${name}" is not a commit in ${repo} — ${fix}`, "no-commit");
}

/** Progress on stderr as each variant is measured; the org stopping (or a request gone) ends the wait. */
async function waitForVariants(read: () => Promise<AblationView>, daemon: string, io: Io): Promise<AblationView> {
  let told = -1;
  for (;;) {
    const view = await read();
    if (view.measured !== told) io.err(`measured ${view.measured} of ${view.rows.length} variants`);
    told = view.measured;
    if (view.waiting === 0) return view;
    await assertDaemonAlive(daemon, GONE_DOWN, { outcome: "the variants stay queued" });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
