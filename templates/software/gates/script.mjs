#!/usr/bin/env node
// A gate of org's software template: runs one of package.json's scripts (typecheck, lint, test) by npm, and fails with
// the fix when the script or its program is missing, never passing in silence.
//
//   node gates/script.mjs typecheck|lint|test
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

const NAMES = {
  typecheck: { scripts: ["typecheck", "type-check", "types", "tsc"], example: '"typecheck": "tsc --noEmit"' },
  lint: { scripts: ["lint", "eslint"], example: '"lint": "eslint ."' },
  test: { scripts: ["test", "test:unit", "unit"], example: '"test": "node --test"' },
};

const gate = process.argv[2];
const wanted = NAMES[gate];
if (!wanted) fail(`unknown gate "${gate}" — use one of ${Object.keys(NAMES).join(", ")}`);
if (!existsSync("package.json")) fail("no package.json in the checkout — commit one with the app's scripts");
let scripts;
try {
  scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts ?? {};
} catch (error) {
  fail(`package.json is not JSON (${error.message}) — fix it`);
}
const script = wanted.scripts.find((name) => typeof scripts[name] === "string");
if (!script) {
  const names = wanted.scripts.map((name) => `"${name}"`).join(" or ");
  fail(`package.json has no ${names} script — add one to its scripts, e.g. ${wanted.example}, `
    + `or remove the gate ${gate} from org.yaml`);
}
// npm's own test script for a new package fails on purpose: that is no test suite.
if (/no test specified/.test(scripts[script])) {
  fail(`package.json's "${script}" script is npm's placeholder (${scripts[script]}) — `
    + "write the unit tests and the command that runs them");
}
const child = spawn("npm", ["run", "--silent", script], { stdio: "inherit" });
child.on("error", (error) => fail(`could not run npm (${error.message}) — install Node.js with npm`));
child.on("exit", (code, signal) => {
  if (code === 127) {
    const modules = existsSync("node_modules")
      ? "run npm install"
      : "node_modules is not in the checkout: run npm install, and list node_modules in org.yaml's share";
    fail(`the "${script}" script's program is not installed (${scripts[script]}: exit code 127) — ${modules}`);
  }
  if (signal) fail(`the "${script}" script was killed by ${signal}`);
  process.exit(code ?? 1);
});

function fail(message) {
  console.error(`${gate ?? "gate"}: ${message}`);
  process.exit(1);
}
