import { describe, expect, test } from "vitest";
import { toolOutputs, userTexts } from "../helpers/model-server/index.js";
import { outputsOf, rowsOf, waitForOutput, withOrg } from "../helpers/real-template-checks.js";
import { asyncScript, autoresearchScript } from "../helpers/template-scripts.js";
import { notice } from "../helpers/template-minds.js";

// The one-researcher template from `org init --template`, run by real CLIs behind a scripted model whose every move
// is a shell command the CLI runs with its own tool (the templates with several agents: real-templates.clients).

const ROWS = [["keep", "baseline"], ["keep", "print 0.8"], ["discard", "print 0.9"]];

describe("the one-researcher template from org init, run by real agent CLIs", () => {
  test("autoresearch (one opencode researcher): submits, gets a keep, submits again, gets a discard", async () => {
    await withOrg("autoresearch", { researcher: "opencode" }, autoresearchScript, async (org) => {
      const second = await waitForOutput(org, "researcher-1", "the second verdict",
        (outputs) => outputs.includes("· discard"), 120_000);
      const [first, last] = toolOutputs(second.request).slice(-2);
      expect(first).toMatch(/metric 0\.800000 · your best 0\.800000 \(\w{7}\) · delta -0\.200000 · keep/);
      expect(last).toMatch(/metric 0\.900000 · your best 0\.800000 \(\w{7}\) · delta \+0\.100000 · discard/);
      expect(rowsOf(org, "researcher-1")).toEqual(ROWS);
    });
  }, 150_000);

  // The CLI's own shell queues with `org submit --no-wait`, gets the id, `org wait`s the first, and the verdicts reach
  // it as inbox messages.
  test.each(["claude", "codex"] as const)("asynchronous submit (one %s researcher): --no-wait prints the id, " +
    "org wait prints the verdict, both verdicts arrive as messages", async (cli) => {
    await withOrg("autoresearch", { researcher: cli }, asyncScript, async (org) => {
      const read = (outputs: string) =>
        /## verdict discard for \w{7} "print 0\.9"/.test(outputs) &&
        /## verdict keep for \w{7} "print 0\.8"/.test(outputs);
      const both = await waitForOutput(org, "researcher-1", "both verdicts read from the inbox", read, 150_000);
      const outputs = toolOutputs(both.request);
      expect(outputs[0]).toMatch(new RegExp('^queued \\w{7} "print 0\\.8" as \\S+-researcher-1-\\w{7}\\n' +
        "its verdict comes to your inbox \\(`org inbox`\\); `org wait \\S+` waits for it here", "m"));
      expect(outputs[1]).toMatch(/^queued \w{7} "print 0\.9" as \S+/m);
      expect(outputs[2]).toMatch(/metric 0\.800000 · your best 0\.800000 \(\w{7}\) · delta -0\.200000 · keep/);
      expect(outputsOf(both)).toMatch(/metric 0\.900000 · your best 0\.800000 \(\w{7}\) · delta \+0\.100000 · discard/);
      expect(userTexts(both.request).some((text) => notice("verifier", "verdict").test(text))).toBe(true);
      expect(rowsOf(org, "researcher-1")).toEqual(ROWS);
    });
  }, 200_000);
});
