import { describe, expect, test } from "vitest";
import { toolOutputs } from "../helpers/model-server/index.js";
import { outputsOf, rowsOf, waitForOutput, withOrg } from "../helpers/real-template-checks.js";
import { hierarchyScript, independentScript, pipelineScript, THRESHOLD } from "../helpers/template-scripts.js";
import { git } from "../helpers/temp-repo.js";

// Each template from `org init --template` with several agents, its roles run by real CLIs behind a scripted model
// whose every move is a shell command the CLI runs with its own tool: one org per topology, all of its agents at once.
// The one-researcher templates are in real-templates-solo.clients, so the two files run side by side.

describe("every template from org init with several agents, run by real agent CLIs", () => {
  test("pipeline (codex planner, claude generator, codex evaluator): spec, refused submits, " +
    "objection, redraft, agreement, keep, review closes sprint 1", async () => {
    await withOrg(
      "pipeline",
      { planner: "codex", generator: "claude", evaluator: "codex" },
      pipelineScript,
      async (org) => {
        const reviewed = await waitForOutput(
          org,
          "evaluator-1",
          "the review that closes the sprint",
          (outputs) => outputs.includes("sprint 1 done: "),
          150_000,
        );
        const generator = outputsOf(org.requestsOf("generator-1").at(-1)!);
        expect(generator).toContain("# Spec\n\n1. Halve val_bpb: make train.py print 0.5; expect val_bpb below 0.9.");
        expect(generator).toContain(
          "org: no agreed contract for sprint 1: none is drafted yet — draft one: " +
            "org contract draft -f contract.md (nothing was committed)",
        );
        expect(generator).toMatch(
          new RegExp(
            "org: no agreed contract for sprint 1: (the evaluator has not signed it — the evaluator reads it, " +
              'then signs with `org contract sign` or objects with `org contract object "why"`|' +
              "evaluator-1 objected: assertion 4 names no threshold — revise the checklist, " +
              "then draft it again: org contract draft -f contract\\.md) \\(nothing was committed\\)",
          ),
        );
        expect(generator).toContain("objection: assertion 4 names no threshold");
        expect(generator).toMatch(/metric 0\.500000 · your best 0\.500000 \(\w{7}\) · delta -0\.500000 · keep/);
        expect(outputsOf(reviewed)).toMatch(
          /sprint 1's contract is agreed \(15 assertions, sha256:[0-9a-f]{16}\): the generator may submit/,
        );
        expect(outputsOf(reviewed)).toMatch(
          new RegExp(
            /sprint 1 done: 15\/15 assertions pass and the verifier kept [0-9a-f]{7} — /.source +
              /the review is state\/contracts\/sprint-1.review.md/.source,
          ),
        );
        expect(org.read("contracts/sprint-1.md")).toMatch(/^---\nsprint: 1\nstatus: done\n/);
        expect(org.read("contracts/sprint-1.md")).toContain(`- [ ] assertion 15 holds${THRESHOLD}\n`);
        expect(org.read("log.md")).toMatch(
          new RegExp(
            /\] contract \| sprint 1 objected to by evaluator-1\n[^]*/.source +
              /\] contract \| sprint 1 agreed\n[^]*\] sprint \| sprint 1 done\n/.source,
          ),
        );
        expect(rowsOf(org, "generator-1")).toEqual([
          ["keep", "baseline"],
          ["keep", "halve val_bpb"],
        ]);
        // The refused submits committed nothing: the branch holds the one kept commit.
        expect(git(org.dir, ["rev-list", "--count", "main..org/pipeline/generator-1"]).trim()).toBe("1");
        await waitForOutput(org, "planner-1", "the generator's report", (outputs) =>
          outputs.includes("experiment 1: keep, val_bpb 0.5 (-0.5)"),
        );
      },
    );
  }, 200_000);

  test("hierarchy (codex chief, two claude juniors): tasks, acknowledged, submitted, " +
    "reported; the chief has the discarded junior adopt the kept branch", async () => {
    await withOrg(
      "hierarchy",
      { chief: "codex", junior: "claude" },
      hierarchyScript("hierarchy", ["0.5", "1.5"]),
      async (org) => {
        const adopted = await waitForOutput(
          org,
          "junior-2",
          "the adopted branch's verdict",
          (outputs) => /submitted \w{7} "adopt \w+"[^]*· (keep|discard)/.test(outputs),
          150_000,
        );
        for (const [junior, value, verdict] of [
          ["junior-1", "0.5", "keep"],
          ["junior-2", "1.5", "discard"],
        ] as const) {
          const task = org.read(`agents/${junior}/task.md`);
          expect(task).toMatch(
            new RegExp(
              `^---\nfrom: chief-1\n[^]*\n---\n\nMake train.py print ${value}: does val_bpb ${value} beat 1.0\\?\n$`,
            ),
          );
          const id = /^message: (\S+)$/m.exec(task)![1]!;
          expect(org.read(`agents/${junior}/inbox/receipts/${id}.json`)).toContain(junior);
          expect(rowsOf(org, junior).slice(0, 2)).toEqual([
            ["keep", "baseline"],
            [verdict, `print ${value}`],
          ]);
        }
        const reports = await waitForOutput(org, "chief-1", "both reports", (outputs) =>
          /from junior-1 · result[^]*from junior-2 · result|from junior-2 · result[^]*from junior-1 · result/.test(
            outputs,
          ),
        );
        expect(outputsOf(reports)).toMatch(/print 0\.5: keep at \w{7}/);
        expect(outputsOf(reports)).toContain("print 1.5: discard at ");
        const kept = org.results().find((row) => row[5] === "junior-1" && row[4] === "print 0.5")![0]!;
        expect(outputsOf(adopted)).toContain(
          `adopt junior-1: git merge ${kept.slice(0, 7)} from org/hierarchy/junior-1, then submit it`,
        );
        expect(outputsOf(adopted)).toMatch(
          new RegExp(
            `metric 0\\.500000 · your best 0\\.500000 \\(${kept.slice(0, 7)}\\) · delta -0\\.500000 · keep`,
          ),
        );
        expect(git(org.dir, ["rev-parse", "org/hierarchy/junior-2"]).trim()).toBe(
          git(org.dir, ["rev-parse", "org/hierarchy/junior-1"]).trim(),
        );
      },
    );
  }, 200_000);

  // Gemini only where no notification has to wake it: an Enter inside its 40 ms unsafe-paste window becomes a newline.
  test("independent (two gemini researchers): read the board, " +
    "submit, note a lesson each, read both lessons", async () => {
    const values = { "researcher-1": "0.8", "researcher-2": "0.6" };
    const lessons = Object.entries(values).map(([agent, value]) => `${agent}: val_bpb ${value} is a keep`);
    await withOrg("independent", { researcher: "gemini" }, independentScript(values), async (org) => {
      await Promise.all(Object.entries(values).map(async ([agent, value]) => {
        // Its own lesson first: a submit whose verdict did not reach the CLI fails here, its output shown.
        const noted = await waitForOutput(org, agent, "its lesson noted", (outputs) => outputs.includes("noted on"));
        const [, submitted, note] = toolOutputs(noted.request);
        expect(submitted).toMatch(
          new RegExp(`metric ${value}00000 · your best ${value}00000 \\(\\w{7}\\) · delta -0\\.[24]00000 · keep`),
        );
        expect(note).toMatch(/noted on the board \([12] of 50 entries\)/);
        await waitForOutput(org, agent, "the board with both lessons", (outputs) =>
          lessons.every((lesson) => outputs.includes(lesson)),
        );
        expect(rowsOf(org, agent)).toEqual([["keep", "baseline"], ["keep", `print ${value}`]]);
      }));
      expect(org.read("notes.md")).toMatch(/^- \d{4}-\d\d-\d\d \d\d:\d\d researcher-1: val_bpb 0\.8 is a keep$/m);
    }, [["    count: 3\n", "    count: 2\n"]]);
  }, 150_000);

  test("a mixed hierarchy (claude chief, two codex juniors): " +
    "the chief tasks both, both submit, the chief reads both reports", async () => {
    await withOrg(
      "hierarchy",
      { chief: "claude", junior: "codex" },
      hierarchyScript("hierarchy", ["0.5", "0.7"]),
      async (org) => {
        const reports = await waitForOutput(
          org,
          "chief-1",
          "both reports",
          (outputs) => /print 0\.5: keep at \w{7}/.test(outputs) && /print 0\.7: keep at \w{7}/.test(outputs),
          150_000,
        );
        expect(outputsOf(reports)).toMatch(/## \S+ · from junior-\d · result · /);
        expect(rowsOf(org, "junior-1")).toEqual([
          ["keep", "baseline"],
          ["keep", "print 0.5"],
        ]);
        expect(rowsOf(org, "junior-2")).toEqual([
          ["keep", "baseline"],
          ["keep", "print 0.7"],
        ]);
        const sent = await org.org(["inbox", "--sent", "--agent", "chief-1"]);
        for (const junior of ["junior-1", "junior-2"])
          expect(sent.stdout).toMatch(new RegExp(` task "[^"]*": ${junior} read \\d`));
      },
    );
  }, 200_000);
});
