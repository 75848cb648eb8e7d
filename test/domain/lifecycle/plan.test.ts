import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { buildLaunchSpec, listAgents, planAgents, substituteArgv } from "../../../src/domain/lifecycle/plan-agents.js";
import { renderPrompt } from "../../../src/roles/index.js";
import { tmuxSocket } from "../../../src/domain/paths.js";

const config = ConfigSchema.parse({
  name: "toy",
  runtimes: {
    claude: { command: ["claude", "--append-system-prompt-file", "{prompt_file}", "{kickoff}"], env: { FOO: "1" } },
    hill: { builtin: "hillclimb" },
  },
  roles: {
    chief: { prompt: "prompts/chief.md", runtime: "claude" },
    researcher: { prompt: "prompts/researcher.md", runtime: "hill", count: 2, gpu: true },
  },
});

describe("plan", () => {
  test("roles × count → agents in org.yaml order with branches and worktrees", () => {
    expect(listAgents(config).map((agent) => agent.name)).toEqual(["chief-1", "researcher-1", "researcher-2"]);
    const agents = planAgents(
      config,
      "/o/worktrees",
      new Map([["chief-1", null], ["researcher-1", 0], ["researcher-2", 3]]),
    );
    expect(agents[2]).toEqual({
      name: "researcher-2", role: "researcher", runtime: "hill", branch: "org/toy/researcher-2",
      worktree: "/o/worktrees/researcher-2", gpu: 3, needsGpu: true,
    });
  });

  test("placeholders are replaced only as whole argv elements", () => {
    expect(substituteArgv(["x{agent}", "{agent}", "{unknown}", "--a={gpu}"], { agent: "a-1", gpu: "0" })).toEqual([
      "x{agent}", "a-1", "{unknown}", "--a={gpu}",
    ]);
  });

  test("the launch spec carries argv, env and the GPU lease", () => {
    const [chief, researcher] = planAgents(config, "/o/worktrees", new Map([["chief-1", null], ["researcher-1", 2]]));
    const context = {
      state: "/o/state", root: "/o", orgArgv: ["/node", "/pkg/bin/org.js"], binDir: "/o/state/bin",
      basePath: "/usr/bin",
    };
    const spec = buildLaunchSpec(config, chief!, context);
    expect(spec.argv).toEqual([
      "claude", "--append-system-prompt-file", "/o/state/agents/chief-1/prompt.md",
      "Read your system prompt and begin. Loop forever; never ask to stop.",
    ]);
    expect(spec.env).toMatchObject({
      FOO: "1", ORG_AGENT: "chief-1", ORG_ROLE: "chief", ORG_STATE: "/o/state", ORG_WORKTREE: "/o/worktrees/chief-1",
      ORG_INBOX: "/o/state/agents/chief-1/inbox", ORG_PROGRESS: "/o/state/agents/chief-1/own/progress.md",
      ORG_TASK: "/o/state/agents/chief-1/task.md", CUDA_VISIBLE_DEVICES: "", ORG_EDITS: "",
      PATH: "/o/state/bin:/usr/bin",
    });
    const builtin = buildLaunchSpec(config, researcher!, context);
    expect(builtin.argv).toEqual(["/node", "/pkg/bin/org.js", "builtin", "hillclimb"]);
    expect(builtin.env.CUDA_VISIBLE_DEVICES).toBe("2");
    expect(builtin).toMatchObject({
      restart: "on-failure", backoffMs: 1000, maxBackoffMs: 30_000, maxRestarts: 10, healthyAfterMs: 60_000,
    });
  });

  test("the socket derives from the name and folder", () => {
    expect(tmuxSocket("toy", "/a")).toMatch(/^org-toy-[0-9a-f]{6}$/);
    expect(tmuxSocket("toy", "/a")).not.toBe(tmuxSocket("toy", "/b"));
  });

  test("prompts render per agent, leave unknown names visible and end with org's full path "
    + "for a shell that lost PATH", () => {
    const text = renderPrompt("You are {{agent}} on GPU {{gpu}}; {{nope}}\n\n", {
      org: "toy", agent: "r-1", role: "r", branch: "b", worktree: "w", gpu: "0", inbox: "i", progress: "p", task: "t",
      edits: "", protected: "", metric: "m", goal: "minimize", queue_per_agent: "2", org_bin: "/o/state/bin/org",
    });
    expect(text.split("\n").slice(1)).toEqual([
      "You are r-1 on GPU 0; {{nope}}",
      "",
      "---",
      "`org` is on your PATH. If your shell ever answers `org: command not found`, run it by its full path instead: "
        + "`/o/state/bin/org` (same arguments).",
      "",
    ]);
  });
});
