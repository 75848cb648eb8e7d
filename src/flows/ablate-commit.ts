import { OrgError } from "../domain/errors.js";
import type { AblationRecord } from "../domain/ablation/index.js";
import { orgPaths, verifierStorePaths } from "../domain/paths.js";
import { assertDaemonAlive } from "../adapters/daemon-client.js";
import { resolveCommit } from "../adapters/git/run.js";
import { readAblation } from "../adapters/store/ablation.js";
import { assertOrgState, readRecord } from "../adapters/store/org-record.js";
import { loadConfigOrThrow } from "../adapters/store/run-config.js";
import { readBestCommit, startAblation } from "../adapters/verifier/ablation-start.js";
import { readAblationView, type AblationView } from "../adapters/verifier/ablation-view.js";

export type { AblationView };

const NOT_RUNNING = "the org is not running — start it with `org up` (or `org up --resume`), then run "
  + "`org ablate` again; nothing was queued";
const GONE_DOWN = "the org went down before every variant was measured — `org up --resume`, then `org ablate` resumes"
  + " where it was (a variant measured is never measured again)";
const POLL_MS = 1000;

/** An ablation measured whole already, or one in the verifier's queue that `waitForView` follows to its end. */
export type Ablating =
  | { tag: "measured"; view: AblationView }
  | {
    tag: "queued"; target: string; resumed: boolean; queued: number; ablation: AblationRecord;
    /** Calls `onRead` with each view read; the org stopping (or a request gone) ends the wait. */
    waitForView(onRead: (view: AblationView) => void): Promise<AblationView>;
  };

/** `org ablate`: starts (or resumes) the ablation of a kept commit (default: the org best) as experiments of org. */
export async function ablateCommit(input: { root: string; commit?: string }): Promise<Ablating> {
  await assertOrgState(input.root);
  const record = await readRecord(input.root);
  const config = await loadConfigOrThrow(input.root);
  const { state, daemon } = orgPaths(input.root);
  const target = input.commit === undefined ? await readBestCommit(state)
    : await resolveTarget(record.repo, state, input.commit);
  const agents = record.agents.map((agent) => agent.name);
  const view = (ablation: AblationRecord) =>
    readAblationView({ root: input.root, keep: config.verify?.keep, agents, ablation });
  const done = await readAblation(state, target);
  // Measured whole already: the table needs no running org.
  const measured = done ? await view(done) : undefined;
  if (measured && isSettled(measured)) return { tag: "measured", view: measured };
  const ready = () => assertDaemonAlive(daemon, NOT_RUNNING, { outcome: "nothing was queued" }).then(() => undefined);
  const started = await startAblation({ record, config, target, now: new Date(), ready });
  const ablation = started.record;
  return {
    tag: "queued", target, resumed: started.resumed, queued: started.queued, ablation,
    waitForView: (onRead) => waitForVariants(() => view(ablation), daemon, onRead),
  };
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

async function waitForVariants(
  read: () => Promise<AblationView>, daemon: string, onRead: (view: AblationView) => void,
): Promise<AblationView> {
  for (;;) {
    const view = await read();
    onRead(view);
    if (view.waiting === 0) return view;
    await assertDaemonAlive(daemon, GONE_DOWN, { outcome: "the variants stay queued" });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
