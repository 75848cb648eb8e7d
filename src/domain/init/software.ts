// `org init --template software` reads the repo as plain init does: the app's files, package.json's scripts, the
// references already committed. The org.yaml it writes comes from src/roles/software-yaml.ts.
import { BROWSER_RUNNER, SCRIPT_RUNNER, type SoftwareFacts } from "../../roles/index.js";
import type { RepoListing } from "./repo-listing.js";

export type SoftwareProposal =
  | { kind: "proposal"; facts: SoftwareFacts; checks: string[] }
  | { kind: "refused"; reason: string };

/** The scripts each gate looks for, in order, as gates/script.mjs does. */
export const GATE_SCRIPTS = {
  typecheck: { names: ["typecheck", "type-check", "types", "tsc"], example: '"typecheck": "tsc --noEmit"' },
  lint: { names: ["lint", "eslint"], example: '"lint": "eslint ."' },
  test: { names: ["test", "test:unit", "unit"], example: '"test": "node --test"' },
} as const;

// Not the app's code: org's own files, the gates, the judge's files, the manifests and the tools' config.
const NOT_APP = /^(org\.yaml|goal\.md|spec\.md|review\.md|prompts|eval|gates|e2e|node_modules|package(-lock)?\.json)$/;
const HIDDEN = /^\./;
const TOOL_CONFIG = /^(tsconfig[^/]*\.json|eslint\.config\.[cm]?[jt]s|\.eslintrc[^/]*|\.prettierrc[^/]*|biome\.json)$/;
const PAGES = ["index.html", "public/index.html", "src/index.html"];

/** What the template writes for this repo, or why it cannot: it needs a committed package.json. */
export function proposeSoftware(listing: RepoListing): SoftwareProposal {
  const has = (file: string) => listing.files.includes(file);
  if (!has("package.json")) {
    return {
      kind: "refused",
      reason: "no package.json is committed here — the software template's gates run its typecheck, lint and "
        + "test scripts: create one (npm init -y), add those scripts, commit it, "
        + "and run `org init --template software` again",
    };
  }
  const tops = [...new Set(listing.files.map((file) => file.split("/")[0]!))];
  const appTops = tops.filter((top) => !NOT_APP.test(top) && !HIDDEN.test(top) && !TOOL_CONFIG.test(top));
  // A plain folder name covers what is below it, and a file the generator may create yet.
  const page = PAGES.find(has) ?? "index.html";
  const edits = [...appTops, ...(appTops.includes(page.split("/")[0]!) ? [] : [page]), "e2e/contract.md"];
  const protect = [SCRIPT_RUNNER, BROWSER_RUNNER, ...tops.filter((top) => TOOL_CONFIG.test(top))];
  protect.push(...["package.json", "package-lock.json"].filter(has));
  const references = {
    good: listReferences(listing.files, "good"),
    bad: listReferences(listing.files, "bad"),
  };
  const facts: SoftwareFacts = {
    name: listing.folder, base: listing.base, edits, protected: protect, share: [...listing.untracked], page,
    references,
  };
  return { kind: "proposal", facts, checks: listChecks(listing, facts) };
}

/** eval/good/* as committed, else three paths to fill: validate names each missing one with its fix. */
function listReferences(files: string[], side: "good" | "bad"): string[] {
  const found = files.filter((file) => file.startsWith(`eval/${side}/`) && !file.endsWith("/.gitkeep"));
  return found.length > 0 ? found : [1, 2, 3].map((n) => `eval/${side}/${n}.html`);
}

/** What the person must do or look at before `org up`. */
function listChecks(listing: RepoListing, facts: SoftwareFacts): string[] {
  const checks: string[] = [];
  const scripts = readScripts(listing.texts["package.json"]);
  for (const [gate, wanted] of Object.entries(GATE_SCRIPTS)) {
    const found = wanted.names.find((name) => typeof scripts[name] === "string");
    // `npm init`'s placeholder exits 1 on purpose: the gate would fail every run, the base's included.
    if (found && /no test specified/.test(String(scripts[found]))) {
      checks.push(`package.json's "${found}" script is npm's placeholder, which always fails: the gate ${gate} fails `
        + `until you write one, e.g. ${wanted.example}`);
    }
    if (found) continue;
    checks.push(`package.json has no "${wanted.names[0]}" script: the gate ${gate} fails until you add one, `
      + `e.g. ${wanted.example}`);
  }
  if (!listing.files.includes(facts.page)) {
    checks.push(`${facts.page} is not committed: the e2e gate fails on the base, so nothing is tried — `
      + "commit the app's first page, however bare");
  }
  const missing = [...facts.references.good, ...facts.references.bad].filter((file) => !listing.files.includes(file));
  if (missing.length > 0) {
    checks.push("the judge calibrates on references: put 3 pages you admire in eval/good/ and 3 you would reject in "
      + "eval/bad/ (or name yours in org.yaml's verify.judge.references), then commit them");
  }
  if (hasDependencies(listing.texts["package.json"]) && !listing.untracked.includes("node_modules")) {
    checks.push("no node_modules here: run npm install, and add node_modules to share: so every checkout has it");
  }
  return checks;
}

function readScripts(text: string | undefined): Record<string, unknown> {
  return readSection(text, "scripts");
}

function hasDependencies(text: string | undefined): boolean {
  return ["dependencies", "devDependencies"].some((key) => Object.keys(readSection(text, key)).length > 0);
}

function readSection(text: string | undefined, key: string): Record<string, unknown> {
  try {
    const section = (JSON.parse(text ?? "{}") as Record<string, unknown>)[key];
    return typeof section === "object" && section !== null ? section as Record<string, unknown> : {};
  } catch {
    return {};
  }
}
