import { relative } from "node:path";
import type { ContractAction } from "../../domain/contracts/actions.js";
import { decideAgreement } from "../../domain/contracts/agreement.js";
import { actOnContract, type ContractOutcome } from "../../flows/contract-sprint.js";
import type { Io } from "../io.js";

/**
 * `org contract draft|sign|object|status`: the generator drafts, both parties sign the same checklist, the
 * evaluator may object.
 */
export async function runContract(
  opts: { root: string; cwd: string; action: ContractAction }, io: Io,
): Promise<number> {
  const outcome = await actOnContract(opts);
  if (outcome.kind === "status") return printStatus(io, outcome, (file) => relative(opts.root, file));
  io.out(outcome.message);
  return 0;
}

type Status = Extract<ContractOutcome, { kind: "status" }>;

function printStatus(io: Io, { settings, current }: Status, show: (file: string) => string): number {
  if (!current) {
    io.out(
      `no contract yet: the generator (role ${settings.generator}) drafts sprint 1's with `
        + "org contract draft -f contract.md",
    );
    return 0;
  }
  if (!current.parsed.ok) {
    io.out(
      `sprint ${current.sprint}: unreadable — ${show(current.file)}:${current.parsed.line}: ${current.parsed.reason} — `
        + `${current.parsed.fix}`,
    );
    return 1;
  }
  const contract = current.parsed.contract;
  const agreement = decideAgreement(contract, settings.min_assertions);
  const state = agreement.kind === "open" ? `not agreed — ${agreement.reason}; ${agreement.fix}` : agreement.reason;
  io.out(`sprint ${contract.sprint}: ${state}`);
  io.out(
    `contract: ${show(current.file)} (${contract.assertions.length} assertions, at least ${settings.min_assertions}; `
      + `sha256:${contract.hash})`,
  );
  for (const party of ["generator", "evaluator"] as const) {
    const signature = contract.signed[party];
    const state = !signature
      ? "not signed"
      : signature.hash === contract.hash ? `signed ${signature.at}` : `signed an earlier version ${signature.at}`;
    io.out(`${party}: ${contract[party] ?? `(role ${settings[party]})`} ${state}`);
  }
  if (contract.objection) io.out(`objection: ${contract.objection}`);
  return 0;
}
