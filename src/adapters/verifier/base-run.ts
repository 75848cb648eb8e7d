// `org validate --run`: one run of the verify command on the base, by the verifier's own port, as a baseline's first.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadedConfig, VerifyConfig } from "../../domain/config/index.js";
import { OrgError } from "../../domain/errors.js";
import type { ExperimentContext, RunMeasure } from "../../domain/experiments/verifier-port.js";
import { measureRuns } from "../../domain/experiments/runs.js";
import { orgPaths } from "../../domain/paths.js";
import { createVerifierPort } from "./port.js";
import { prepareVerifierStore } from "./prepare-store.js";
import { findVerifySandbox } from "./run-sandbox.js";

export const BASE_RUN_PREFIX = "org-validate-";
const AGENT = "validate";

/**
 * Runs `verify` once on the base in a clean checkout of a throwaway verifier store (never the org's state/), in the
 * org's sandbox, with the verify timeout and the seed of a baseline's first run; everything it made is removed after.
 */
export async function runVerifyOnBase(
  loaded: LoadedConfig, verify: VerifyConfig, opts: { gpu: number | null; signal?: AbortSignal },
): Promise<RunMeasure> {
  const { repoDir: repo, baseCommit, config } = loaded;
  const paths = orgPaths(loaded.dir);
  const scratch = await mkdtemp(join(tmpdir(), BASE_RUN_PREFIX));
  try {
    const state = join(scratch, "state");
    await prepareVerifierStore({ repo, state, base: baseCommit, protected: verify.protected });
    const port = createVerifierPort({
      repo, state, baseCommit,
      // The org's own records are hidden from the run as from the daemon's: the same sandbox, by the same decision.
      sandbox: () => findVerifySandbox({ ...paths, repo, sandbox: config.sandbox }),
    });
    const agent = { name: AGENT, branch: config.base, worktree: repo, gpu: opts.gpu, edits: [] };
    const context: ExperimentContext = {
      verify, baseCommit, agent, slot: "validate", ledger: { best: null, lastVerified: null },
      runsDir: orgPaths(scratch).runs, patchesDir: orgPaths(scratch).patches, now: () => new Date(), sigma: undefined,
      ...(opts.signal ? { signal: opts.signal } : {}),
    };
    const request = {
      id: "base", agent: AGENT, commit: baseCommit, description: "org validate --run", kind: "baseline" as const,
      submittedAt: new Date().toISOString(),
    };
    const [measure] = await measureRuns(port, context, request, [0], 0).catch((error: unknown) => {
      if (!(error instanceof OrgError && error.code === "aborted")) throw error;
      throw new OrgError("interrupted: the verify run was stopped, and nothing is left of it", "aborted");
    });
    if (!measure) throw new OrgError("the verify command did not run", "verify");
    return measure;
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}
