// Calibration before trust, at `org up`: the judge scores every reference `repeats` times on the base's files.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LoadedConfig } from "../../org/config/index.js";
import { parseDuration, type VerifyConfig } from "../../org/config/schema.js";
import { pooledSigma } from "../../org/experiments/noise.js";
import { OrgError } from "../../org/errors.js";
import { decideCalibration, describeReference, readJudgeRun, type ReferenceScores } from "../../org/judge/index.js";
import { orgPaths } from "../../org/paths.js";
import { readJson, readText, writeJsonAtomic } from "../fs/files.js";
import { runGit } from "../git/run.js";
import { createVerifierPort } from "./port.js";
import { prepareVerifierStore } from "./prepare-store.js";
import { findVerifySandbox } from "./run-sandbox.js";

/** What the last calibration found, in state/: the keep rule pools its references' spreads into σ. */
interface CalibrationRecord {
  hash: string;
  at: string;
  sigma: number;
  references: ReferenceScores[];
}

export type CalibrationOutcome =
  | { kind: "none" } | { kind: "current"; summary: string } | { kind: "calibrated"; summary: string }
  | { kind: "refused"; message: string };

const RECORD = "judge-calibration.json";
// At most this many judge runs at once: each is an agent CLI, and org up waits for them all.
const AT_ONCE = 4;

/** Calibrates verify.judge unless the rubric, references and judge are those of the last calibration that passed. */
export async function calibrateJudge(loaded: LoadedConfig, say: (line: string) => void): Promise<CalibrationOutcome> {
  const judge = loaded.config.verify?.judge;
  const runtime = judge && loaded.config.runtimes[judge.runtime];
  if (!judge || !runtime) return { kind: "none" };
  const paths = orgPaths(loaded.dir);
  const files = [judge.rubric, ...judge.references.good, ...judge.references.bad];
  const texts = await Promise.all(files.map((path) => runGit(["show", `${loaded.baseCommit}:${path}`], { cwd: loaded.repoDir, timeoutMs: 30_000 })));
  const absent = files.find((_, index) => texts[index]!.exitCode !== 0);
  if (absent) {
    const message = `verify.judge: ${absent} is not in the base commit ${loaded.baseCommit.slice(0, 7)} — commit it: the judge reads the base's rubric and references`;
    return { kind: "refused", message };
  }
  const keep = loaded.config.verify!.keep;
  const hash = createHash("sha256").update(JSON.stringify({ judge, runtime, keep, files: texts.map((text) => text.stdout) })).digest("hex");
  const recordFile = join(paths.state, RECORD);
  const last = await readJson<CalibrationRecord>(recordFile).catch(() => undefined);
  if (last?.hash === hash) return { kind: "current", summary: `judge calibrated at ${last.at} (σ ${last.sigma.toFixed(3)}); rubric and references unchanged` };
  const references = [...judge.references.good.map((path) => ({ path, kind: "good" as const })), ...judge.references.bad.map((path) => ({ path, kind: "bad" as const }))];
  say(`calibrating the judge (${judge.runtime}): ${references.length} references × ${judge.repeats} repeats…`);
  const scratch = await mkdtemp(join(tmpdir(), "org-calibrate-"));
  try {
    const state = join(scratch, "state");
    const verify = loaded.config.verify!;
    await prepareVerifierStore({ repo: loaded.repoDir, state, base: loaded.baseCommit, protected: verify.protected });
    const port = createVerifierPort({
      repo: loaded.repoDir, state, baseCommit: loaded.baseCommit, judge: { config: judge, runtime },
      sandbox: () => findVerifySandbox({ ...paths, repo: loaded.repoDir, sandbox: loaded.config.sandbox }),
    });
    const checkout = await port.prepareCheckout("calibration", loaded.baseCommit);
    const tampered = await port.restoreProtected(checkout, loaded.baseCommit, verify.protected);
    if (tampered) throw new OrgError(`calibration: ${tampered}`, "judge");
    const timeoutMs = parseDuration(judge.timeout);
    const jobs = references.flatMap((reference, index) => Array.from({ length: judge.repeats }, (_, repeat) => ({ reference, index, repeat })))
      .map((job, order) => ({ ...job, at: order % AT_ONCE }));
    const scores = references.map((reference): ReferenceScores => ({ ...reference, samples: [] }));
    let failed: string | undefined;
    const runOne = async (job: (typeof jobs)[number]) => {
      const logFile = join(state, "runs", `calibrate-${job.index}-${job.repeat + 1}.log`);
      const file = { path: job.reference.path, text: texts[1 + job.index]!.stdout };
      const run = { slot: `calibration-${job.at}`, gpu: null, agent: "judge", commit: loaded.baseCommit, kind: "baseline" as const, run: job.repeat + 1 };
      const result = await port.runJudge!({ kind: "reference", file }, { cwd: checkout, logFile, timeoutMs, run });
      const output = (await readText(logFile)) ?? "";
      const answer = readJudgeRun(result, output, judge.dimensions, timeoutMs);
      if (answer.kind === "scored") scores[job.index]!.samples.push(answer.score);
      else failed ??= `${describeReference(job.reference)}: ${answer.reason}\n${output.trimEnd().split("\n").slice(-20).join("\n")}`;
    };
    for (let at = 0; at < jobs.length && !failed; at += AT_ONCE) await Promise.all(jobs.slice(at, at + AT_ONCE).map(runOne));
    if (failed) return { kind: "refused", message: `the judge could not be calibrated: ${failed}` };
    const decided = decideCalibration(scores, { k: keep.k, minDelta: keep.min_delta });
    if (decided.kind === "refused") return decided;
    const record: CalibrationRecord = { hash, at: new Date().toISOString(), sigma: decided.sigma, references: scores };
    await writeJsonAtomic(recordFile, record);
    return { kind: "calibrated", summary: decided.summary };
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * σ of the keep rule: pooled over `groups` (baselines, confirmations) and, with a judge, every reference's scores of
 * its last calibration, so a judge noisy on its references is as noisy on a candidate: no keep inside its spread.
 */
export async function readPooledSigma(state: string, verify: VerifyConfig | undefined, groups: number[][]): Promise<number | undefined> {
  const record = verify?.judge ? await readJson<CalibrationRecord>(join(state, RECORD)).catch(() => undefined) : undefined;
  return pooledSigma([...groups, ...(record?.references ?? []).map((reference) => reference.samples)]);
}
