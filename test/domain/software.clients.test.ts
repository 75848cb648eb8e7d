import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startModelServer, userTexts, type ModelServer, type Script } from "../helpers/model-server/index.js";
import { runOrgAsync } from "../helpers/org-cli.js";
import { pollUntil } from "../helpers/poll.js";
import { closeOwnRealOrg, orgEnv, runtimeYaml } from "../helpers/real-org.js";
import { createRepo, git, writeFiles } from "../helpers/temp-repo.js";
import { bin } from "../helpers/test-org/index.js";

// From `org init --template software` to the first kept commit. The agents are scripts (test/fixtures/bin/software-*):
// the evaluator writes the checklist, the generator drafts it, both sign, the generator builds the app and submits.
// The verifier runs the template's real gates in its sandbox, the e2e one in headless Chromium, then Claude Code as
// the judge behind the scripted model server: it scores a reference by its side, a commit by its app.js.
const PACKAGE = JSON.stringify({
  name: "todos", private: true, type: "module",
  scripts: { typecheck: "node --check app.js && node --check todos.mjs", lint: "node lint.mjs", test: "node --test" },
}, null, 2);
const LINT = "import { readFileSync } from 'node:fs';\n" +
  "for (const f of ['app.js', 'todos.mjs']) if (/\\bvar\\b/.test(readFileSync(f, 'utf8'))) {\n" +
  "  console.error(`${f}: no var`); process.exit(1);\n}\n";
const TODOS = "export const addTodo = (list, text) => (text.trim() ? [...list, text.trim()] : list);\n";
const UNIT = "import { test } from 'node:test';\nimport assert from 'node:assert';\n" +
  "import { addTodo } from '../todos.mjs';\n" +
  "test('a blank todo is refused', () => assert.deepStrictEqual(addTodo([], '  '), []));\n";
const BARE_PAGE = '<!doctype html><html lang="en"><head><title>Todos</title></head>' +
  "<body><h1>Todos</h1></body></html>\n";
const PAGE = `<!doctype html><html lang="en"><head><title>Todos</title>
<script type="module" src="app.js"></script></head>
<body><h1>Todos</h1><form id="f"><label for="new">New todo</label>
<input id="new" placeholder="What needs doing?">
<button id="add">Add</button></form><p id="count">0 left</p><ul id="list"></ul></body></html>
`;
const APP = `import { addTodo } from "./todos.mjs";
let todos = JSON.parse(localStorage.getItem("todos") ?? "[]");
const input = document.querySelector("#new");
const render = () => {
  const items = todos.map((text) => Object.assign(document.createElement("li"), { textContent: text }));
  document.querySelector("#list").replaceChildren(...items);
  document.querySelector("#count").textContent = \`\${todos.length} left\`;
};
document.querySelector("#f").addEventListener("submit", (event) => {
  event.preventDefault();
  todos = addTodo(todos, input.value);
  localStorage.setItem("todos", JSON.stringify(todos));
  input.value = "";
  render();
});
render();
`;
const add = (text: string) => `await type('#new', '${text}'), await click('#add')`;
const CHECKS = [
  ["the title names the app", "document.title === 'Todos'"],
  ["the heading names the app", "text('h1') === 'Todos'"],
  ["the page says its language", "document.documentElement.lang === 'en'"],
  ["there is an input for a new todo", "$('#new') !== null"],
  ["the input says what it is for", "$('#new').placeholder === 'What needs doing?'"],
  ["the input has a label", "$('label[for=new]') !== null"],
  ["the button says Add", "text('#add') === 'Add'"],
  ["the list starts empty", "$$('#list li').length === 0"],
  ["the count starts at zero", "text('#count') === '0 left'"],
  ["adding a todo lists it", `(${add("milk")}, text('#list li') === 'milk')`],
  ["adding clears the input", `(${add("milk")}, $('#new').value === '')`],
  ["two todos are two items", `(${add("a")}, ${add("b")}, $$('#list li').length === 2)`],
  ["todos keep their order", `(${add("a")}, ${add("b")}, $$('#list li').map((li) => li.textContent).join() === 'a,b')`],
  ["an empty todo is refused", "(await click('#add'), $$('#list li').length === 0)"],
  ["a blank todo is refused", `(${add("   ")}, $$('#list li').length === 0)`],
  ["a todo is trimmed", `(${add("  tea  ")}, text('#list li') === 'tea')`],
  ["Enter adds a todo", "(await type('#new', 'eggs'), await press('#new', 'Enter'), text('#list li') === 'eggs')"],
  ["the count follows the list", `(${add("a")}, text('#count') === '1 left')`],
  ["todos are saved for a reload", `(${add("milk")}, JSON.parse(localStorage.getItem('todos')).length === 1)`],
  ["no inline handlers", "$$('[onclick]').length === 0"],
];
const items = CHECKS.map(([what, check]) => `- [ ] ${what} \`${check}\``);
const CHECKLIST = `# Sprint 1: a todo list\n\n${items.join("\n")}\n`;

const answer = (score: number, reason: string) => JSON.stringify({
  scores: { design: score, originality: score, craft: score, function: score }, reason,
});
const prompts: string[] = [];
/** Whether the browser gate's screenshot lay in a verifier checkout each time the app itself was judged. */
const screenshots: boolean[] = [];
/** The judge's mind: references by their side; the app by whether its commit wires the form. */
const judgeScript = (dir: () => string): Script => (request) => {
  const prompt = userTexts(request).join("\n");
  prompts.push(prompt);
  if (/The work is eval\/good\//.test(prompt)) return { kind: "text", text: answer(0.9, "clear and finished") };
  if (/The work is eval\/bad\//.test(prompt)) return { kind: "text", text: answer(0.1, "broken and loud") };
  const commit = /at commit ([0-9a-f]{40})/.exec(prompt)?.[1];
  const app = commit ? git(dir(), ["show", `${commit}:app.js`]) : "";
  const slots = existsSync(join(dir(), "state/verifier")) ? readdirSync(join(dir(), "state/verifier")) : [];
  const shot = (slot: string) => existsSync(join(dir(), "state/verifier", slot, "e2e/output/screenshot.png"));
  if (app.includes("addEventListener")) screenshots.push(slots.some(shot));
  if (app.includes("addEventListener")) return { kind: "text", text: answer(0.8, "works; the count is plain text") };
  return { kind: "text", text: answer(0.3, "a heading and nothing else") };
};

let server: ModelServer;
let dir: string;
let name: string;
let env: Record<string, string>;
const org = (args: string[]) => runOrgAsync(args, { cwd: dir, env, timeoutMs: 120_000 });

describe("org init --template software, to the first kept commit", () => {
  beforeAll(async () => {
    server = await startModelServer({ script: judgeScript(() => dir), side: judgeScript(() => dir) });
    name = `s${process.pid}x${Math.floor(Math.random() * 1e6)}`;
    dir = createRepo({
      "package.json": `${PACKAGE}\n`, "index.html": BARE_PAGE, "app.js": "export {};\n", "todos.mjs": TODOS,
      "lint.mjs": LINT, "test/todos.test.mjs": UNIT,
    });
    mkdirSync(join(dir, ".home"), { recursive: true });
    const app = { "index.html": PAGE, "app.js": APP, "todos.mjs": TODOS, "checklist.md": CHECKLIST };
    writeFiles(dir, Object.fromEntries(Object.entries(app).map(([file, text]) => [`.app/${file}`, text])));
    writeFileSync(join(dir, ".git/info/exclude"), "/.home/\n/.app/\n", { flag: "a" });
    env = orgEnv(join(dir, ".home"));
  }, 60_000);

  afterAll(() => closeOwnRealOrg({ dir, name, env, server }));

  test("init, references, validate, up: calibrated, the gates pass in Chromium, the judge keeps the app", async () => {
    const started = Date.now();
    const init = await org(["init", "--template", "software"]);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout.split("\n")).toContain("check: the judge calibrates on references: put 3 pages you admire in " +
      "eval/good/ and 3 you would reject in eval/bad/ (or name yours in org.yaml's verify.judge.references), then " +
      "commit them");
    const refused = await org(["validate"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('file "eval/bad/3.html" does not exist in the repo — put there a page the ' +
      "rubric should score low and commit it, or give its path relative to the repo");
    // The person's part: references, and their agents (scripts here) and judge (the scripted server) in org.yaml.
    writeFiles(dir, Object.fromEntries(["good", "bad"].flatMap((side) => [1, 2, 3].map((n) =>
      [`eval/${side}/${n}.html`, `<h1>${side} ${n}</h1>\n`]))));
    writeFileSync(join(dir, "org.yaml"), scriptAgents(readFileSync(join(dir, "org.yaml"), "utf8")));
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "the software org"]);
    const valid = await org(["validate"]);
    expect(valid.stdout.trim(), valid.stderr)
      .toBe("org.yaml is valid: 3 roles, 3 agents, runtimes claude, idle, gen, eval");

    const upAt = Date.now();
    const up = await org(["up", "--no-attach"]);
    const upSeconds = (Date.now() - upAt) / 1000;
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toContain("the judge separates your references: good ≥ 0.90, bad ≤ 0.10, a margin of 0.80");
    // When each step landed, seconds after org up returned: the baselines judged, the contract agreed, the app kept.
    const marks: Record<string, number> = {};
    const mark = (what: string, done: boolean) => {
      if (done) marks[what] ??= (Date.now() - upAt) / 1000 - upSeconds;
      return done;
    };
    const agreed = () => scriptLog("evaluator-1").includes("contract is agreed");
    await pollUntil(() => mark("baselines", rows().length >= 3) && mark("agreed", agreed()) &&
      mark("kept", rows().some((row) => row[2] === "keep" && row[3]!.startsWith("the todo app"))), {
      what: "the generator's app kept", timeoutMs: 90_000,
    }).catch((error: Error) => {
      const logs = ["generator-1", "evaluator-1"].map(scriptLog).join("\n");
      throw new Error(`${error.message}\n${rows().join("\n")}\n${logs}`);
    });
    const seconds = (Date.now() - started) / 1000;
    const base = git(dir, ["rev-parse", "--short=7", "main"]).trim();
    // A baseline per agent, then the app: kept after the keep rule's 2 confirmation runs.
    expect(rows()).toEqual([
      ...[1, 2, 3].map(() => [base, "0.300000", "keep", "baseline", ""]),
      [expect.stringMatching(/^[0-9a-f]{7}$/), "0.800000", "keep", "the todo app of sprint 1 (mean of 3 runs)", ""],
    ]);
    // The e2e gate checked all 20 assertions of the agreed contract, in Chromium, and saved the screenshot.
    const e2e = readdirSync(join(dir, "state/runs")).filter((file) => file.endsWith("-gate-e2e.log"))
      .map((file) => readFileSync(join(dir, "state/runs", file), "utf8"));
    // The suite the gate ran is the contract both signed: the hash it printed is the signatures'.
    const contract = readFileSync(join(dir, "state/contracts/sprint-1.md"), "utf8");
    const hash = /^evaluator_signed: "?\S+ sha256:([0-9a-f]{16})"?$/m.exec(contract)?.[1];
    expect(e2e.join("\n")).toContain(`\n20/20 assertions pass (e2e/contract.md sha256:${hash})\n`);
    expect(e2e.every((log) => log.includes("screenshot: e2e/output/screenshot.png"))).toBe(true);
    expect(prompts.some((prompt) => prompt.includes("its screenshot is\ne2e/output/screenshot.png"))).toBe(true);
    // The gate's run judged first, in the checkout the gates ran in; the confirmation runs measure the judge alone.
    expect(screenshots[0]).toBe(true);
    console.log(`software e2e: ${seconds.toFixed(1)} s from init to the first kept commit (org up with its ` +
      `calibration ${upSeconds.toFixed(1)} s), then ${JSON.stringify(marks)}, ${prompts.length} judge runs, ` +
      `screenshot there: ${screenshots.join()}`);
  }, 150_000);
});

/** The template's org.yaml with the roles on scripts and the judge on Claude Code behind the scripted server. */
function scriptAgents(yaml: string): string {
  const runtimes = `runtimes:
  claude: ${runtimeYaml("claude", server.url)}
  idle: { command: ["${bin("forever")}"], restart: never }
  gen: { command: ["${bin("software-generator")}"], restart: never }
  eval: { command: ["${bin("software-evaluator")}"], restart: never }
`;
  let role = 0;
  const roles = ["idle", "gen", "eval"];
  return yaml
    .replace("runtimes:\n  claude: { preset: claude }\n", runtimes)
    .replace(/^ {4}runtime: claude$/gm, (line) => (role < 3 ? `    runtime: ${roles[role++]}` : line))
    .replace("name: " + yaml.match(/^name: (.*)$/m)![1], `name: ${name}`)
    .replace("    repeats: 3\n    timeout: 10m\n", "    repeats: 2\n    timeout: 60s\n");
}

function rows(): string[][] {
  try {
    const lines = readFileSync(join(dir, "state/results.tsv"), "utf8").trimEnd().split("\n").slice(1);
    return lines.map((line) => line.split("\t")).map((fields) => [...fields.slice(0, 5), fields[10] ?? ""])
      .map((fields) => [fields[0]!, fields[1]!, fields[3]!, fields[4]!, fields[5]!]);
  } catch {
    return [];
  }
}

function scriptLog(agent: string): string {
  try {
    return readFileSync(join(dir, "state/agents", agent, "own/script.log"), "utf8");
  } catch {
    return "";
  }
}
