import { defineConfig } from "vitest/config";

// `npm run stress`: real CLIs against a model service that keeps failing; minutes of retries and nudges under load, so
// apart from `npm test` until their timing holds on a loaded 2-core machine.
export default defineConfig({
  test: {
    include: ["test/**/*.stress.ts"],
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["test/global-setup.ts"],
    // Every test process gets a fixed environment and an empty HOME, whatever the shell holds.
    setupFiles: ["test/hermetic-env.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    tags: [{ name: "slow", description: "real tmux, git or processes" }],
  },
});
