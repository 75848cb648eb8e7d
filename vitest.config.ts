import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// One vocabulary for speed, the file's name wherever it sits: `*.e2e.test.ts` starts real processes (an org, tmux,
// a daemon, an agent CLI, verify runs); `*.faults.test.ts` and `*.stress.test.ts` take minutes; any other
// `*.test.ts` is a unit test. `npm test` runs unit and e2e, `npm run test:fast` unit alone (docs/testing.md).
const E2E = "test/**/*.e2e.test.ts";
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

export default defineConfig({
  test: {
    // Two at a time: 3 took the suite from 1,745 s to 1,091 s at load ~20, but the real CLIs' files, CPU-bound, then
    // timed out beside each other (docs/testing.md).
    maxWorkers: 2,
    // Once per run, whichever projects run.
    globalSetup: ["test/global-setup.ts"],
    projects: [
      { test: { ...shared, name: "unit", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, E2E, FAULTS, STRESS] } },
      { test: { ...shared, name: "e2e", include: [E2E] } },
      // The demo org under injected faults: minutes, so apart from `npm test` (`npm run faults`).
      { test: { ...shared, name: "faults", include: [FAULTS], testTimeout: 600_000, hookTimeout: 60_000 } },
      // Real CLIs against a model service that keeps failing: apart from `npm test` until its timing holds under load.
      { test: { ...shared, name: "stress", include: [STRESS], testTimeout: 600_000, hookTimeout: 120_000 } },
    ],
  },
});
