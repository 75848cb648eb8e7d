import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseMessage, type Message } from "../../../src/domain/messages/message-head.js";
import { upOrgPerFile } from "../../helpers/org-per-file.js";
import { pollUntil } from "../../helpers/poll.js";
import { readScriptLog } from "../../helpers/script-log.js";
import { bin } from "../../helpers/test-org/index.js";

// Scripted agents (test/fixtures/bin/hierarchy-*): the chief sets tasks, junior-1 does its task and submits.
const orgYaml = (name: string) => `name: ${name}
gpus: none
runtimes:
  chief: { command: ["${bin("hierarchy-chief")}"], restart: never }
  junior: { command: ["${bin("hierarchy-junior")}"], restart: never }
roles:
  chief: { prompt: prompts/researcher.md, runtime: chief, edits: [plan.md] }
  junior: { prompt: prompts/researcher.md, runtime: junior, count: 2, edits: [train.sh], reports_to: chief }
standup: { to: chief, every: 1h, verdicts: 1 }
messages: { idle: 300ms }
verify:
  command: [sh, train.sh]
  metric: { name: val_bpb, pattern: '^val_bpb:\\s*([0-9.]+)' }
  repeats: 1
  keep: { k: 0, min_delta: 0, confirm: 0 }
`;

const shared = upOrgPerFile({ yaml: orgYaml, files: { "train.sh": 'echo "val_bpb: 1.0"\n' } });
const file = (...parts: string[]) => join(shared.state, "agents", ...parts);
const script = (agent: string) => readScriptLog(shared.state, agent);
const standups = (): Message[] => {
  const dir = file("chief-1", "inbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => name.endsWith(".md")).sort().flatMap((name) => {
    const parsed = parseMessage(readFileSync(join(dir, name), "utf8"));
    return parsed.ok && parsed.message.kind === "standup" ? [parsed.message] : [];
  });
};

describe("the hierarchy's tasks and standups", () => {
  test("the chief's task reaches the junior, which reads and acknowledges it", async () => {
    await pollUntil(() => /== read \S+\nmarked read: \S+\nexit 0\n/.test(script("junior-1")), {
      what: "junior-1 to acknowledge its task",
      timeoutMs: 30_000,
    }).catch((error: Error) => {
      const junior = script("junior-1").slice(0, 1500);
      throw new Error(`${error.message}\nchief-1:\n${script("chief-1")}\njunior-1:\n${junior}`);
    });
    expect(script("chief-1")).toMatch(
      /^== task junior-1\ntask set for junior-1 in state\/agents\/junior-1\/task.md and delivered as (\S+) — /,
    );
    expect(readFileSync(file("junior-1", "task.md"), "utf8")).toMatch(
      /^---\nfrom: chief-1\n[^]*\n---\n\nHalve the loss: make train.sh print 0.5\n$/,
    );
    expect(script("junior-1")).toContain("## ");
    expect(script("junior-1")).toContain("Halve the loss: make train.sh print 0.5");
    const id = /delivered as (\S+) —/.exec(script("chief-1"))![1]!;
    expect(existsSync(file("junior-1", "inbox", "receipts", `${id}.json`))).toBe(true);
    // The chief sets junior-2's task after junior-1's, which junior-1 may acknowledge first (seen under load).
    await pollUntil(() => /== task junior-2\n[^]*exit 0\n/.test(script("chief-1")), { what: "junior-2's task set" });
    expect(readFileSync(file("junior-2", "task.md"), "utf8")).toMatch(
      /\n\n# Keep the baseline\nSubmit nothing; report the baseline.\n$/,
    );
  }, 60_000);

  test("the standup digest reaches the chief's inbox and pane: each junior's task, results and best", async () => {
    const latest = () => standups().find((message) => message.body.includes('keep 0.5 "halve the loss"'));
    const what = "a standup with junior-1's kept submit";
    await pollUntil(latest, { what, timeoutMs: 60_000 }).catch((error: Error) => {
      const bodies = standups().map((message) => message.body).join("\n");
      throw new Error(`${error.message}\nstandups:\n${bodies}\njunior-1:\n${script("junior-1").slice(0, 1500)}`);
    });
    const digest = latest()!;
    expect(digest).toMatchObject({ from: "org", to: "chief-1", kind: "standup" });
    expect(digest.body).toMatch(
      new RegExp(/^# Standup \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\n\d+ verdicts? since the last standup\. Org best: /.source
        + /val_bpb 0\.5 by junior-1 \([0-9a-f]{7}\)\.\n/.source),
    );
    expect(digest.body).toContain("## junior-1 — running\n- task from chief-1 at ");
    expect(digest.body).toContain(
      ": Halve the loss: make train.sh print 0.5\n- best: val_bpb 0.5 (-0.5 vs baseline 1) at ",
    );
    expect(digest.body).toContain("## junior-2 — running\n- task from chief-1 at ");
    expect(digest.body).toContain(": Keep the baseline\n- best: val_bpb 1 (the baseline) at ");
    const notified = () =>
      readFileSync(file("chief-1", "notifications.jsonl"), "utf8").split("\n").filter(Boolean).map((line) =>
        JSON.parse(line) as { outcome: string; ids: string[] });
    await pollUntil(() =>
      existsSync(file("chief-1", "notifications.jsonl")) && notified().some((entry) => entry.ids.includes(digest.id)), {
      what: "the chief's notification",
      timeoutMs: 20_000,
    });
    expect(notified().find((entry) => entry.ids.includes(digest.id))).toMatchObject({ outcome: "typed" });
  }, 90_000);
});
