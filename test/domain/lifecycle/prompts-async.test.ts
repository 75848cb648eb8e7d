// The prompts that submit teach the asynchronous pattern, with the org's own queue_per_agent filled in.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { renderAgentPrompt } from "../../../src/domain/lifecycle/prepare-agents.js";
import { renderStarter } from "../../../src/roles/starter.js";
import { PACKAGE_ROOT } from "../../helpers/org-cli.js";

const config = ConfigSchema.parse({
  name: "toy",
  roles: { r: { prompt: "p.md", runtime: "claude", gpu: true } },
  verify: {
    command: ["sh", "train.sh"],
    metric: { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)" },
    queue_per_agent: 3,
  },
});
const agent = {
  name: "r-1",
  role: "r",
  runtime: "claude",
  branch: "org/toy/r-1",
  worktree: "/o/worktrees/r-1",
  gpu: 0,
  needsGpu: true,
};

describe("prompts that submit", () => {
  const templates = [
    ...["researcher", "independent", "junior", "generator"].map((name) => {
      const prompt = readFileSync(join(PACKAGE_ROOT, "prompts", `${name}.md`), "utf8");
      return [name, prompt] as const;
    }),
    ["org init's starter", renderStarter().prompt] as const,
  ];
  const queueTitle = "%s: queue with --no-wait, read the verdict from the inbox or org wait, at most queue_per_agent";
  test.each(templates)(queueTitle, (_name, template) => {
    const text = renderAgentPrompt(config, agent, "/o/state", template).replace(/\s+/g, " ");
    expect(text).toContain("org submit --no-wait -m");
    expect(text).toContain("`org wait <id>`");
    expect(text).toMatch(/verdict (arrives in|comes to) your inbox/);
    expect(text).toContain("At most 3 may be queued");
    expect(text).not.toContain("{{queue_per_agent}}");
  });
  test.each(templates)("%s: look up an idea with `org tried` before trying it", (_name, template) => {
    const text = renderAgentPrompt(config, agent, "/o/state", template).replace(/\s+/g, " ");
    expect(text).toContain("org tried <a few words of it>");
  });
});

describe("a meta role's prompt", () => {
  const meta = ConfigSchema.parse({
    name: "toy",
    roles: {
      r: { prompt: "p.md", runtime: "claude", gpu: true },
      m: { prompt: "m.md", runtime: "claude", edits: ["org.yaml", "prompts/**"] },
    },
    verify: { command: ["sh", "train.sh"], metric: { name: "val_bpb", pattern: "^val_bpb: ([0-9.]+)" } },
  });
  test("the outer loop is told to read the inner loops' traces; a researcher is not", () => {
    const prompt = renderAgentPrompt(meta, { ...agent, name: "m-1", role: "m" }, "/o/state", "Improve the org.");
    const text = prompt.replace(/\s+/g, " ");
    expect(text).toContain(
      "`org traces --diverged` — every discard and crash, the agent's stated expectation beside the verdict",
    );
    expect(text).toContain("`org traces <agent> --experiment <id>`");
    expect(text).toContain("your edits: org.yaml, prompts/**");
    expect(text.indexOf("org traces")).toBeLessThan(text.indexOf("`org` is on your PATH"));
    expect(renderAgentPrompt(meta, agent, "/o/state", "Research.")).not.toContain("org traces");
  });
});
