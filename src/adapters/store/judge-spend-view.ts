import type { OrgConfig } from "../../domain/config/index.js";
import { summarizeJudgeSpend, type JudgeSpend } from "../../domain/judge/index.js";
import { orgPaths } from "../../domain/paths.js";
import { readJudgeUsage } from "../verifier/judge-usage-store.js";

/** The judge's spend as commands show it: priced with org.yaml's pricing now; whether stop.max_cost counts it. */
export interface JudgeSpendView {
  spend: JudgeSpend;
  maxCost: boolean;
}

/** None for an org whose judge never ran; org.yaml is read only when it did (and not given). */
export async function readJudgeSpendView(root: string, config?: OrgConfig): Promise<JudgeSpendView | undefined> {
  const file = await readJudgeUsage(orgPaths(root).state);
  if (file.runs.length === 0 && !file.problem) return undefined;
  // Loaded only here: `org status` of an org with no judge stays free of the config's schema and parser.
  const load = config ? undefined : (await import("./config-file.js")).readAndLoadConfig;
  const read = load ? await load({ cwd: root }).catch(() => undefined) : undefined;
  const settings = config ?? (read && "loaded" in read ? read.loaded.config : undefined);
  const spend = summarizeJudgeSpend(file.runs, settings?.pricing ?? {});
  // A record that does not parse: what it held is not counted, so the spend is a floor.
  const broken = file.problem ? { unknownRuns: spend.unknownRuns + 1, unknown: file.problem } : {};
  return { spend: { ...spend, ...broken }, maxCost: settings?.stop?.max_cost !== undefined };
}
