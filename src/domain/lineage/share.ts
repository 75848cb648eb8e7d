// The share of keeps that built on another agent's result: a measure of the org working as one, not N loops.
import type { LineageNode, LineageShare } from "./node.js";
import { UNVERSIONED } from "../config-versions/version.js";

/** "3 of 8 keeps (38 %) built on another agent's result, 5 (63 %) descend from one", with the unknown ones named. */
export function describeShare(share: LineageShare): string {
  if (share.keeps === 0) return "no keeps yet";
  const measured = share.keeps - share.unknown;
  const unknown = share.unknown > 0 ? `; ${share.unknown} of ${share.keeps} unknown (not in the verifier's store)` : "";
  const keeps = `${share.keeps} keep${share.keeps === 1 ? "" : "s"}`;
  if (measured === 0) return `${keeps}: what they built on is unknown (not in the verifier's store)`;
  const of = `${measured} keep${measured === 1 ? "" : "s"}`;
  return `${share.cross} of ${of} (${percent(share.cross, measured)}) built on another agent's result, `
    + `${share.descends} (${percent(share.descends, measured)}) descend from one${unknown}`;
}

/** The share among the keeps made under one program version (`unversioned`: the rows from before versions). */
export function shareOfProgram(nodes: readonly LineageNode[], program: string): LineageShare {
  return shareOf(nodes.filter((node) => (node.program ?? UNVERSIONED) === program));
}

/** The share among these keeps. */
export function shareOf(nodes: readonly LineageNode[]): LineageShare {
  const known = nodes.filter((node) => node.unknown === undefined);
  return {
    keeps: nodes.length,
    cross: known.filter((node) => node.cross).length,
    descends: known.filter((node) => node.descends).length,
    unknown: nodes.length - known.length,
  };
}

/** cross / measured as a fraction, or undefined when no keep's lineage is known. */
export function crossFraction(share: LineageShare): number | undefined {
  const measured = share.keeps - share.unknown;
  return measured === 0 ? undefined : share.cross / measured;
}

function percent(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)} %`;
}
