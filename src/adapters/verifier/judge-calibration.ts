// Calibration before trust, at `org up`: the judge scores every reference `repeats` times on the base's files.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as z from "zod";
import {
  parseDuration, type JudgeConfig, type LoadedConfig, type RuntimeConfig, type VerifyConfig,
} from "../../domain/config/index.js";
import { pooledSigma } from "../../domain/experiments/noise.js";
import type { AgentLedger } from "../../domain/experiments/request.js";
import { OrgError } from "../../domain/errors.js";
import { decideCalibration, describeReference, readJudgeRun, recordJudgeUsage } from "../../domain/judge/index.js";
import type { ReferenceScores } from "../../domain/judge/index.js";
import { orgPaths } from "../../domain/paths.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";
import { appendJudgeRun } from "./judge-usage-store.js";
import { runGit } from "../git/run.js";
import { createVerifierPort } from "./port.js";
import { prepareVerifierStore } from "./prepare-store.js";
import { findVerifySandbox } from "./run-sandbox.js";

const RECORD = "judge-calibration.json";

/** What the last calibration found, in state/: the keep rule pools its references' spreads into σ. */
const CalibrationSchema = z.object({
  hash: z.string(),
  at: z.string(),
  sigma: z.number(),
  references: z.array(z.object({ path: z.string(), kind: z.enum(["good", "bad"]), samples: z.array(z.number()) })),
});

type CalibrationRecord = z.infer<typeof CalibrationSchema>;

/** The last calibration; undefined when there is none, or the file is cut short or of another shape. */
async function readCalibration(state: string): Promise<CalibrationRecord | undefined> {
  const parsed = CalibrationSchema.safeParse(await readJson(join(state, RECORD)).catch(() => undefined));
  return parsed.success ? parsed.data : undefined;
}

export type CalibrationOutcome =
  | { kind: "none" } | { kind: "current"; summary: string } | { kind: "calibrated"; summary: string }
  | { kind: "refused"; message: string };

// At most this many judge runs at once: each is an agent CLI, and org up waits for them all.
const AT_ONCE = 4;

/** Calibrates verify.judge unless the rubric, references and judge are those of the last calibration that passed. */
export async function calibrateJudge(loaded: LoadedConfig, say: (line: string) => void): Promise<CalibrationOutcome> {
  const verify = loaded.config.verify;
  const judge = verify?.judge;
  const runtime = judge && loaded.config.runtimes[judge.runtime];
  if (!verify || !judge || !runtime) return { kind: "none" };
  const base = loaded.baseCommit;
  const files = [judge.rubric, ...judge.references.good, ...judge.references.bad];
  const show = (path: string) => runGit(["show", `${base}:${path}`], { cwd: loaded.repoDir, timeoutMs: 30_000 });
  const shown = await Promise.all(files.map(show));
  const absent = files.find((_, index) => shown[index]!.exitCode !== 0);
  if (absent) {
    const message = `verify.judge: ${absent} is not in the base commit ${base.slice(0, 7)}`
      + " — commit it: the judge reads the base's rubric and references";
    return { kind: "refused", message };
  }
  const texts = shown.map((result) => result.stdout);
  const hashed = JSON.stringify({ judge, runtime, keep: verify.keep, texts });
  const hash = createHash("sha256").update(hashed).digest("hex");
  const state = orgPaths(loaded.dir).state;
  const last = await readCalibration(state);
  if (last?.hash === hash) {
    const summary = `judge calibrated at ${last.at} (σ ${last.sigma.toFixed(3)}); rubric and references unchanged`;
    return { kind: "current", summary };
  }
  const references = [
    ...judge.references.good.map((path) => ({ path, kind: "good" as const })),
    ...judge.references.bad.map((path) => ({ path, kind: "bad" as const })),
  ].map((reference, index) => ({ ...reference, text: texts[1 + index]! }));
  say(`calibrating the judge (${judge.runtime}): ${references.length} references × ${judge.repeats} repeats…`);
  const scores = await scoreReferences(loaded, { config: judge, runtime }, references);
  if (typeof scores === "string") return { kind: "refused", message: `the judge could not be calibrated: ${scores}` };
  const decided = decideCalibration(scores, { k: verify.keep.k, minDelta: verify.keep.min_delta });
  if (decided.kind === "refused") return decided;
  const record: CalibrationRecord = { hash, at: new Date().toISOString(), sigma: decided.sigma, references: scores };
  await writeJsonAtomic(join(state, RECORD), record);
  return { kind: "calibrated", summary: decided.summary };
}

/**
 * Every reference scored `repeats` times in a clean checkout of the base (in a throwaway verifier store, in the org's
 * sandbox), AT_ONCE runs at a time; the first judge-error ends it, named with its output's tail.
 */
async function scoreReferences(loaded: LoadedConfig, judge: { config: JudgeConfig; runtime: RuntimeConfig },
  references: { path: string; kind: "good" | "bad"; text: string }[]): Promise<ReferenceScores[] | string> {
  const { repoDir: repo, baseCommit: base, config } = loaded;
  const orgState = orgPaths(loaded.dir).state;
  const verify = config.verify!;
  const scratch = await mkdtemp(join(tmpdir(), "org-calibrate-"));
  try {
    const state = join(scratch, "state");
    await prepareVerifierStore({ repo, state, base, protected: verify.protected });
    const sandbox = () => findVerifySandbox({ ...orgPaths(loaded.dir), repo, sandbox: config.sandbox });
    const port = createVerifierPort({ repo, state, baseCommit: base, judge, sandbox });
    const checkout = await port.prepareCheckout("calibration", base);
    const tampered = await port.restoreProtected(checkout, base, verify.protected);
    if (tampered) throw new OrgError(`calibration: ${tampered}`, "judge");
    const timeoutMs = parseDuration(judge.config.timeout);
    const repeats = Array.from({ length: judge.config.repeats }, (_, repeat) => repeat);
    const jobs = references.flatMap((_, index) => repeats.map((repeat) => ({ index, repeat })));
    const scores = references.map(({ path, kind }): ReferenceScores => ({ path, kind, samples: [] }));
    let failed: string | undefined;
    const runOne = async (job: (typeof jobs)[number], at: number) => {
      const reference = references[job.index]!;
      const logFile = join(state, "runs", `calibrate-${job.index}-${job.repeat + 1}.log`);
      const slot = `calibration-${at}`;
      const run = { slot, gpu: null, agent: "judge", commit: base, kind: "baseline" as const, run: job.repeat + 1 };
      const work = { kind: "reference" as const, file: { path: reference.path, text: reference.text } };
      const result = await port.runJudge!(work, { cwd: checkout, logFile, timeoutMs, run });
      // Calibration's runs are the verifier's spend too, in the org's own state (this store is thrown away).
      const spent = { at: new Date().toISOString(), kind: "calibration" as const, agent: "judge", commit: base };
      const record = recordJudgeUsage({ ...spent, run: job.repeat + 1, cli: result.cli }, result.output.usage);
      await appendJudgeRun(orgState, record).catch(() => undefined);
      const output = result.output.text;
      const answer = readJudgeRun(result, output, judge.config.dimensions, timeoutMs);
      if (answer.kind === "scored") scores[job.index]!.samples.push(answer.score);
      else failed ??= `${describeReference(reference)}: ${answer.reason}\n${lastLines(output, 20)}`;
    };
    for (let at = 0; at < jobs.length && !failed; at += AT_ONCE) {
      await Promise.all(jobs.slice(at, at + AT_ONCE).map((job, index) => runOne(job, index)));
    }
    return failed ?? scores;
  } finally {
    await rm(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}

/**
 * σ of the keep rule: pooled over every agent's baseline and confirmation runs and, with a judge, every reference's
 * scores of its last calibration, so a judge noisy on its references is as noisy on a candidate: no keep inside it.
 */
export async function readPooledSigma(
  state: string, verify: VerifyConfig | undefined, ledgers: readonly (AgentLedger | undefined)[],
): Promise<number | undefined> {
  const groups = ledgers.flatMap((ledger) => [ledger?.baseline?.samples ?? [], ...(ledger?.noise ?? [])]);
  const record = verify?.judge ? await readCalibration(state) : undefined;
  return pooledSigma([...groups, ...(record?.references ?? []).map((reference) => reference.samples)]);
}
