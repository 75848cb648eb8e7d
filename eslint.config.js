import js from "@eslint/js";
import tseslint from "typescript-eslint";

const sideEffects = ["node:child_process", "child_process", "node:fs", "fs", "node:fs/promises", "fs/promises",
  "execa", "chokidar", "node-pty", "blessed", "simple-git"];

const globals = ["process", "performance", "console", "setTimeout", "clearTimeout", "setInterval", "clearInterval",
  "Buffer", "URL"];

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "worktrees/", "state/", "coverage/", ".demo/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: Object.fromEntries(globals.map((name) => [name, "readonly"])) },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
    },
  },
  {
    // bin/org.js is CommonJS (bin/package.json): its entry starts no ESM loader.
    files: ["bin/**/*.js"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", __dirname: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Lines stay within 120 columns, comments and strings too; test/house.test.ts holds every text file.
    files: ["src/**/*.ts", "test/**/*.ts", "bench/**/*.{ts,mjs,js}"],
    rules: { "max-len": ["error", { code: 120 }] },
  },
  {
    // src/domain decides, src/daemon schedules, src/flows runs a use case's steps; only src/adapters touches the world.
    files: ["src/domain/**/*.ts", "src/roles/**/*.ts", "src/ui/**/*.ts", "src/daemon/**/*.ts", "src/flows/**/*.ts"],
    ignores: ["src/ui/dashboard*.ts"],
    rules: {
      "no-restricted-imports": [
        "error", { paths: sideEffects.map((name) => ({ name, message: "side effects belong in src/adapters" })) },
      ],
    },
  },
);
