import { describe, expect, test } from "vitest";
import { ConfigSchema } from "../../../src/domain/config/schema.js";
import { orgPaths } from "../../../src/domain/paths.js";
import { listAgents } from "../../../src/domain/lifecycle/plan-agents.js";
import {
  buildDesired, describeAction, reconcile, summarizeActions, type DesiredOrg, type ObservedOrg,
} from "../../../src/domain/reconcile/index.js";
import { observeAsDesired } from "../../helpers/observed-org.js";

const ROOT = "/org";
const paths = orgPaths(ROOT);
const context = {
  state: paths.state, root: ROOT, orgArgv: ["/node", "/pkg/bin/org.js"], binDir: `${paths.state}/bin`,
  basePath: "/usr/bin",
};
const TEMPLATES: Record<string, string> = {
  "prompts/researcher.md": "# {{agent}} on GPU {{gpu}}, edits {{edits}}\n",
  "prompts/reviewer.md": "# reviewer {{agent}}\n",
};

type Yaml = Record<string, unknown> & {
  roles: Record<string, Record<string, unknown>>;
  runtimes: Record<string, Record<string, unknown>>;
};

const base = (): Yaml => ({
  name: "toy",
  gpus: "none",
  runtimes: { idle: { command: ["forever", "{kickoff}"] }, other: { command: ["other"] } },
  roles: { researcher: { prompt: "prompts/researcher.md", runtime: "idle", count: 2, edits: ["train.py"] } },
});

/** What org.yaml `yaml` asks for; GPU leases by agent name, CPU when absent. */
function desire(
  yaml: Yaml,
  leases: Record<string, number> = {},
  options: { repo?: string; templates?: Record<string, string>; pool?: number[] } = {},
): DesiredOrg {
  const config = ConfigSchema.parse(yaml);
  const templates = { ...TEMPLATES, ...options.templates };
  return buildDesired({
    config, repoDir: options.repo ?? ROOT, paths, context,
    cpuMode: Object.keys(leases).length === 0 && !options.pool?.length, pool: options.pool,
    leases: new Map(listAgents(config).map((agent) => [agent.name, leases[agent.name] ?? null])),
    templates: new Map(Object.entries(config.roles).map(([role, spec]) => [role, templates[spec.prompt] ?? ""])),
  });
}

/** The org as `org up` left it for `desired`: every file written, every pane alive. */
function plan(
  before: DesiredOrg,
  after: DesiredOrg,
  tweak: (observed: ObservedOrg) => void = () => undefined,
): string[] {
  const observed = observeAsDesired(before);
  tweak(observed);
  const result = reconcile(after, observed);
  return result.kind === "refused"
    ? result.refusals.map((refusal) => `refused ${refusal.key}: ${refusal.message} — ${refusal.fix}`)
    : result.actions.map(describeAction);
}

function edit(change: (yaml: Yaml) => void): Yaml {
  const yaml = base();
  change(yaml);
  return yaml;
}

describe("reconcile: every kind of org.yaml edit → the exact actions", () => {
  test("the same org.yaml: nothing to do", () => {
    expect(plan(desire(base()), desire(base()))).toEqual(["= nothing to do: the running org matches org.yaml"]);
  });

  test("a higher count adds the agent and re-tiles", () => {
    expect(plan(desire(base()), desire(edit((y) => (y.roles.researcher!.count = 3))))).toEqual([
      "+ add researcher-3 (roles.researcher.count 2 → 3): worktree, pane",
      "# retile the grid: 4 panes (panes 1 added)",
    ]);
  });

  test("a lower count removes the last agents, keeping branch and worktree", () => {
    expect(plan(desire(base()), desire(edit((y) => (y.roles.researcher!.count = 1))))).toEqual([
      "- remove researcher-2 (roles.researcher.count 2 → 1): stop it; "
        + "branch org/toy/researcher-2 and its worktree are kept",
      "# retile the grid: 2 panes (panes 1 removed)",
    ]);
  });

  test("a new role adds its agents; a removed role removes them, freeing their GPUs", () => {
    const withReviewer = edit((y) => (y.roles.reviewer = { prompt: "prompts/reviewer.md", runtime: "other" }));
    expect(plan(desire(base()), desire(withReviewer))).toEqual([
      "+ add reviewer-1 (role reviewer is new): worktree, pane",
      "# retile the grid: 4 panes (panes 1 added)",
    ]);
    const gpuOrg = edit((y) => ((y.gpus = "auto"), (y.roles.researcher!.gpu = true)));
    const gpuWithReviewer = edit((y) => ((y.gpus = "auto"), (y.roles.researcher!.gpu = true), (y.roles.reviewer = {
      prompt: "prompts/reviewer.md",
      runtime: "other",
    })));
    const reviewerOnly = edit((y) => {
      y.gpus = "auto";
      y.roles = { reviewer: { prompt: "prompts/reviewer.md", runtime: "other" } };
    });
    expect(plan(desire(gpuWithReviewer, { "researcher-1": 0, "researcher-2": 1 }), desire(reviewerOnly)))
      .toEqual([
        "- remove researcher-1 (role researcher was removed): stop it, free GPU 0; "
          + "branch org/toy/researcher-1 and its worktree are kept",
        "- remove researcher-2 (role researcher was removed): stop it, free GPU 1; "
          + "branch org/toy/researcher-2 and its worktree are kept",
        "# retile the grid: 2 panes (panes 2 removed)",
      ]);
    const threeOnGpus = edit((y) => {
      y.gpus = "auto";
      y.roles.researcher!.gpu = true;
      y.roles.researcher!.count = 3;
    });
    const gpus = { "researcher-1": 0, "researcher-2": 1, "researcher-3": 2 };
    expect(plan(desire(gpuOrg, { "researcher-1": 0, "researcher-2": 1 }), desire(threeOnGpus, gpus)))
      .toEqual([
      "+ add researcher-3 (roles.researcher.count 2 → 3): worktree, GPU 2, pane",
      "# retile the grid: 4 panes (panes 1 added)",
    ]);
  });

  test("a changed runtime command restarts every agent running it", () => {
    expect(
      plan(desire(base()), desire(edit((y) => (y.runtimes.idle!.command = ["forever", "--fast", "{kickoff}"])))),
    ).toEqual([
      "~ restart researcher-1 (command changed)", "~ restart researcher-2 (command changed)",
    ]);
  });

  test("a changed kickoff restarts only when the command uses it", () => {
    expect(plan(desire(base()), desire(edit((y) => (y.roles.researcher!.kickoff = "Go."))))).toEqual([
      "~ restart researcher-1 (command changed)",
      "~ restart researcher-2 (command changed)",
    ]);
    const noKickoff = (y: Yaml) => (y.runtimes.idle!.command = ["forever"]);
    expect(
      plan(desire(edit(noKickoff)), desire(edit((y) => (noKickoff(y), (y.roles.researcher!.kickoff = "Go."))))),
    ).toEqual(["= nothing to do: the running org matches org.yaml"]);
  });

  test("environment, restart policy and supervisor settings each restart, naming what changed", () => {
    expect(plan(desire(base()), desire(edit((y) => (y.runtimes.idle!.env = { FOO: "1", BAR: "2" }))))).toEqual([
      "~ restart researcher-1 (environment changed (BAR, FOO))",
      "~ restart researcher-2 (environment changed (BAR, FOO))",
    ]);
    expect(plan(desire(base()), desire(edit((y) => (y.runtimes.idle!.restart = "always"))))[0]).toBe(
      "~ restart researcher-1 (restart policy on-failure → always)",
    );
    expect(plan(desire(base()), desire(edit((y) => (y.supervisor = { max_restarts: 3 }))))[0]).toBe(
      "~ restart researcher-1 (supervisor settings changed)",
    );
  });

  test("switching a role's runtime restarts; a runtime renamed with the same command does not", () => {
    expect(plan(desire(base()), desire(edit((y) => (y.roles.researcher!.runtime = "other"))))[0]).toBe(
      "~ restart researcher-1 (runtime idle → other; command changed)",
    );
    const renamed = edit((y) =>
      ((y.runtimes = { idle2: y.runtimes.idle!, other: y.runtimes.other! }), (y.roles.researcher!.runtime = "idle2")));
    expect(plan(desire(base()), desire(renamed))).toEqual(["= nothing to do: the running org matches org.yaml"]);
  });

  test("a changed prompt restarts the role's agents with the re-rendered prompt", () => {
    const after = desire(base(), {}, { templates: { "prompts/researcher.md": "# {{agent}}, now terser\n" } });
    expect(plan(desire(base()), after)).toEqual([
      "~ restart researcher-1 (prompt changed)", "~ restart researcher-2 (prompt changed)",
    ]);
    const result = reconcile(after, observeAsDesired(desire(base())));
    expect(
      result.kind === "actions" && result.actions[0]!.kind === "restart-agent" && result.actions[0]!.agent.prompt,
    ).toContain("# researcher-1, now terser");
  });

  test("changed edits reach the environment and the prompt", () => {
    expect(plan(desire(base()), desire(edit((y) => (y.roles.researcher!.edits = ["train.py", "model.py"]))))[0]).toBe(
      "~ restart researcher-1 (environment changed (ORG_EDITS); prompt changed)",
    );
  });

  test("a moved GPU lease restarts the agent once, as a lease change", () => {
    const gpu = edit((y) => ((y.gpus = "auto"), (y.roles.researcher!.gpu = true)));
    expect(
      plan(
        desire(gpu, { "researcher-1": 0, "researcher-2": 1 }),
        desire(gpu, { "researcher-1": 0, "researcher-2": 3 }),
      ),
    ).toEqual(["~ restart researcher-2 (GPU lease 1 → 3; prompt changed)"]);
  });

  test("a change of the verify pool alone is an action of its own that restarts nothing; "
    + "with leases moving, the agents restart too", () => {
    const pooled = edit((y) => ((y.gpus = "auto"), (y.roles.researcher!.gpu = true), (y.verify = {
      command: ["x"],
      metric: { name: "m", pattern: "^m: (.*)" },
      gpus: "pool",
    })));
    const tail = "the verifier takes it up after the runs in flight, nothing restarts for it";
    expect(plan(desire(pooled, {}, { pool: [0, 1] }), desire(pooled, {}, { pool: [0, 1, 2] }))).toEqual([
      `~ verify runs: a pool of GPU 0, 1 → a pool of GPU 0, 1, 2 (the pool's GPUs changed); ${tail}`,
    ]);
    // Agents that hold no GPU either way (gpu: false, or CPU mode): only the pool changes.
    expect(plan(desire(base()), desire(base(), {}, { pool: [] }))).toEqual([
      `~ verify runs: each agent's own GPU → a pool of CPU slots (verify.gpus own → pool); ${tail}`,
    ]);
    const result = reconcile(
      desire(pooled, {}, { pool: [0, 1, 2] }),
      observeAsDesired(desire(pooled, {}, { pool: [0, 1] })),
    );
    expect(result.kind === "actions" && summarizeActions(result.actions)).toBe("1 action: ~pool");
    const own = desire(pooled, { "researcher-1": 0, "researcher-2": 1 });
    expect(plan(desire(pooled, {}, { pool: [0, 1] }), own)).toEqual([
      "~ restart researcher-1 (GPU lease cpu → 0; prompt changed)",
      "~ restart researcher-2 (GPU lease cpu → 1; prompt changed)",
      `~ verify runs: a pool of GPU 0, 1 → each agent's own GPU (verify.gpus pool → own); ${tail}`,
    ]);
  });

  test("a stopped org stays stopped: a prompt edit updates the agents the stop holds and restarts "
    + "none; a running one restarts", () => {
    const after = desire(base(), {}, { templates: { "prompts/researcher.md": "# {{agent}} tries harder\n" } });
    expect(plan(desire(base()), after, (observed) => {
      observed.agents[0]!.heldByStop = true;
      observed.agents[0]!.pane!.dead = true;
    })).toEqual([
      "~ update researcher-1 (prompt changed): the org is stopped, so it stays stopped and starts with "
        + "this when the org resumes",
      "~ restart researcher-2 (prompt changed)",
    ]);
  });

  test("name, repo and base cannot change live: refused, with how to restart", () => {
    expect(plan(desire(base()), desire(edit((y) => ((y.name = "other"), (y.base = "dev")))))).toEqual([
      'refused name: name changed from "toy" to "other" while the org runs; it names the tmux socket, '
        + 'the session and every branch — restart the org: org down && org up',
      'refused base: base changed from "main" to "dev" while the org runs; every branch and baseline starts from it — '
        + 'restart the org: org down && org up',
    ]);
    expect(plan(desire(base()), desire(base(), {}, { repo: "/elsewhere" }))).toEqual([
      'refused repo: repo changed from "/org" to "/elsewhere" while the org runs; '
        + 'every worktree and branch lives in it — restart the org: org down && org up',
    ]);
  });

  test("what the running org lost by hand is put back: a killed pane, a deleted launch.json or prompt", () => {
    expect(plan(desire(base()), desire(base()), (observed) => {
      observed.agents[1]!.pane = undefined;
      observed.paneCount = 2;
    })).toEqual([
      "+ add researcher-2 (its pane is gone): worktree, pane",
      "# retile the grid: 3 panes (panes 1 added)",
    ]);
    expect(plan(desire(base()), desire(base()), (observed) => {
      observed.agents[0]!.launch = null;
      observed.agents[1]!.prompt = null;
    })).toEqual([
      "~ restart researcher-1 (launch.json is missing or unreadable)",
      "~ restart researcher-2 (prompt.md is missing)",
    ]);
  });

  test("several edits at once: removals, then restarts, then additions, then the layout", () => {
    const before = desire(edit((y) => (y.roles.reviewer = { prompt: "prompts/reviewer.md", runtime: "other" })));
    const after = desire(edit((y) => ((y.roles.researcher!.count = 3), (y.runtimes.idle!.env = { FOO: "1" }))));
    const lines = plan(before, after);
    expect(lines).toEqual([
      "- remove reviewer-1 (role reviewer was removed): stop it; branch org/toy/reviewer-1 and its worktree are kept",
      "~ restart researcher-1 (environment changed (FOO))",
      "~ restart researcher-2 (environment changed (FOO))",
      "+ add researcher-3 (roles.researcher.count 2 → 3): worktree, pane",
      "# retile the grid: 4 panes (panes 1 added, 1 removed)",
    ]);
    const result = reconcile(after, observeAsDesired(before));
    expect(result.kind === "actions" && summarizeActions(result.actions)).toBe(
      "5 actions: -reviewer-1 ~researcher-1 ~researcher-2 +researcher-3",
    );
  });

  test("applying the plan's own result again is nothing to do", () => {
    const after = desire(edit((y) => (y.roles.researcher!.count = 3)));
    expect(plan(after, after)).toEqual(["= nothing to do: the running org matches org.yaml"]);
    expect(summarizeActions([{ kind: "nothing-to-do", reason: "x" }])).toBe("nothing to do");
  });
});
