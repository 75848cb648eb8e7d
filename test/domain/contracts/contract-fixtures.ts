import {
  draftContract, signContract,
} from "../../../src/domain/contracts/agreement.js";
import {
  hashBody, parseContract, readAssertions, type Contract,
} from "../../../src/domain/contracts/contract-file.js";

// The contracts the contract tests start from: a 15-item checklist drafted, signed by both sides, or parsed.
export const checklist = (n: number) =>
  Array.from({ length: n }, (_, i) => `- [ ] assertion ${i + 1} holds on the verifier's run`).join("\n");
export const BODY = `# Sprint contract\n\n${checklist(15)}\n`;
export const T0 = new Date("2026-01-07T10:00:00.000Z");
export const T1 = new Date("2026-01-07T10:05:00.000Z");

export function draft(body = BODY): Contract {
  const assertions = readAssertions(body, 1);
  if (!assertions.ok) throw new Error(assertions.reason);
  return draftContract(undefined, body, hashBody(body), assertions.assertions, "generator-1");
}

export function signed(body = BODY): Contract {
  const first = signContract(draft(body), "generator", "generator-1", T0, 15);
  if (!first.ok) throw new Error(first.reason);
  const second = signContract(first.contract, "evaluator", "evaluator-1", T1, 15);
  if (!second.ok) throw new Error(second.reason);
  return second.contract;
}

export function parsed(text: string): Contract {
  const result = parseContract(text);
  if (!result.ok) throw new Error(`${result.line}: ${result.reason}`);
  return result.contract;
}
