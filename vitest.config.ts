import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    // Most suites wait on git, tmux and agent processes rather than compute: two at a time keep a 2-core machine busy.
    maxWorkers: 2,
    globalSetup: ["test/global-setup.ts"],
    // Every test process gets a fixed environment and an empty HOME, whatever the shell holds.
    setupFiles: ["test/hermetic-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // tmux and git suites are tagged slow so `npm run test:fast` can skip them.
    tags: [{ name: "slow", description: "real tmux, git or processes" }, { name: "slurm", description: "a real single-host Slurm cluster, started by test/slurm/start.sh (root, apt)" }],
  },
});
