// One kept commit in the lineage, what it built on, and the share of keeps that built on another agent's result.
import type { ResultRow } from "../experiments/results-table.js";

/** How a keep came to stand on what it built on. */
export type Relation = "base" | "own" | "follow" | "stack";

/** A kept results row with its full commit when the journal or the store named it (a legacy row has 7 characters). */
export interface KeptRow extends Pick<ResultRow, "agent" | "description" | "time" | "program"> {
  commit: string;
  metric: number;
}

export interface LineageLink {
  commit: string;
  /** Whose change it is: the agent of a keep, the agent of the change a stack carried. */
  author: string;
  relation: Relation;
}

export interface LineageNode extends KeptRow {
  author: string;
  /** The nearest kept commits (or the base) it descends from, first parent first. */
  builtOn: LineageLink[];
  /** A stack: the kept change it put onto the org best. */
  carries?: { commit: string; author: string };
  /** Agents that adopted this very commit as their own best (the ledger's "adopt" answers). */
  adoptedBy: string[];
  /** Built directly on another agent's result: a follow, or a stack onto another's best. */
  cross: boolean;
  /** Another agent's result anywhere below it. */
  descends: boolean;
  /** Why what it built on is not known. */
  unknown?: string;
}

export interface LineageShare {
  keeps: number;
  cross: number;
  descends: number;
  unknown: number;
}
