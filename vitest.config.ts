import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// One vocabulary for speed, the file's name wherever it sits: `*.e2e.test.ts` starts real processes (an org, tmux,
// a daemon, verify runs); `*.clients.test.ts` runs the real agent CLIs; `*.faults.test.ts` and `*.stress.test.ts`
// take minutes; any other `*.test.ts` is a unit test. `npm test` runs unit, clients and e2e (docs/testing.md).
const E2E = "test/**/*.e2e.test.ts";
const CLIENTS = "test/**/*.clients.test.ts";
const FAULTS = "test/**/*.faults.test.ts";
const STRESS = "test/**/*.stress.test.ts";

/** What every project shares. Not `extends: true`: that would give each project the global setup, one build each. */
const shared: NonNullable<TestProjectInlineConfiguration["test"]> = {
  pool: "forks",
  // Every test process gets a fixed environment and an empty HOME, whatever the shell holds.
  setupFiles: ["test/hermetic-env.ts"],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  tags: [
    // Speed is the file's name; the tag stays defined so a file that still carries it runs.
    { name: "slow", description: "real tmux, git or processes: name the file *.e2e.test.ts instead" },
    { name: "slurm", description: "a real single-host Slurm cluster, started by test/slurm/start.sh (root, apt)" },
  ],
};

/** Projects run one after another (`groupOrder`), each with the files at once that its kind of work allows. */
const after = (groupOrder: number, maxWorkers: number) => ({ sequence: { groupOrder }, maxWorkers });

export default defineConfig({
  test: {
    // Once per run, whichever projects run.
    globalSetup: ["test/global-setup.ts"],
    projects: [
      {
        test: {
          ...shared, ...after(0, 3), name: "unit", include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, E2E, CLIENTS, FAULTS, STRESS],
          // Files share a process and its loaded modules: a fork and its imports for each of ~200 files took a third
          // of the project's time. What a file changes it restores (env, mocks, timers); the setup gives each a HOME.
          // Three at a time on 2 cores: a third of its files wait on a timer or a child, which two left a core idle.
          isolate: false,
        },
      },
      // The real CLIs are CPU-bound (node, bun, a Rust binary starting on each pane): two files at a time.
      { test: { ...shared, ...after(1, 2), name: "clients", include: [CLIENTS] } },
      // Four at a time on 2 cores, sharing their four processes: a fork and its imports for each of ~110 files
      // was ~15 % of the project's CPU. Six: faster alone, not in CI, where Slurm's tests lost races (docs/testing.md)
      { test: { ...shared, ...after(2, 4), name: "e2e", include: [E2E], isolate: false } },
      // The demo org under injected faults: minutes, so apart from `npm test` (`npm run faults`).
      { test: { ...shared, ...after(3, 2), name: "faults", include: [FAULTS], testTimeout: 600_000, hookTimeout: 60_000 } },
      // Real CLIs against a model service that keeps failing: apart from `npm test` until its timing holds under load.
      { test: { ...shared, ...after(4, 2), name: "stress", include: [STRESS], testTimeout: 600_000, hookTimeout: 120_000 } },
    ],
  },
});
