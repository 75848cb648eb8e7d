import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatEntry, hashText, sealEntry } from "../../../src/domain/experiments/journal.js";
import { parseMessage } from "../../../src/domain/messages/message-head.js";
import { runOrg, type CliResult } from "../../helpers/org-cli.js";
import { expectRefusedIn, snapshotDir } from "../../helpers/state-snapshot.js";
import { createTestOrg, teardownOrg, type TestOrg } from "../../helpers/test-org/index.js";

// No `org up`: contracts, reviews and tasks are files in state, so the commands need only org.yaml.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  bot: { command: [bot] }
roles:
  planner: { prompt: prompts/researcher.md, runtime: bot }
  generator: { prompt: prompts/researcher.md, runtime: bot, reports_to: planner }
  evaluator: { prompt: prompts/researcher.md, runtime: bot, reports_to: planner }
  chief: { prompt: prompts/researcher.md, runtime: bot }
  junior: { prompt: prompts/researcher.md, runtime: bot, count: 2, reports_to: chief }
contracts: { generator: generator, evaluator: evaluator }
messages: { max_bytes: 400 }
`;

let org: TestOrg;
let state: string;
const snapshot = () => snapshotDir(state);
const expectRefused = (result: CliResult, stderr: string, before: Record<string, string>) =>
  expectRefusedIn(state, result, `org: ${stderr}`, before);
const as = (agent: string, ...args: string[]) => runOrg(args, { cwd: org.dir, env: { ORG_AGENT: agent } });
const write = (name: string, text: string) => writeFileSync(join(org.dir, name), text);
const checklist = (n: number) => Array.from({ length: n }, (_, i) => `- [ ] assertion ${i + 1} holds`).join("\n");
const contractFile = () => join(state, "contracts", "sprint-1.md");
const inbox = (agent: string) => {
  const dir = join(state, "agents", agent, "inbox");
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(".md"))
        .sort()
        .map((name) => parseMessage(readFileSync(join(dir, name), "utf8")))
    : [];
};


describe("org contract, org review and org task", () => {
  beforeAll(() => {
    org = createTestOrg({ yaml: orgYaml });
    state = join(org.dir, "state");
  });
  afterAll(() => teardownOrg(org));

  test("before any draft, status says who drafts; only the generator drafts, only the parties sign", () => {
    expect(as("planner-1", "contract", "status")).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "no contract yet: the generator (role generator) drafts sprint 1's with org contract draft -f contract.md\n",
    });
    write("contract.md", checklist(15));
    const before = snapshot();
    expectRefused(
      as("evaluator-1", "contract", "draft", "-f", "contract.md"),
      "evaluator-1 may not draft the contract: only role generator may (contracts in org.yaml) (nothing was changed)",
      before,
    );
    expectRefused(
      as("generator-1", "contract", "sign"),
      "no contract is drafted yet — the generator drafts one: org contract draft -f contract.md",
      before,
    );
    expectRefused(
      as("", "contract", "sign"),
      "a person cannot sign a contract: the agents of roles generator and evaluator do — " +
        "run it with ORG_AGENT set to one of them",
      before,
    );
  });

  test("a draft with too few assertions is stored, but cannot be signed", () => {
    write("contract.md", `# Sprint 1\n\n${checklist(3)}\n`);
    const drafted = as("generator-1", "contract", "draft", "-f", "contract.md");
    expect(drafted).toEqual({
      code: 0,
      stderr: "",
      stdout:
        'sprint 1\'s contract drafted by generator-1 (3 assertions): state/contracts/sprint-1.md — ' +
          'the evaluator signs it (`org contract sign`) or objects (`org contract object "why"`)\n',
    });
    expect(inbox("evaluator-1")).toMatchObject([{ ok: true, message: { from: "generator-1", kind: "contract" } }]);
    const before = snapshot();
    expectRefused(
      as("generator-1", "contract", "sign"),
      "sprint 1's contract cannot be agreed: it has 3 assertions, fewer than the 15 required " +
        "(contracts.min_assertions) — the generator adds testable assertions and drafts it again (nothing was changed)",
      before,
    );
  });

  test("both parties sign the same checklist: agreed, logged, and the other party told", () => {
    write("contract.md", `# Sprint 1\n\n${checklist(15)}\n`);
    expect(as("generator-1", "contract", "draft", "-f", "contract.md").code).toBe(0);
    expect(as("generator-1", "contract", "sign").stdout).toMatch(
      new RegExp(
        /^generator-1 signed sprint 1's contract \(sha256:[0-9a-f]{16}\); it is agreed once the other party /.source +
        /signs it too: state\/contracts\/sprint-1.md\n$/.source,
      ),
    );
    expect(as("generator-1", "contract", "status").stdout).toMatch(
      /^sprint 1: not agreed — the evaluator has not signed it; /,
    );
    const signed = as("evaluator-1", "contract", "sign");
    expect(signed.stdout).toMatch(
      /^sprint 1's contract is agreed \(15 assertions, sha256:[0-9a-f]{16}\): the generator may submit\n$/,
    );
    expect(inbox("generator-1").at(-1)).toMatchObject({ ok: true, message: { from: "evaluator-1", kind: "contract" } });
    const status = as("planner-1", "contract", "status").stdout.split("\n");
    expect(status[0]).toMatch(/^sprint 1: agreed by generator-1 and evaluator-1 at /);
    expect(status[2]).toMatch(/^generator: generator-1 signed /);
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      /\] contract \| sprint 1 signed by generator-1\n\n## \[[^\]]+\] contract \| sprint 1 agreed\n\n$/,
    );
  });

  test("a review must cover the contract; all passing without a kept commit leaves the sprint open", () => {
    const before = snapshot();
    write("review.md", checklist(14).replaceAll("[ ]", "[x]"));
    expectRefused(
      as("generator-1", "review", "-f", "review.md"),
      "generator-1 may not review: only role evaluator reviews (contracts.evaluator in org.yaml) (nothing was changed)",
      before,
    );
    expectRefused(
      as("evaluator-1", "review", "-f", "review.md"),
      'review.md:14: the review misses 1 of the contract\'s 15 assertions, the first: ' +
        '"assertion 15 holds" (its line 26) — review every assertion: tick it [x] with evidence, ' +
        'or leave it [ ] and say why it fails (nothing was changed)',
      snapshot(),
    );
    write("review.md", `${checklist(15).replaceAll("[ ]", "[x]")}\n`);
    const open = as("evaluator-1", "review", "-f", "review.md");
    expect(open).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "sprint 1 reviewed by evaluator-1: 15/15 assertions pass, but the verifier has not kept any commit of the " +
          "generator since the contract was agreed — the review is state/contracts/sprint-1.review.md\n",
    });
    expect(readFileSync(join(state, "contracts", "sprint-1.review.md"), "utf8")).toMatch(
      new RegExp(
        /^---\nsprint: 1\nby: evaluator-1\ntime: \S+\npassed: "15\/15"\nverdict: open\n---\n\n/.source +
        /- \[x\] assertion 1 holds\n/.source,
      ),
    );
  });

  test("every item passing on a commit the verifier kept closes the sprint: " +
    "log.md says so and submits need the next contract", () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    const header = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tagent\tgpu\tseconds\ttime\n";
    // The same keep written by hand after the journal began is no keep: the sprint stays open.
    const genesis = sealEntry(
      undefined,
      { kind: "genesis", payload: { results: { lines: 1, sha256: hashText(header) }, frontier: null } },
      new Date(),
    );
    writeFileSync(join(state, "journal.jsonl"), `${formatEntry(genesis)}\n`);
    writeFileSync(
      join(state, "results.tsv"),
      `${header}1a2b3c4\t0.900000\t1.0\tkeep\tcosine schedule\tgenerator-1\tcpu\t3.0\t${later}\n`,
    );
    expect(as("evaluator-1", "review", "-f", "review.md").stdout).toMatch(
      /^sprint 1 reviewed by evaluator-1: 15\/15 assertions pass, but the verifier has not kept any commit/,
    );
    // An org from before the journal: its rows are the verifier's.
    rmSync(join(state, "journal.jsonl"));
    const done = as("evaluator-1", "review", "-f", "review.md");
    expect(done.stderr).toBe("");
    expect(done.stdout).toBe(
      "sprint 1 done: 15/15 assertions pass and the verifier kept 1a2b3c4 — " +
        "the review is state/contracts/sprint-1.review.md; draft the next sprint's contract: " +
        "org contract draft -f contract.md\n",
    );
    expect(readFileSync(join(state, "log.md"), "utf8")).toMatch(
      new RegExp(
        /## \[[^\]]+\] sprint \| sprint 1 done\nsprint 1 done: 15\/15 assertions pass and the verifier kept /.source +
        /1a2b3c4 \(state\/contracts\/sprint-1.review.md\)\n\n$/.source,
      ),
    );
    expect(readFileSync(contractFile(), "utf8")).toMatch(/\nstatus: done\n[^]*\ndone_commit: 1a2b3c4\n/);
    expect(as("planner-1", "contract", "status").stdout.split("\n")[0]).toBe(
      "sprint 1: sprint 1 is done (commit 1a2b3c4)",
    );
    expect(as("generator-1", "contract", "draft", "-f", "contract.md").stdout).toMatch(
      /^sprint 2's contract drafted by generator-1/,
    );
  });

  test("a contract broken by hand names its file and line; signing changes nothing, a redraft replaces it", () => {
    const file = join(state, "contracts", "sprint-2.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("status: draft", "status: agreed-ish"));
    const before = snapshot();
    expectRefused(
      as("evaluator-1", "contract", "sign"),
      'state/contracts/sprint-2.md:3: status "agreed-ish" is not a contract status — write status: ' +
        'draft | objected | agreed | done; or the generator drafts it again (nothing was changed)',
      before,
    );
    expect(as("planner-1", "contract", "status")).toMatchObject({
      code: 1,
      stdout:
        'sprint 2: unreadable — state/contracts/sprint-2.md:3: status "agreed-ish" is not a contract status — ' +
          'write status: draft | objected | agreed | done\n',
    });
    expect(as("generator-1", "contract", "draft", "-f", "contract.md").stdout).toMatch(/^sprint 2's contract drafted/);
    write("bad.md", "---\nsprint 1\n---\n- [ ] a\n");
    expectRefused(
      as("generator-1", "contract", "draft", "-f", "bad.md"),
      'bad.md:2: front matter line "sprint 1" is not "key: value" — write it as key: value, e.g. sprint: ' +
        '1 (nothing was changed)',
      snapshot(),
    );
  });

  test("the evaluator objects: not agreed, the generator is told why", () => {
    const objected = as("evaluator-1", "contract", "object", "assertion", "4", "names", "no", "threshold");
    expect(objected.stdout).toBe(
      "evaluator-1 objects to sprint 2's contract: assertion 4 names no threshold — " +
        "the generator revises state/contracts/sprint-2.md and drafts it again\n",
    );
    expect(inbox("generator-1").at(-1)).toMatchObject({
      ok: true,
      message: {
        kind: "contract",
        body: "evaluator-1 objects to sprint 2's contract: assertion 4 names no threshold — " +
          "the generator revises state/contracts/sprint-2.md and drafts it again\n",
      },
    });
    expect(as("generator-1", "contract", "status").stdout.split("\n")[0]).toBe(
      "sprint 2: not agreed — evaluator-1 objected: assertion 4 names no threshold; revise the checklist, " +
        "then draft it again: org contract draft -f contract.md",
    );
  });

  test("the chief's task becomes the junior's task.md and a message; the previous one is archived", () => {
    const set = as("chief-1", "task", "junior-1", "Try a cosine schedule; three submits at most.");
    expect(set.stderr).toBe("");
    const id = /delivered as (\S+) —/.exec(set.stdout)![1]!;
    expect(set.stdout).toBe(
      `task set for junior-1 in state/agents/junior-1/task.md and delivered as ${id} — ` +
        `\`org inbox --sent\` shows when it is read\n`,
    );
    const task = join(state, "agents", "junior-1", "task.md");
    expect(readFileSync(task, "utf8")).toMatch(
      new RegExp(
        `^---\\nfrom: chief-1\\ntime: \\S+\\nmessage: ${id}\\n---\\n\\nTry a cosine schedule; ` +
          `three submits at most.\\n$`,
      ),
    );
    expect(inbox("junior-1")).toMatchObject([
      {
        ok: true,
        message: {
          id,
          from: "chief-1",
          kind: "task",
          body: "New task from chief-1; it stays in state/agents/junior-1/task.md ($ORG_TASK) " +
            "until the next one replaces it.\n\nTry a cosine schedule; three submits at most.\n",
        },
      },
    ]);
    write("task.md", "# Warmup\nTry 5% warmup.\n");
    expect(as("chief-1", "task", "junior-1", "-f", "task.md").code).toBe(0);
    expect(readFileSync(task, "utf8")).toMatch(/\n\n# Warmup\nTry 5% warmup.\n$/);
    expect(readFileSync(join(state, "agents", "junior-1", "task-archive.md"), "utf8")).toContain(
      "Try a cosine schedule",
    );
  });

  test("tasks to a bad name, from the wrong role, or too big are refused and change nothing", () => {
    const before = snapshot();
    expectRefused(
      as("chief-1", "task", "../junior-1", "x"),
      'agent "../junior-1" contains ".", "/" — name an agent such as planner-1 (nothing was changed)',
      before,
    );
    expectRefused(
      as("chief-1", "task", "junior/1", "x"),
      'agent "junior/1" contains "/" — name an agent such as planner-1 (nothing was changed)',
      before,
    );
    expectRefused(
      as("junior-1", "task", "junior-2", "x"),
      'junior-1 may not give junior-2 a task: role junior does not report to role junior — ' +
        'tasks for junior-2 come from role chief; send a note instead: org send junior-2 "…" (nothing was changed)',
      before,
    );
    expectRefused(
      as("chief-1", "task", "junior-2", "x".repeat(400)),
      "the message is 511 bytes, over the cap of 400 (messages.max_bytes in org.yaml) — shorten it, " +
        "or write the details to a file and send its path (nothing was changed)",
      before,
    );
  });
});
