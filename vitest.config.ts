import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // tmux and git suites are tagged slow so `npm run test:fast` can skip them.
    tags: [{ name: "slow", description: "real tmux, git or processes" }],
  },
});
