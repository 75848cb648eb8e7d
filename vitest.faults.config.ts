import { defineConfig } from "vitest/config";

// `npm run faults`: the demo org under injected faults; minutes, not seconds, so apart from `npm test`.
export default defineConfig({
  test: {
    include: ["test/faults/**/*.faults.ts"],
    pool: "forks",
    fileParallelism: false,
    globalSetup: ["test/global-setup.ts"],
    // Every test process gets a fixed environment and an empty HOME, whatever the shell holds.
    setupFiles: ["test/hermetic-env.ts"],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
});
