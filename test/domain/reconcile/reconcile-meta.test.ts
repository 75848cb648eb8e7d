import { describe, expect, test } from "vitest";
import type { LoadedConfig } from "../../../src/domain/config/index.js";
import { ConfigSchema, reloadSettings } from "../../../src/domain/config/schema.js";
import type { Gpu } from "../../../src/domain/lifecycle/select-gpus.js";
import {
  checkMetaEdit, checkMetaRate, inferLaunchContext, isMetaRole, listConfigFiles, planLeases,
} from "../../../src/domain/reconcile/index.js";
import { describeReloadWarning } from "../../../src/domain/reconcile/reload-record.js";
import type { LaunchSpec } from "../../../src/domain/state.js";

const config = ConfigSchema.parse({
  runtimes: { idle: { command: ["forever"] } },
  roles: {
    researcher: { prompt: "prompts/researcher.md", runtime: "idle", count: 2, gpu: true, edits: ["train.py"] },
    meta: { prompt: "./prompts/meta.md", runtime: "idle", edits: ["org.yaml", "prompts/**"] },
    prompter: { prompt: "prompts/meta.md", runtime: "idle", edits: ["prompts/*.md"] },
    outside: { prompt: "../shared/prompt.md", runtime: "idle" },
  },
});

describe("meta roles", () => {
  test("the org's own config files: org.yaml and each prompt inside the org folder, once", () => {
    expect(listConfigFiles(config)).toEqual(["org.yaml", "prompts/meta.md", "prompts/researcher.md"]);
  });

  test("a role is meta when its edits name org.yaml or a prompt; empty edits (anything) do not count", () => {
    expect(["researcher", "meta", "prompter", "outside"].map((role) => isMetaRole(config, role))).toEqual([
      false, true, true, false,
    ]);
  });

  test("a meta edit stays within the role's edits, away from verify; others may not propose at all", () => {
    const check = (role: string, changed: string[], verifyChanged = false) =>
      checkMetaEdit({ agent: `${role}-1`, role, config, changed, verifyChanged });
    expect(check("meta", ["org.yaml", "prompts/researcher.md"])).toEqual({ ok: true });
    expect(check("prompter", ["org.yaml", "prompts/meta.md"])).toEqual({
      ok: false,
      reason: "the edit changes org.yaml, outside prompter's edits [prompts/*.md] — "
        + "change only those files in your copy",
    });
    expect(check("meta", ["org.yaml"], true)).toEqual({
      ok: false,
      reason: "the edit changes verify, the immutable verifier — only a person changes how experiments are judged; "
        + "undo that part of your copy",
    });
    expect(check("researcher", [])).toEqual({
      ok: false,
      reason: `researcher-1's role researcher may not change the org: its edits [train.py] name neither org.yaml nor a `
        + `prompt — a meta role lists them, e.g. edits: [org.yaml, "prompts/**"]`,
    });
  });

  test("at most one applied meta edit per reload.min_interval", () => {
    const now = new Date("2026-01-01T00:01:00Z");
    expect(checkMetaRate(now, undefined, 60_000)).toEqual({ ok: true });
    expect(checkMetaRate(now, "2026-01-01T00:00:00Z", 60_000)).toEqual({ ok: true });
    expect(checkMetaRate(now, "2026-01-01T00:00:45Z", 60_000)).toEqual({
      ok: false,
      reason: "rate-limited: the last meta edit was applied 15s ago and reload.min_interval is 1m — "
        + "run `org reload` again in 45s",
    });
  });

  test("reload settings default when the section is absent", () => {
    expect(reloadSettings(config)).toEqual({ watch: true, min_interval: "60s" });
    expect(reloadSettings(ConfigSchema.parse({ ...config, reload: { min_interval: 5 } }))).toEqual({
      watch: true,
      min_interval: 5,
    });
  });
});

describe("GPU leases on reload", () => {
  const gpus = (used: number[]): Gpu[] => used.map((memoryUsedMb, index) =>
    ({ index, uuid: `GPU-${index}`, name: "H100", memoryUsedMb, memoryTotalMb: 81559 }));
  const text = "roles:\n  researcher: { prompt: p.md, runtime: idle, count: 2, gpu: true }\n"
    + "  reviewer: { prompt: p.md, runtime: idle, count: 2, gpu: true }\nruntimes: { idle: { command: [x] } }\n";
  const loaded = (): LoadedConfig => ({
    file: "org.yaml", dir: "/org", text,
    config: ConfigSchema.parse({
      runtimes: { idle: { command: ["x"] } },
      roles: {
        researcher: { prompt: "p.md", runtime: "idle", count: 2, gpu: true },
        reviewer: { prompt: "p.md", runtime: "idle", count: 2, gpu: true },
      },
    }),
    repoDir: "/org", baseCommit: "c",
  });

  test("held leases are kept, even on GPUs our own agents fill; new agents get the free ones", () => {
    const held = new Map<string, number | null>([["researcher-1", 2], ["researcher-2", 0]]);
    const fits = planLeases(loaded(), gpus([70_000, 1, 70_000, 1]), held);
    expect(fits.ok && [...fits.leases]).toEqual([
      ["researcher-1", 2],
      ["researcher-2", 0],
      ["reviewer-1", 1],
      ["reviewer-2", 3],
    ]);
    const busy = planLeases(loaded(), gpus([70_000, 1, 70_000, 70_000]), held);
    expect(busy.ok ? [] : busy.problems).toEqual([
      "org.yaml:2:53: 4 agents need a GPU each but only 3 GPUs are free (0, 1, 2) — "
        + "lower the counts of roles with gpu: true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, "
        + "agents hold none), or set gpus: none for CPU mode",
    ]);
  });

  test("too few GPUs is a problem at the count of the role that grew", () => {
    const plan = planLeases(loaded(), gpus([1, 1, 1]), new Map([["researcher-1", 0], ["researcher-2", 1]]), "reviewer");
    expect(plan).toEqual({
      ok: false,
      problems: [
        "org.yaml:3:51: 4 agents need a GPU each but only 3 GPUs are free (0, 1, 2) — "
          + "lower the counts of roles with gpu: true, free a GPU, set verify.gpus: pool (verify runs share the GPUs, "
          + "agents hold none), or set gpus: none for CPU mode",
      ],
    });
  });
});

describe("the launch context of the running org", () => {
  const fallback = {
    state: "/org/state", root: "/org", orgArgv: ["/other/node", "/pkg/bin/org.js"], binDir: "/org/state/bin",
    basePath: "/other/bin",
  };
  const spec = (argv: string[], path: string): LaunchSpec => ({
    agent: "a", role: "r", argv, cwd: "/w", env: { PATH: path }, restart: "always", backoffMs: 1, maxBackoffMs: 1,
    maxRestarts: 1, healthyAfterMs: 1,
  });

  test("PATH and the org command come back from launch.json, so another shell restarts nothing", () => {
    const context = inferLaunchContext(
      [
        { spec: null },
        {
          spec: spec(["/up/node", "/pkg/bin/org.js", "builtin", "hillclimb"], "/org/state/bin:/usr/bin:/bin"),
          builtin: "hillclimb",
        },
      ],
      fallback,
    );
    expect(context).toEqual({ ...fallback, orgArgv: ["/up/node", "/pkg/bin/org.js"], basePath: "/usr/bin:/bin" });
  });

  test("with nothing to read back, this process's own context", () => {
    expect(inferLaunchContext([{ spec: spec(["claude", "builtin", "hillclimb"], "/elsewhere") }], fallback))
      .toEqual(fallback);
  });
});

describe("org status after a rejected edit", () => {
  test("a warning with every problem while org.yaml holds the rejected edit; nothing once it is fixed", () => {
    const record = {
      at: "2026-01-01T10:11:12.000Z", by: "daemon", outcome: "rejected" as const, problems: ["org.yaml:2:1: bad — fix"],
      actions: [],
    };
    expect(describeReloadWarning(record)).toEqual([
      "warning: the org.yaml edit seen at 10:11:12 UTC (daemon) was rejected; the org runs as before:",
      "  org.yaml:2:1: bad — fix",
    ]);
    expect(describeReloadWarning({ ...record, outcome: "in-sync", problems: [] })).toEqual([]);
    expect(describeReloadWarning(undefined)).toEqual([]);
  });
});
