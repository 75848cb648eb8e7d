import { configDefaults, defineConfig } from "vitest/config";

// One vocabulary for speed, by file name (wherever the file sits): `*.e2e.test.ts` starts an org, real CLIs or
// daemons; `*.faults.test.ts` and `*.stress.test.ts` take minutes; every other `*.test.ts` is a unit test.
const E2E = "test/**/*.e2e.test.ts";
const FAULTS = "test/**/*.faults.test.ts";
const STRESS = "test/**/*.stress.test.ts";

export default defineConfig({
  test: {
    pool: "forks",
    // Most suites wait on git, tmux and agent processes rather than compute: two at a time keep a 2-core machine busy.
    maxWorkers: 2,
    globalSetup: ["test/global-setup.ts"],
    // Every test process gets a fixed environment and an empty HOME, whatever the shell holds.
    setupFiles: ["test/hermetic-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // `slow` is kept for files not yet named by their speed; the file name decides which project runs a file.
    tags: [
      { name: "slow", description: "real tmux, git or processes (name the file *.e2e.test.ts instead)" },
      { name: "slurm", description: "a real single-host Slurm cluster, started by test/slurm/start.sh (root, apt)" },
    ],
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, E2E, FAULTS, STRESS] } },
      { extends: true, test: { name: "e2e", include: [E2E] } },
      // The demo org under injected faults: minutes, so apart from `npm test` (`npm run faults`).
      { extends: true, test: { name: "faults", include: [FAULTS], testTimeout: 600_000, hookTimeout: 60_000 } },
      // Real CLIs against a model service that keeps failing: apart from `npm test` until its timing holds under load.
      { extends: true, test: { name: "stress", include: [STRESS], testTimeout: 600_000, hookTimeout: 120_000 } },
    ],
  },
});
