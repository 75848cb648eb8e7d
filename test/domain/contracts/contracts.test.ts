import { describe, expect, test } from "vitest";
import {
  decideAgreement, decideSubmit, draftContract, objectToContract, signContract,
} from "../../../src/domain/contracts/agreement.js";
import {
  formatContract, hashBody, parseContract, readAssertions, type Contract,
} from "../../../src/domain/contracts/contract-file.js";
import { decideSprint, parseReview } from "../../../src/domain/contracts/decide-sprint.js";
import type { ResultRow } from "../../../src/domain/experiments/results-table.js";
import { problemsOf } from "../../fixtures/configs/fake-probe.js";

const checklist = (n: number) =>
  Array.from({ length: n }, (_, i) => `- [ ] assertion ${i + 1} holds on the verifier's run`).join("\n");
const BODY = `# Sprint contract\n\n${checklist(15)}\n`;
const T0 = new Date("2026-01-07T10:00:00.000Z");
const T1 = new Date("2026-01-07T10:05:00.000Z");

function draft(body = BODY): Contract {
  const assertions = readAssertions(body, 1);
  if (!assertions.ok) throw new Error(assertions.reason);
  return draftContract(undefined, body, hashBody(body), assertions.assertions, "generator-1");
}

function signed(body = BODY): Contract {
  const first = signContract(draft(body), "generator", "generator-1", T0, 15);
  if (!first.ok) throw new Error(first.reason);
  const second = signContract(first.contract, "evaluator", "evaluator-1", T1, 15);
  if (!second.ok) throw new Error(second.reason);
  return second.contract;
}

function parsed(text: string): Contract {
  const result = parseContract(text);
  if (!result.ok) throw new Error(`${result.line}: ${result.reason}`);
  return result.contract;
}

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

describe("reviews", () => {
  const contract = signed();
  const item = (box: string, n: number) => `- [${box}] assertion ${n} holds on the verifier's run — checked in run 12`;
  const review = (mark: (n: number) => string) =>
    `${Array.from({ length: 15 }, (_, i) => item(mark(i + 1), i + 1)).join("\n")}\n`;
  const row = (commit: string, time: string, description = "cosine schedule"): ResultRow => ({
    commit, metric: 0.9, memoryGb: 1, status: "keep", description, agent: "generator-1", gpu: null, seconds: 1, time,
  });

  test("every assertion passing on a commit the verifier kept after the agreement closes the sprint", () => {
    const parsedReview = parseReview(review(() => "x"), contract);
    expect(parsedReview).toMatchObject({
      ok: true,
      items: expect.arrayContaining([
        { assertion: "assertion 1 holds on the verifier's run", passed: true, evidence: "checked in run 12", line: 1 },
      ]),
    });
    if (!parsedReview.ok) return;
    const kept = [row("0000aaa", "2026-01-07T09:00:00.000Z", "baseline"), row("1a2b3c4", "2026-01-07T10:30:00.000Z")];
    expect(
      decideSprint({ sprint: 1, items: parsedReview.items, commit: undefined, kept, agreedAt: T1.toISOString() }),
    ).toEqual({ kind: "done", commit: "1a2b3c4", reason: "15/15 assertions pass and the verifier kept 1a2b3c4" });
    expect(
      decideSprint({ sprint: 1, items: parsedReview.items, commit: "9f9f9f9", kept, agreedAt: T1.toISOString() }),
    ).toEqual({
      kind: "open",
      reason: "15/15 assertions pass, but the verifier has not kept commit 9f9f9f9 since the contract was agreed",
    });
    expect(
      decideSprint({
        sprint: 1, items: parsedReview.items, commit: undefined, kept: kept.slice(0, 1), agreedAt: T1.toISOString(),
      }).reason,
    ).toBe(
      "15/15 assertions pass, but the verifier has not kept any commit of the generator since the contract was agreed",
    );
  });

  test("a failing item keeps the sprint open and is named", () => {
    const parsedReview = parseReview(review((n) => (n === 2 ? " " : "x")), contract);
    if (!parsedReview.ok) throw new Error(parsedReview.reason);
    const kept = [row("1a2b3c4", "2026-01-07T11:00:00.000Z")];
    expect(decideSprint({ sprint: 1, items: parsedReview.items, commit: undefined, kept, agreedAt: T1.toISOString() }))
      .toEqual({ kind: "open", reason: "14/15 assertions pass; failing: \"assertion 2 holds on the verifier's run\"" });
  });

  test.each([
    [
      "an item not in the contract", (text: string) => `${text}- [x] the code is pretty\n`,
      "16: \"the code is pretty\" is not an assertion of sprint 1's contract — "
        + "copy each assertion exactly as the contract words it, then add your evidence after it",
    ],
    [
      "a missing assertion", (text: string) => text.replace(/^- \[x\] assertion 15 .*\n/m, ""),
      "15: the review misses 1 of the contract's 15 assertions, the first: \"assertion 15 holds on the verifier's "
        + "run\" (its line 17) — review every assertion: tick it [x] with evidence, "
        + "or leave it [ ] and say why it fails",
    ],
    [
      "an assertion reviewed twice",
      (text: string) => `${text}- [ ] assertion 3 holds on the verifier's run: on second thought\n`,
      "16: the contract's assertion on its line 5 is reviewed twice — keep one",
    ],
    [
      "a bad commit in the front matter", (text: string) => `---\ncommit: ../HEAD\n---\n${text}`,
      '2: commit "../HEAD" is not a commit hash — write the reviewed commit\'s hash, e.g. commit: 1a2b3c4',
    ],
  ])("%s is refused at its line", (_, edit, expected) => {
    const result = parseReview(edit(review(() => "x")), contract);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(`${result.line}: ${result.reason} — ${result.fix}`).toBe(expected);
  });
});

const PIPELINE = `runtimes:
  mybot:
    command: [mybot]
roles:
  generator:
    prompt: prompts/researcher.md
    runtime: mybot
  evaluator:
    prompt: prompts/researcher.md
    runtime: mybot
contracts:
  generator: generator
  evaluator: evaluator
`;

describe("contracts and standup in org.yaml", () => {
  test("valid roles load", async () => {
    expect(await problemsOf(PIPELINE)).toEqual([]);
  });

  test.each([
    [
      "an unknown role, with a did-you-mean",
      PIPELINE.replace("generator: generator\n  evaluator", "generator: generatr\n  evaluator"),
      ['org.yaml:12:14: contracts.generator names "generatr", which is not a role — did you mean "generator"?'],
    ],
    [
      "a name with ../",
      PIPELINE.replace("evaluator: evaluator\n", "evaluator: ../evaluator\n"),
      [
        'org.yaml:13:14: contracts.evaluator "../evaluator" contains ".", "/" — '
          + 'name one of the roles: generator, evaluator',
      ],
    ],
    [
      "the same role on both sides",
      PIPELINE.replace("evaluator: evaluator\n", "evaluator: generator\n"),
      [
        'org.yaml:13:14: contracts.evaluator is "generator", the generator\'s role too — '
          + 'the evaluator must be another role: no one grades their own work',
      ],
    ],
    [
      "defaults naming roles that exist",
      PIPELINE.replace(
        "contracts:\n  generator: generator\n  evaluator: evaluator\n",
        "contracts: { min_assertions: 3 }\n",
      ),
      [],
    ],
    [
      "a standup for an unknown role",
      `${PIPELINE}standup: { to: chef }\n`,
      ['org.yaml:14:16: standup.to names "chef", which is not a role — name one of the roles: generator, evaluator'],
    ],
    [
      "a standup defaulting to a missing chief",
      `${PIPELINE}standup: { every: 10m }\n`,
      [
        'org.yaml:14:10: standup.to defaults to "chief", which is not a role — set to: to a role — '
          + 'name one of the roles: generator, evaluator',
      ],
    ],
  ])("%s", async (_, yaml, expected) => {
    expect(await problemsOf(yaml)).toEqual(expected);
  });
});

describe("a contract's escapes", () => {
  test("the stored file drops them and the hash ignores them: a body signed as drafted is the body stored", () => {
    const body = "- [ ] loss \x1b[32mbelow\x1b[0m 1.0\r\n- [ ] no \u202eregression\u202c\n";
    const drafted: Contract = { sprint: 1, status: "draft", signed: {}, body, hash: hashBody(body), assertions: [] };
    const stored = parseContract(formatContract(drafted));
    expect(stored.ok && stored.contract.body.trim()).toBe("- [ ] loss below 1.0\n- [ ] no regression");
    expect(stored.ok && stored.contract.hash).toBe(hashBody(body));
  });
});
