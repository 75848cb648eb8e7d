import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeTempDir, removeDir, writeFiles } from "../../helpers/temp-repo.js";
import { PACKAGE_ROOT } from "../../helpers/org-cli.js";

// The software template's gate runners as a verify run starts them: node, in the checkout, nothing installed.
const GATES = join(PACKAGE_ROOT, "templates/software/gates");
const PAGE = '<!doctype html><html lang="en"><head><title>Todos</title></head><body><h1>Todos</h1></body></html>\n';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

function checkout(files: Record<string, string>): string {
  const dir = makeTempDir();
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

function gate(dir: string, runner: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [join(GATES, runner), ...args], {
    cwd: dir, encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env },
  });
  return { code: result.status, out: result.stdout.trim().split("\n"), err: result.stderr.trim() };
}

describe("gates/browser.mjs", () => {
  test("each assertion on a fresh page; one that fails fails the gate, named with its line; the screenshot is saved",
    () => {
      const dir = checkout({ "index.html": PAGE, "e2e/contract.md": [
        "# Sprint 1", "", "- [ ] the heading names the app `text('h1') === 'Todos'`",
        "- [ ] there is a list `$$('ul').length === 1`", "- [ ] the page throws `missing.call()`", "",
      ].join("\n") });
      const run = gate(dir, "browser.mjs", []);
      expect(run.code, run.err).toBe(1);
      expect(run.out.slice(0, 4)).toEqual([
        "page index.html: loaded",
        "PASS e2e/contract.md:3 the heading names the app `text('h1') === 'Todos'`",
        "FAIL e2e/contract.md:4 there is a list `$$('ul').length === 1` — the check gave false",
        "FAIL e2e/contract.md:5 the page throws `missing.call()` — threw: ReferenceError: missing is not defined",
      ]);
      expect(run.out[4]).toMatch(/^1\/3 assertions pass \(e2e\/contract\.md sha256:[0-9a-f]{16}\)$/);
      expect(readFileSync(join(dir, "e2e/output/screenshot.png")).subarray(1, 4).toString()).toBe("PNG");
      const report = readFileSync(join(dir, "e2e/output/report.txt"), "utf8");
      expect(report.split("\n").slice(0, 5)).toEqual(run.out.slice(0, 5));
    });

  test("a copy edited after it was signed, an item with no check, a missing page, no Chromium: each refused, " +
    "with its fix", () => {
      const signature = "evaluator_signed: 2026-12-05T08:00:00.000Z sha256:0123456789abcdef";
      const signed = `---\nsprint: 1\nstatus: agreed\n${signature}\n---\n`;
      const edited = checkout({ "index.html": PAGE, "e2e/contract.md": `${signed}- [ ] weakened \`true\`\n` });
      expect(gate(edited, "browser.mjs", []).err.replace(/sha256:[0-9a-f]{16},/, "sha256:…,")).toBe(
        "e2e: e2e/contract.md is not the contract as signed: its body hashes to sha256:…, the evaluator signed " +
          'sha256:0123456789abcdef — copy the agreed contract again: cp "$ORG_STATE/contracts/sprint-<n>.md" ' +
          "e2e/contract.md");
      const unchecked = checkout({ "index.html": PAGE, "e2e/contract.md": "# S\n\n- [ ] it looks nice\n" });
      expect(gate(unchecked, "browser.mjs", [])).toMatchObject({ code: 1,
        err: 'e2e: e2e/contract.md:3: the assertion "it looks nice" has no check — end it with a JavaScript ' +
          "expression in backticks that is true when it holds, e.g. `text('h1') === 'Todos'`" });
      expect(gate(checkout({}), "browser.mjs", ["--page", "dist/index.html"])).toMatchObject({ code: 1,
        err: "e2e: dist/index.html does not exist in the checkout — build the app's page there, " +
          "or set --page in org.yaml's e2e gate" });
      expect(gate(checkout({ "index.html": PAGE }), "browser.mjs", [], { PATH: "/nowhere", CHROMIUM: "" }))
        .toMatchObject({ code: 1, err: "e2e: no Chromium found (looked for chromium, chromium-browser, " +
          "google-chrome, " +
          "google-chrome-stable on PATH) — install it (apt-get install chromium), or set CHROMIUM=/path/to/chrome " +
          "in the verifier's environment" });
    });
});

describe("gates/script.mjs", () => {
  test("runs package.json's script; a missing script or program is a failed gate with its fix", () => {
    const scripts = { lint: "eslint-not-here .", test: "node -e 0" };
    const dir = checkout({ "package.json": JSON.stringify({ scripts }) });
    expect(gate(dir, "script.mjs", ["test"]).code).toBe(0);
    expect(gate(dir, "script.mjs", ["typecheck"])).toMatchObject({ code: 1,
      err: 'typecheck: package.json has no "typecheck" or "type-check" or "types" or "tsc" script — add one to its ' +
        'scripts, e.g. "typecheck": "tsc --noEmit", or remove the gate typecheck from org.yaml' });
    const lint = gate(dir, "script.mjs", ["lint"]);
    expect(lint.code).toBe(1);
    expect(lint.err.split("\n").at(-1)).toBe('lint: the "lint" script\'s program is not installed ' +
      "(eslint-not-here .: exit code 127) — node_modules is not in the checkout: run npm install, " +
      "and list node_modules in org.yaml's share");
    const npmInit = { test: 'echo "Error: no test specified" && exit 1' };
    const placeholder = checkout({ "package.json": JSON.stringify({ scripts: npmInit }) });
    expect(gate(placeholder, "script.mjs", ["test"])).toMatchObject({ code: 1,
      err: 'test: package.json\'s "test" script is npm\'s placeholder (echo "Error: no test specified" && exit 1) ' +
        "— write the unit tests and the command that runs them" });
    expect(gate(checkout({}), "script.mjs", ["lint"])).toMatchObject({ code: 1,
      err: "lint: no package.json in the checkout — commit one with the app's scripts" });
  });
});
