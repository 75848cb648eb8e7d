// state/agents/<agent>/ledger.json: the verifier's memory of one agent. The daemon's alone to write (the agent's
// sandbox reads its state folder only); the only module that reads or writes it, through a schema.
import { readdir } from "node:fs/promises";
import type { AgentLedger } from "../../domain/experiments/request.js";
import { OrgError } from "../../domain/errors.js";
import { agentPaths, agentsDir } from "../../domain/paths.js";
import { modifiedMs } from "../fs/dir.js";
import { pathExists, readJson, writeJsonAtomic } from "../fs/files.js";
import { readTextNow } from "../fs/read-now.js";
import { parseLedgerView, type LedgerView } from "../../domain/experiments/ledger-view.js";

/** A ledger before the agent's baseline ran: no best, nothing verified. */
export const EMPTY_LEDGER: AgentLedger = { best: null, lastVerified: null };

/** The agent's ledger; undefined before its baseline ran. Throws when the file is cut short or of another shape. */
export async function readLedger(state: string, agent: string): Promise<AgentLedger | undefined> {
  const file = agentPaths(state, agent).ledger;
  const value = await readJson(file);
  if (value === undefined) return undefined;
  const { parseLedger } = await import("../../domain/experiments/ledger-schema.js");
  const parsed = parseLedger(value);
  if (parsed.ok) return parsed.ledger;
  const fix = "remove it, and the verifier measures the agent's baseline again";
  throw new OrgError(`${file} is not a verifier ledger (${parsed.reason}) — ${fix}`, "ledger");
}

/**
 * What the views show of the agent's ledger, read at once (a view reads every agent's) and checked without zod;
 * undefined before its baseline ran. Throws, as readLedger, when the file is cut short or of another shape.
 */
export async function readLedgerView(state: string, agent: string): Promise<LedgerView | undefined> {
  const file = agentPaths(state, agent).ledger;
  const text = await readTextNow(file);
  if (text === undefined) return undefined;
  const view = parseLedgerView(JSON.parse(text));
  if (view) return view;
  const fix = "remove it, and the verifier measures the agent's baseline again";
  throw new OrgError(`${file} is not a verifier ledger — ${fix}`, "ledger");
}

/** Each agent's ledger, in order; one missing or unreadable is undefined, for the views and the pooled σ. */
export function readAgentLedgers(state: string, agents: readonly string[]): Promise<(AgentLedger | undefined)[]> {
  return Promise.all(agents.map((agent) => readLedger(state, agent).catch(() => undefined)));
}

/** Written whole or not at all: a daemon killed mid-write leaves the ledger before or after, never half. */
/** Every ledger under state/agents/, whatever agents the org has now (an agent removed by a reload included). */
export async function readEveryAgentLedger(state: string): Promise<(AgentLedger | undefined)[]> {
  const agents = await readdir(agentsDir(state)).catch(() => [] as string[]);
  return readAgentLedgers(state, agents);
}

export async function writeLedger(state: string, agent: string, ledger: AgentLedger): Promise<void> {
  await writeJsonAtomic(agentPaths(state, agent).ledger, ledger);
}

/** Whether the agent's baseline was recorded (or crashed): the verifier runs it first otherwise. */
export function hasLedger(state: string, agent: string): Promise<boolean> {
  return pathExists(agentPaths(state, agent).ledger);
}

/** When the ledger was last written; 0 when it was never. */
export function readLedgerTime(state: string, agent: string): Promise<number> {
  return modifiedMs(agentPaths(state, agent).ledger).catch(() => 0);
}
