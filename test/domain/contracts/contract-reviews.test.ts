import { describe, expect, test } from "vitest";
import {
  formatContract, hashBody, parseContract, type Contract,
} from "../../../src/domain/contracts/contract-file.js";
import { decideSprint, parseReview } from "../../../src/domain/contracts/decide-sprint.js";
import type { ResultRow } from "../../../src/domain/experiments/results-table.js";
import { problemsOf } from "../../fixtures/configs/fake-probe.js";
import { T1, signed } from "./contract-fixtures.js";

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
