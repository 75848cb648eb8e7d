// The trees the built-in researcher's next change can be judged on: it reads the ledger where the verifier writes it.
import { dirname } from "node:path";
import { readHeadTree } from "../git/follow-best.js";
import { readOptionalRecord } from "./org-record.js";
import { readLedger } from "./agent-ledger.js";

/**
 * The code in cwd, and the agent's best (the base before one): the verifier diffs a change against that best, so after
 * following the org best onto another agent's commit the ledger keys its changes by the best's tree, not HEAD's.
 */
export async function readJudgedTrees(cwd: string, state: string, agent: string): Promise<Set<string>> {
  const unreadable = () => undefined;
  const ledger = await readLedger(state, agent).catch(unreadable);
  const record = await readOptionalRecord(dirname(state)).catch(unreadable);
  const base = typeof record?.baseCommit === "string" ? record.baseCommit : undefined;
  const against = typeof ledger?.best?.commit === "string" ? ledger.best.commit : base;
  // Only a commit id is asked of git: the ledger is the daemon's, but never an option on a command line.
  const revs = ["HEAD", ...(against && /^[0-9a-f]{7,64}$/.test(against) ? [against] : [])];
  const trees = await Promise.all(revs.map((rev) => readHeadTree(cwd, rev)));
  return new Set(trees.filter((tree): tree is string => tree !== undefined));
}
