import js from "@eslint/js";
import tseslint from "typescript-eslint";

const sideEffects = ["node:child_process", "child_process", "node:fs", "fs", "node:fs/promises", "fs/promises",
  "execa", "chokidar", "node-pty", "blessed", "simple-git"];

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "worktrees/", "state/", "coverage/", ".demo/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", performance: "readonly", console: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", Buffer: "readonly", URL: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
    },
  },
  {
    // src/org decides, src/daemon schedules; only src/adapters touches the world.
    files: ["src/org/**/*.ts", "src/roles/**/*.ts", "src/ui/**/*.ts", "src/daemon/**/*.ts"],
    ignores: ["src/ui/dashboard*.ts"],
    rules: { "no-restricted-imports": ["error", { paths: sideEffects.map((name) => ({ name, message: "side effects belong in src/adapters" })) }] },
  },
);
