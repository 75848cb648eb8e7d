import type { GateFailures } from "../domain/experiments/gate-failures.js";
import { cleanLine } from "../domain/safe-text.js";

/** `gates failed: types 3 (latest 1a2b3c4 by r-1), lint 1 (…)`; undefined when no gate failed. */
export function describeGateFailures(failures: readonly GateFailures[], label = "gates failed"): string | undefined {
  if (failures.length === 0) return undefined;
  const parts = failures.map(({ gate, count, latest }) => {
    return `${gate} ${count} (latest ${latest.commit.slice(0, 7)} by ${latest.agent})`;
  });
  return cleanLine(`${label}: ${parts.join(", ")}`);
}

/** A table cell: `types×3 lint×1`, or `-`. */
export function formatGateCell(failures: readonly GateFailures[]): string {
  return failures.length === 0 ? "-" : failures.map((entry) => `${entry.gate}×${entry.count}`).join(" ");
}

/** `org compare`: per side, where its experiments failed verify.gates; nothing when neither side failed one. */
export function describeSideFailures(sides: readonly { program: string; failures: readonly GateFailures[] }[]) {
  if (sides.every((side) => side.failures.length === 0)) return [];
  return sides.map(({ program, failures }) => {
    return describeGateFailures(failures, `${program}: gates failed`) ?? `${program}: no gate failed`;
  });
}
