import type { Contract, Party } from "./contract-file.js";

export type Agreement =
  | { kind: "agreed"; at: string; reason: string }
  | { kind: "done"; commit: string; reason: string }
  | { kind: "open"; reason: string; fix: string };

/**
 * Agreed when both parties signed this very body and it has enough assertions; the status
 * field is never trusted alone.
 */
export function decideAgreement(contract: Contract, minAssertions: number): Agreement {
  if (contract.status === "done" && contract.done) return {
    kind: "done",
    commit: contract.done.commit,
    reason: `sprint ${contract.sprint} is done (commit ${contract.done.commit.slice(0, 7)})`,
  };
  const count = contract.assertions.length;
  if (count < minAssertions) {
    return {
      kind: "open",
      reason: `it has ${count} assertion${count === 1 ? "" : "s"}, fewer than the ${minAssertions} required `
        + `(contracts.min_assertions)`,
      fix: "add testable assertions as `- [ ] …` lines, then draft it again: org contract draft -f contract.md",
    };
  }
  if (contract.status === "objected" && contract.objection !== undefined) {
    return {
      kind: "open",
      reason: `${contract.evaluator ?? "the evaluator"} objected: ${contract.objection}`,
      fix: "revise the checklist, then draft it again: org contract draft -f contract.md",
    };
  }
  for (const party of ["generator", "evaluator"] as const) {
    const signature = contract.signed[party];
    const fix = party === "evaluator"
      ? "the evaluator reads it, then signs with `org contract sign` or objects with `org contract object \"why\"`"
      : "the generator signs with `org contract sign`";
    if (!signature) return { kind: "open", reason: `the ${party} has not signed it`, fix };
    if (signature.hash !== contract.hash) {
      return {
        kind: "open",
        reason: `${contract[party] ?? `the ${party}`} signed an earlier version (sha256:${signature.hash}), `
          + `not this one (sha256:${contract.hash})`,
        fix: `the ${party} signs again: org contract sign`,
      };
    }
  }
  const at = [contract.signed.generator!.at, contract.signed.evaluator!.at].sort().at(-1)!;
  return { kind: "agreed", at, reason: `agreed by ${contract.generator} and ${contract.evaluator} at ${at}` };
}

/** A new draft: the next sprint after a done one, otherwise the same sprint with every signature dropped. */
export function draftContract(
  current: Pick<Contract, "sprint" | "status"> | undefined, body: string, hash: string,
  assertions: Contract["assertions"], drafter: string | undefined,
): Contract {
  const sprint = current === undefined ? 1 : current.status === "done" ? current.sprint + 1 : current.sprint;
  return { sprint, status: "draft", signed: {}, body, hash, assertions, ...(drafter ? { generator: drafter } : {}) };
}

export type Transition = { ok: true; contract: Contract; agreed: boolean } | { ok: false; reason: string };

/** Sign as one party; the contract becomes agreed when the other party signed the same body. */
export function signContract(
  contract: Contract, party: Party, agent: string, now: Date, minAssertions: number,
): Transition {
  if (contract.status === "done") return {
    ok: false,
    reason: `sprint ${contract.sprint} is done — the generator drafts the next sprint's contract: `
      + `org contract draft -f contract.md`,
  };
  const count = contract.assertions.length;
  if (count < minAssertions) {
    return {
      ok: false,
      reason: `sprint ${contract.sprint}'s contract cannot be agreed: `
        + `it has ${count} assertion${count === 1 ? "" : "s"}, fewer than the ${minAssertions} required `
        + `(contracts.min_assertions) — the generator adds testable assertions and drafts it again`,
    };
  }
  if (contract.signed[party]?.hash === contract.hash && contract[party] === agent) return {
    ok: false,
    reason: `you already signed sprint ${contract.sprint}'s contract as it is `
      + `(sha256:${contract.hash}) — nothing to do`,
  };
  const next: Contract = {
    ...contract,
    [party]: agent,
    signed: { ...contract.signed, [party]: { at: now.toISOString(), hash: contract.hash } },
  };
  if (party === "evaluator") delete next.objection;
  const agreed = decideAgreement({ ...next, status: "agreed" }, minAssertions).kind === "agreed";
  next.status = agreed ? "agreed" : "draft";
  return { ok: true, contract: next, agreed };
}

/** The evaluator objects: its signature goes, the reason stays in the file until the next draft. */
export function objectToContract(contract: Contract, agent: string, why: string): Transition {
  if (contract.status === "done") return {
    ok: false,
    reason: `sprint ${contract.sprint} is done — object to the next sprint's contract once it is drafted`,
  };
  const reason = why.replace(/\s+/g, " ").trim();
  if (reason === "") return {
    ok: false,
    reason: 'say why: org contract object "assertion 4 cannot be tested: it names no threshold"',
  };
  if (reason.length > 500) return {
    ok: false,
    reason: `the objection is ${reason.length} characters, over 500 — keep it to the point; `
      + `send details with org send generator -f file.md`,
  };
  const signed = { ...contract.signed };
  delete signed.evaluator;
  return {
    ok: true,
    contract: { ...contract, evaluator: agent, signed, status: "objected", objection: reason },
    agreed: false,
  };
}

/** Whether `org submit` may go ahead for an agent whose role must have an agreed contract. */
export function decideSubmit(
  current: { contract: Contract } | { sprint: number; problem: string } | undefined, minAssertions: number,
): { kind: "allowed"; sprint: number } | { kind: "refused"; reason: string } {
  const refuse = (sprint: number, why: string) =>
    ({ kind: "refused" as const, reason: `no agreed contract for sprint ${sprint}: ${why} (nothing was committed)` });
  if (current === undefined) return refuse(1, "none is drafted yet — draft one: org contract draft -f contract.md");
  if ("problem" in current) return refuse(current.sprint, current.problem);
  const agreement = decideAgreement(current.contract, minAssertions);
  if (agreement.kind === "agreed") return { kind: "allowed", sprint: current.contract.sprint };
  if (agreement.kind === "done") return refuse(
    current.contract.sprint + 1,
    `${agreement.reason} and the next is not drafted — draft it: org contract draft -f contract.md`,
  );
  return refuse(current.contract.sprint, `${agreement.reason} — ${agreement.fix}`);
}
