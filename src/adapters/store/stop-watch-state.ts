import type { OrgConfig } from "../../domain/config/index.js";
import { decideStop, parseStopWaivers, type StopDecision, type StopWaivers } from "../../domain/experiments/stop.js";
import { orgPaths, stopFiles } from "../../domain/paths.js";
import type { OrgRecord } from "../../domain/state.js";
import { readUsageViews } from "../../domain/usage/summary.js";
import { judgeCostsForStop, summarizeJudgeSpend } from "../../domain/judge/index.js";
import { readJudgeUsage } from "../verifier/judge-usage-store.js";
import { filesPort } from "../fs/files-port.js";
import { readJson, writeJsonAtomic } from "../fs/files.js";
import { readTrustedRows } from "../verifier/checked-results.js";

/**
 * The stop section over what is on disk now: results.tsv, every agent's usage.json (an agent whose program
 * records no usage costs nothing; one with unpriced models makes the sum a floor), the judge's runs and the waivers.
 */
export async function evaluateStop(
  input: { config: OrgConfig; record: Pick<OrgRecord, "root" | "baseCommit" | "upAt" | "agents">; now: Date },
): Promise<StopDecision> {
  const { config, record } = input;
  const paths = orgPaths(record.root);
  // A forged row must not reach a target or use up max_experiments: only the verifier's rows count.
  const rows = await readTrustedRows(paths.state);
  const usage = await readUsageViews(filesPort, paths.state, record.agents.map((agent) => agent.name));
  // The verifier's judge spends too: its dollars count beside the agents', an unknown or unpriced run making a floor.
  const judge = config.verify?.judge ? await readJudgeUsage(paths.state) : undefined;
  const spend = judge && summarizeJudgeSpend(judge.runs, config.pricing ?? {});
  const agents = [...usage.values()].map((view) => (view === null ? 0 : view.costUsd));
  const costs = [...agents, ...judgeCostsForStop(spend), ...(judge?.problem ? [null] : [])];
  const metric = config.verify ? { name: config.verify.metric.name, goal: config.verify.metric.goal } : undefined;
  return decideStop({
    stop: config.stop, metric, rows, baseCommit: record.baseCommit, costs, startedAt: new Date(record.upAt),
    now: input.now, waived: await readWaivers(paths.state),
  });
}

/**
 * state/stop-waivers.json, this module's alone. Missing, unreadable or of another shape, it waives nothing: the org
 * stops at a met condition again, the safe side, and `org up --resume` waives it afresh.
 */
export async function readWaivers(state: string): Promise<StopWaivers> {
  return parseStopWaivers(await readJson(stopFiles(state).waivers).catch(() => undefined)) ?? {};
}

export async function writeWaivers(state: string, waivers: StopWaivers): Promise<void> {
  await writeJsonAtomic(stopFiles(state).waivers, waivers);
}
