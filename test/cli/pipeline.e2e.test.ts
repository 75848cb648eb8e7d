import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { upOrgPerFile } from "../helpers/org-per-file.js";
import { pollUntil } from "../helpers/poll.js";
import { readScriptLog, scriptSection as section } from "../helpers/script-log.js";
import { git } from "../helpers/temp-repo.js";
import { bin } from "../helpers/test-org/index.js";

// Scripted agents (test/fixtures/bin/pipeline-*): the generator tries to submit before and during the negotiation.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  gen: { command: ["${bin("pipeline-generator")}"], restart: never }
  eval: { command: ["${bin("pipeline-evaluator")}"], restart: never }
roles:
  generator: { prompt: prompts/researcher.md, runtime: gen, edits: [train.sh], talks_to: [evaluator] }
  evaluator: { prompt: prompts/researcher.md, runtime: eval, edits: [review.md] }
contracts: { generator: generator, evaluator: evaluator }
verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;

const shared = upOrgPerFile({ yaml: orgYaml, files: { "train.sh": 'echo "val_bpb: 1.0"\n' } });
const script = (agent: string) => readScriptLog(shared.state, agent);

describe("the pipeline's contract protocol", () => {
  test("the generator's submits are refused until the contract is agreed; " +
    "the review of the kept commit closes the sprint", async () => {
    await pollUntil(
      () => script("evaluator-1").includes("== review\n") && /\nexit \d+\n$/.test(script("evaluator-1")),
      { what: "the evaluator's review", timeoutMs: 90_000 },
    ).catch((error: Error) => {
      const scripts = ["generator-1", "evaluator-1"].map((agent) => `${agent}:\n${script(agent).slice(0, 1500)}`);
      throw new Error(`${error.message}\n${scripts.join("\n")}`);
    });
    const generator = script("generator-1");
    expect(section(generator, "submit before any contract")).toBe(
      "org: no agreed contract for sprint 1: none is drafted yet — draft one: " +
        "org contract draft -f contract.md (nothing was committed)\nexit 1\n",
    );
    expect(section(generator, "sign")).toMatch(/^generator-1 signed sprint 1's contract/);
    expect(section(generator, "submit before the evaluator signs")).toBe(
      'org: no agreed contract for sprint 1: the evaluator has not signed it — the evaluator reads it, ' +
        'then signs with `org contract sign` or objects with `org contract object "why"` (nothing was ' +
        'committed)\nexit 1\n',
    );
    expect(section(generator, "submit after agreement")).toMatch(/keep[^]*\nexit 0\n$/);
    expect(section(script("evaluator-1"), "sign")).toMatch(
      /^sprint 1's contract is agreed \(15 assertions, sha256:[0-9a-f]{16}\): the generator may submit\nexit 0\n$/,
    );
    expect(section(script("evaluator-1"), "review")).toMatch(
      new RegExp(
        /^sprint 1 done: 15\/15 assertions pass and the verifier kept [0-9a-f]{7} /.source +
        /— the review is state\/contracts\/sprint-1.review.md; /.source,
      ),
    );
    // The refused submits committed nothing: the branch holds the one accepted commit.
    const { dir, name } = shared.org;
    expect(git(dir, ["rev-list", "--count", `main..org/${name}/generator-1`]).trim()).toBe("1");
    expect(readFileSync(join(shared.state, "log.md"), "utf8")).toMatch(/\] sprint \| sprint 1 done\n/);
  }, 120_000);
});
