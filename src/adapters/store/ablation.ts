// state/ablation/: the one owner of an ablation's record (`org ablate`'s plan) and of each variant's measure.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { OrgError } from "../../domain/errors.js";
import {
  parseAblationRecord, parseVariantResult, type AblationRecord, type VariantResult,
} from "../../domain/ablation/index.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";

/** Where the plan of the ablation of `commit` lives, and where its variants' measures do. */
export function ablationPaths(state: string)
  : { dir: string; record: (commit: string) => string; measure: (variant: string) => string } {
  const dir = join(state, "ablation");
  const measure = (variant: string) => join(dir, "variants", `${variant}.json`);
  return { dir, record: (commit) => join(dir, `${commit}.json`), measure };
}

/** The ablation of `commit`, if one was started; a record that does not parse is an error naming the fix. */
export async function readAblation(state: string, commit: string): Promise<AblationRecord | undefined> {
  const file = ablationPaths(state).record(commit);
  const value = await readJson(file).catch(() => Symbol("unreadable"));
  if (value === undefined) return undefined;
  const parsed = parseAblationRecord(value, file);
  if (!parsed.ok) throw new OrgError(parsed.problem, "bad-ablation");
  return parsed.record;
}

/** Every ablation started, newest first; one that does not parse is left out. */
export async function listAblations(state: string): Promise<AblationRecord[]> {
  const { dir } = ablationPaths(state);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /^[0-9a-f]{40,64}\.json$/.test(name));
  const records = await Promise.all(names.map((name) => readAblation(state, name.slice(0, -5)).catch(() => undefined)));
  return records.filter((record) => record !== undefined).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

export async function writeAblation(state: string, record: AblationRecord): Promise<void> {
  await writeJsonAtomic(ablationPaths(state).record(record.commit), record);
}

/** The measure the verifier wrote for a variant commit; one cut short or hand-broken is none. */
export async function readVariantResult(state: string, variant: string): Promise<VariantResult | undefined> {
  const value = await readJson(ablationPaths(state).measure(variant)).catch(() => undefined);
  return value === undefined ? undefined : parseVariantResult(value);
}

/** Written by the verifier alone, once per variant, before its request is cleared. */
export async function writeVariantResult(state: string, result: VariantResult): Promise<void> {
  await writeJsonAtomic(ablationPaths(state).measure(result.commit), result);
}
