// The lineage of the kept commits: which keep built on which, from the verifier's records, never from live branches.
import { classifyRow } from "../experiments/row-kind.js";
import { STACK_AGENT, type StackAttempt } from "../experiments/stack.js";
import { findKeptAncestors, type CommitGraph } from "./kept-ancestors.js";
import type { KeptRow, LineageNode, LineageShare, Relation } from "./node.js";
import { shareOf } from "./share.js";

export interface Lineage {
  base: string | undefined;
  nodes: LineageNode[];
  share: LineageShare;
}

export interface LineageInput {
  base: string | undefined;
  /** The trusted rows, in file order, each kept one with its full commit where known. */
  keeps: KeptRow[];
  stacks: readonly StackAttempt[];
  /** The parents of commits as the verifier's store holds them; why it could not be read, if so. */
  graph: CommitGraph | { problem: string };
}

const ADOPT = /^adopt ([0-9a-f]{7}) kept by /;

/** Keeps (baselines left out) with what each built on, and the share that built on another agent's result. */
export function buildLineage(input: LineageInput): Lineage {
  const nodes: LineageNode[] = [];
  const byCommit = new Map<string, LineageNode>();
  const adopts: { short: string; agent: string }[] = [];
  for (const row of input.keeps) {
    if (classifyRow(row) === "baseline") continue;
    const adopt = ADOPT.exec(row.description);
    if (adopt) adopts.push({ short: adopt[1]!, agent: row.agent });
    if (adopt || byCommit.has(row.commit)) continue;
    const node: LineageNode = { ...row, author: row.agent, builtOn: [], adoptedBy: [], cross: false, descends: false };
    nodes.push(node);
    byCommit.set(row.commit, node);
  }
  for (const adopt of adopts) nodes.find((node) => node.commit.startsWith(adopt.short))?.adoptedBy.push(adopt.agent);
  for (const node of nodes) attachStack(node, input.stacks, byCommit);
  for (const node of nodes) linkAncestors(node, input, byCommit);
  markDescent(nodes, byCommit);
  return { base: input.base, nodes, share: shareOf(nodes) };
}

// A stack is the org's row; whose change it carries is in state/stacks.jsonl (or, for an older org, its description).
function attachStack(node: LineageNode, stacks: readonly StackAttempt[], byCommit: Map<string, LineageNode>): void {
  if (node.agent !== STACK_AGENT) return;
  const attempt = stacks.find((stack) => stack.commit !== undefined && stack.commit === node.commit);
  const kept = attempt?.kept ?? /^stack ([0-9a-f]{7}) onto /.exec(node.description)?.[1];
  if (!kept) return;
  const source = byCommit.get(kept) ?? [...byCommit.values()].find((other) => other.commit.startsWith(kept));
  node.author = source?.author ?? STACK_AGENT;
  node.carries = { commit: source?.commit ?? kept, author: node.author };
}

function linkAncestors(node: LineageNode, input: LineageInput, byCommit: Map<string, LineageNode>): void {
  if ("problem" in input.graph) return void (node.unknown = input.graph.problem);
  const found = findKeptAncestors(node.commit, input.graph, (commit) => commit === input.base || byCommit.has(commit));
  if (found.kind === "unknown") return void (node.unknown = found.reason);
  node.builtOn = found.commits.map((commit) => {
    const parent = byCommit.get(commit);
    const author = parent?.author ?? "base";
    const relation: Relation = !parent ? "base" : node.carries ? "stack" : author === node.author ? "own" : "follow";
    return { commit, author, relation };
  });
  const others = node.builtOn.filter((link) => link.relation !== "base" && link.author !== node.author);
  node.cross = others.length > 0;
}

// Transitively: a keep descends from another's result when anything it built on or carried is another's, or does.
function markDescent(nodes: LineageNode[], byCommit: Map<string, LineageNode>): void {
  const memo = new Map<LineageNode, Set<string>>();
  const authors = (node: LineageNode): Set<string> => {
    const cached = memo.get(node);
    if (cached) return cached;
    const found = new Set<string>([node.author]);
    memo.set(node, found);
    const below = [...node.builtOn.map((link) => link.commit), ...(node.carries ? [node.carries.commit] : [])];
    for (const commit of below) {
      const parent = byCommit.get(commit);
      if (parent) for (const author of authors(parent)) found.add(author);
    }
    return found;
  };
  for (const node of nodes) {
    node.descends = node.unknown === undefined && [...authors(node)].some((author) => author !== node.author);
  }
}
