import { describe, expect, test } from "vitest";
import {
  decideAgreement, decideSubmit, draftContract, objectToContract, signContract,
} from "../../../src/domain/contracts/agreement.js";
import {
  formatContract, hashBody, parseContract, type Contract,
} from "../../../src/domain/contracts/contract-file.js";
import { BODY, T0, T1, checklist, draft, parsed, signed } from "./contract-fixtures.js";

describe("contract files", () => {
  test("a contract round-trips through its file, signatures binding the body's hash", () => {
    const contract = signed();
    const text = formatContract(contract);
    expect(text.split("\n").slice(0, 8)).toEqual([
      "---", "sprint: 1", "status: agreed", "generator: generator-1", "evaluator: evaluator-1",
      `generator_signed: "2026-01-07T10:00:00.000Z sha256:${contract.hash}"`,
      `evaluator_signed: "2026-01-07T10:05:00.000Z sha256:${contract.hash}"`, "---",
    ]);
    // The body keeps the blank line after the front matter, so its lines are the file's; the hash ignores it.
    expect(parsed(text)).toEqual({
      ...contract, body: `\n${contract.body}`, assertions: contract.assertions.map((a) => ({ ...a, line: a.line + 9 })),
    });
    expect(decideAgreement(parsed(text), 15)).toEqual({
      kind: "agreed", at: "2026-01-07T10:05:00.000Z",
      reason: "agreed by generator-1 and evaluator-1 at 2026-01-07T10:05:00.000Z",
    });
  });

  test.each([
    [
      "no front matter", "# just a checklist\n- [ ] a\n",
      "1: no front matter: the first line is not --- — draft contracts with `org contract draft -f "
        + "contract.md`, which writes it",
    ],
    [
      "front matter never closed", "---\nsprint: 1\nstatus: draft\n",
      "3: the front matter is never closed — end it with a line holding only ---",
    ],
    [
      "a line that is not key: value", "---\nsprint: 1\nstatus draft\n---\n",
      '3: front matter line "status draft" is not "key: value" — write it as key: value, e.g. status: draft',
    ],
    [
      "an unknown key", "---\nsprint: 1\nstatus: draft\nsigned: yes\n---\n",
      '4: front matter key "signed" is not a contract key — use sprint, status, generator, evaluator, '
        + 'generator_signed, evaluator_signed, objection, done_commit, done_at',
    ],
    [
      "a sprint that is not a number", "---\nsprint: ../2\nstatus: draft\n---\n",
      '2: sprint "../2" is not a sprint number — write a whole number from 1, e.g. sprint: 1',
    ],
    [
      "an unknown status", "---\nsprint: 1\nstatus: signed\n---\n",
      '3: status "signed" is not a contract status — write status: draft | objected | agreed | done',
    ],
    [
      "an agent name with a slash", "---\nsprint: 1\nstatus: draft\ngenerator: ../generator-1\n---\n",
      '4: generator "../generator-1" is not an agent name — use 1-40 letters, digits, \'-\' or \'_\', '
        + 'starting with a letter or digit',
    ],
    [
      "a forged signature", "---\nsprint: 1\nstatus: agreed\nevaluator_signed: yes\n---\n",
      '4: signature "yes" is not "<time> sha256:<hash>" — sign with `org contract sign` rather than by hand',
    ],
    [
      "an empty assertion", "---\nsprint: 1\nstatus: draft\n---\n\n- [ ] fine\n- [ ]   \n",
      "7: an empty checklist item — write a testable assertion after the box, e.g. "
        + "- [ ] val_bpb is below 0.98 on the verifier's run",
    ],
    [
      "a repeated assertion", "---\nsprint: 1\nstatus: draft\n---\n\n- [ ] loss falls\n- [x] loss falls\n",
      "7: the assertion repeats line 6 — keep one: each assertion is checked once",
    ],
  ])("%s is a problem at its line", (_, text, expected) => {
    const result = parseContract(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(`${result.line}: ${result.reason} — ${result.fix}`).toBe(expected);
  });
});

describe("agreement", () => {
  test("fewer assertions than the minimum cannot be agreed: signing is refused", () => {
    const short = draft(checklist(14));
    expect(signContract(short, "generator", "generator-1", T0, 15)).toEqual({
      ok: false,
      reason: "sprint 1's contract cannot be agreed: it has 14 assertions, fewer than the 15 required "
        + "(contracts.min_assertions) — the generator adds testable assertions and drafts it again",
    });
    const forged = {
      ...short, status: "agreed" as const,
      signed: {
        generator: { at: T0.toISOString(), hash: short.hash }, evaluator: { at: T1.toISOString(), hash: short.hash },
      },
    };
    expect(decideAgreement(forged, 15)).toMatchObject({
      kind: "open", reason: "it has 14 assertions, fewer than the 15 required (contracts.min_assertions)",
    });
  });

  test("one signature is not agreement; a body edited after signing un-agrees it", () => {
    const half = signContract(draft(), "generator", "generator-1", T0, 15);
    expect(half).toMatchObject({ ok: true, agreed: false, contract: { status: "draft" } });
    if (!half.ok) return;
    expect(decideAgreement(half.contract, 15)).toEqual({
      kind: "open", reason: "the evaluator has not signed it",
      fix: "the evaluator reads it, then signs with `org contract sign` or objects with `org contract object \"why\"`",
    });
    const agreed = signed();
    const edited = parsed(formatContract(agreed).replace("assertion 3 holds", "assertion 3 mostly holds"));
    const agreement = decideAgreement(edited, 15);
    expect(agreement).toEqual({
      kind: "open",
      reason: `generator-1 signed an earlier version (sha256:${agreed.hash}), not this one (sha256:${edited.hash})`,
      fix: "the generator signs again: org contract sign",
    });
  });

  test("an objection drops the evaluator's signature until it signs again; signing twice is refused", () => {
    const objected = objectToContract(signed(), "evaluator-1", "  assertion 4 names\nno threshold ");
    expect(objected).toMatchObject({
      ok: true,
      contract: {
        status: "objected", objection: "assertion 4 names no threshold",
        signed: { generator: { at: T0.toISOString() } },
      },
    });
    if (!objected.ok) return;
    expect(objected.contract.signed.evaluator).toBeUndefined();
    expect(decideAgreement(objected.contract, 15)).toMatchObject({
      kind: "open", reason: "evaluator-1 objected: assertion 4 names no threshold",
    });
    expect(objectToContract(signed(), "evaluator-1", " ")).toEqual({
      ok: false, reason: 'say why: org contract object "assertion 4 cannot be tested: it names no threshold"',
    });
    const again = signContract(objected.contract, "evaluator", "evaluator-1", T1, 15);
    expect(again).toMatchObject({ ok: true, agreed: true, contract: { status: "agreed" } });
    if (again.ok) expect(again.contract.objection).toBeUndefined();
    expect(signContract(signed(), "evaluator", "evaluator-1", T1, 15)).toMatchObject({
      ok: false, reason: expect.stringMatching(/^you already signed sprint 1's contract as it is/),
    });
  });

  test("a done sprint's successor is the next sprint; a redraft stays in its sprint", () => {
    const done: Contract = { ...signed(), status: "done", done: { commit: "1a2b3c4", at: T1.toISOString() } };
    expect(draftContract(done, BODY, hashBody(BODY), [], "generator-1").sprint).toBe(2);
    expect(draftContract(signed(), BODY, hashBody(BODY), [], "generator-1")).toMatchObject({
      sprint: 1, status: "draft", signed: {},
    });
    expect(signContract(done, "generator", "generator-1", T1, 15)).toEqual({
      ok: false,
      reason: "sprint 1 is done — the generator drafts the next sprint's contract: org contract draft -f contract.md",
    });
  });

  test("submits are refused with the reason until the sprint's contract is agreed", () => {
    expect(decideSubmit(undefined, 15)).toEqual({
      kind: "refused",
      reason: "no agreed contract for sprint 1: none is drafted yet — "
        + "draft one: org contract draft -f contract.md (nothing was committed)",
    });
    expect(decideSubmit({ contract: draft(checklist(3)) }, 15)).toEqual({
      kind: "refused",
      reason: "no agreed contract for sprint 1: it has 3 assertions, fewer than the 15 required "
        + "(contracts.min_assertions) — add testable assertions as `- [ ] …` lines, then draft it again: "
        + "org contract draft -f contract.md (nothing was committed)",
    });
    expect(decideSubmit({ sprint: 2, problem: "state/contracts/sprint-2.md:3: x — y" }, 15)).toEqual({
      kind: "refused",
      reason: "no agreed contract for sprint 2: state/contracts/sprint-2.md:3: x — y (nothing was committed)",
    });
    expect(
      decideSubmit({ contract: { ...signed(), status: "done", done: { commit: "1a2b3c4d", at: "" } } }, 15),
    ).toEqual({
      kind: "refused",
      reason: "no agreed contract for sprint 2: sprint 1 is done (commit 1a2b3c4) and the next is not drafted — "
        + "draft it: org contract draft -f contract.md (nothing was committed)",
    });
    expect(decideSubmit({ contract: signed() }, 15)).toEqual({ kind: "allowed", sprint: 1 });
  });
});
