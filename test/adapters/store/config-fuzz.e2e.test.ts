import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { readAndLoadConfig } from "../../../src/adapters/store/config-file.js";
import type { ReloadRecord } from "../../../src/domain/reconcile/reload-record.js";
import { load } from "../../fixtures/configs/fake-probe.js";
import { baseConfig, toYaml } from "../../fuzz/base-config.js";
import {
  explainUnclean, generateMutations, MUTATION_KINDS, PROBLEM_LINE, type ConfigMutation,
} from "../../fuzz/config-mutations.js";
import { runOrg, runOrgAsync } from "../../helpers/org-cli.js";
import { runOrgInProcess } from "../../helpers/org-in-process.js";
import { pollUntil } from "../../helpers/poll.js";
import {
  bin, createTestOrg, readJsonFile, readOrgSnapshot, teardownOrg, type TestOrg,
} from "../../helpers/test-org/index.js";

// `npm run fuzz` raises the count and varies the seed; the normal suite runs the same 500 every time.
const COUNT = Number(process.env.ORG_FUZZ_COUNT ?? 500);
const SEED = Number(process.env.ORG_FUZZ_SEED ?? 8);
const BASE = { name: "fuzz", agent: bin("forever") };

/** `size` mutations spread evenly over the list (so over the kinds), for the slow samples. */
function sampleOf(mutations: ConfigMutation[], size: number): ConfigMutation[] {
  const step = Math.max(1, Math.floor(mutations.length / size));
  return mutations.filter((_, index) => index % step === 0).slice(0, size);
}

describe("config fuzzing: generated mutations of a valid org.yaml", () => {
  const mutations = generateMutations({ seed: SEED, count: COUNT, base: BASE });

  test("the base is valid and the generator is deterministic and covers every kind", async () => {
    expect(await load(toYaml(baseConfig(BASE)))).toMatchObject({ ok: true });
    expect(generateMutations({ seed: SEED, count: 40, base: BASE })).toEqual(mutations.slice(0, 40));
    expect(new Set(mutations.map((mutation) => mutation.kind))).toEqual(new Set(MUTATION_KINDS));
  });

  test(`${COUNT} mutations through the loader: each valid or clean ` +
    `file:line:col problems, nothing thrown or printed`, async () => {
    const warnings = vi.spyOn(process, "emitWarning");
    const failures: string[] = [];
    let rejected = 0;
    for (const mutation of mutations) {
      const label = `#${mutation.index} ${mutation.kind}: ${mutation.what.slice(0, 120)}`;
      try {
        const result = await load(mutation.text);
        if (result.ok) continue;
        rejected += 1;
        const why = explainUnclean(result.problems);
        if (why) failures.push(`${label}: ${why}`);
      } catch (error) {
        failures.push(`${label}: threw ${(error as Error).stack ?? String(error)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(warnings).not.toHaveBeenCalled();
    // Most mutations break the file; some (a hostile kickoff, an unused key deleted) are valid by design.
    expect(rejected / mutations.length).toBeGreaterThan(0.6);
    expect(rejected).toBeLessThan(mutations.length);
    warnings.mockRestore();
  }, 120_000);

  test("a name with a newline or a bidi override still makes one honest line", async () => {
    const doc = baseConfig(BASE);
    doc.name = "evil\nname\u202e";
    expect((await load(toYaml(doc))).ok ? [] : ((await load(toYaml(doc))) as { problems: string[] }).problems).toEqual([
      (`org.yaml:1:7: name "evil\\nname\\u202e" contains "\\n", "\u202e" — use 1-40 letters, digits, '-' or '_', ` +
        `starting with a letter or digit, e.g. "evil-name"`).replace("\u202e", "\\u202e"),
    ]);
  });

  test("NUL bytes and non-names in env are refused before they reach a program", async () => {
    const doc = baseConfig(BASE);
    (doc.runtimes as { bot: { command: string[]; env: Record<string, string> } }).bot.command.push("a\u0000b");
    (doc.runtimes as { bot: { env: Record<string, string> } }).bot.env = { "A=B": "1", OK: "x\u0000" };
    const result = await load(toYaml(doc));
    expect(result.ok ? [] : result.problems).toEqual([
      "org.yaml:12:9: runtimes.bot.command[3] contains a NUL byte, which no program, " +
        "git path or file name can hold — remove the \\0 from the value",
      'org.yaml:15:7: runtimes.bot.env has "A=B", which is not an environment variable name — use letters, ' +
        'digits and \'_\', not starting with a digit, e.g. PYTHONUNBUFFERED',
      "org.yaml:16:7: runtimes.bot.env.OK contains a NUL byte, which no program, git path or file name can hold — " +
        "remove the \\0 from the value",
    ]);
  });
});

describe("config fuzzing through the real CLI and a running org", () => {
  const mutations = generateMutations({ seed: SEED, count: COUNT, base: BASE });
  let org: TestOrg | undefined;
  afterEach(() => {
    teardownOrg(org);
    org = undefined;
  });

  test("a sample through `org validate`: exit 0 with the summary, " +
    "or exit 1 with only file:line:col lines", async () => {
    org = createTestOrg({ yaml: (name) => toYaml(baseConfig({ ...BASE, name })) });
    const { dir } = org;
    const sample = sampleOf(mutations, Number(process.env.ORG_FUZZ_CLI_SAMPLE ?? 30));
    const failures: string[] = [];
    const viaProcess = new Set<"valid" | "rejected">();
    for (const mutation of sample) {
      writeFileSync(join(dir, "org.yaml"), mutation.text);
      const expected = await readAndLoadConfig({ cwd: dir });
      // The command's own code in this process: a process per case only repeats the one checked below.
      const result = await runOrgInProcess(["validate"], { cwd: dir });
      const label = `#${mutation.index} ${mutation.kind}: ${mutation.what.slice(0, 120)}`;
      const verdict = "loaded" in expected ? "valid" : "rejected";
      if (!viaProcess.has(verdict)) {
        viaProcess.add(verdict);
        const built = await runOrgAsync(["validate"], { cwd: dir });
        const said = JSON.stringify(built);
        if (said !== JSON.stringify(result)) failures.push(`${label}: the built CLI said ${said.slice(0, 500)}`);
      }
      if ("loaded" in expected) {
        if (result.code !== 0 || !/^org\.yaml is valid: /.test(result.stdout) || result.stderr !== "")
          failures.push(`${label}: valid in-process, CLI said ${JSON.stringify(result)}`);
        continue;
      }
      const lines = result.stderr.split("\n").filter(Boolean);
      if (result.code !== 1 || result.stdout !== "" || !lines.every((line) => PROBLEM_LINE.test(line)))
        failures.push(`${label}: ${JSON.stringify(result).slice(0, 500)}`);
      else if (result.stderr !== `${expected.problems.join("\n")}\n`)
        failures.push(`${label}: CLI and loader disagree`);
    }
    expect(failures).toEqual([]);
    expect(sample.length).toBeGreaterThanOrEqual(Math.min(30, COUNT));
    // One valid and one rejected file also went through the built CLI's own process.
    expect([...viaProcess].sort()).toEqual(["rejected", "valid"]);
  }, 180_000);

  test("a sample written over a running org's org.yaml: each rejected and reported, the org untouched", async () => {
    org = createTestOrg({ yaml: (name) => toYaml(baseConfig({ ...BASE, name })) });
    const { dir, name, socket } = org;
    const good = toYaml(baseConfig({ ...BASE, name }));
    const state = join(dir, "state");
    expect(runOrg(["up"], { cwd: dir }).code).toBe(0);
    const agents = ["chief-1", "researcher-1", "researcher-2"];
    const panes = "#{pane_id} #{pane_pid} #{pane_dead} #{@org_agent}";
    const snapshot = () => readOrgSnapshot({ dir, name, socket }, agents, panes);
    await pollUntil(() => snapshot().programs.every((pid) => typeof pid === "number"), { what: "every agent started" });
    const before = snapshot();
    // Only mutations the loader rejects: a valid one would be applied, as it should.
    const candidates: ConfigMutation[] = [];
    for (const mutation of mutations) if (!(await load(mutation.text)).ok) candidates.push(mutation);
    const sample = sampleOf(candidates, Number(process.env.ORG_FUZZ_RELOAD_SAMPLE ?? 20));
    let last = "";
    for (const mutation of sample) {
      const label = `#${mutation.index} ${mutation.kind}: ${mutation.what.slice(0, 120)}`;
      writeFileSync(join(dir, "org.yaml"), mutation.text);
      const expected = await readAndLoadConfig({ cwd: dir });
      expect("problems" in expected, label).toBe(true);
      const seen = await pollUntil(() => {
        const record = readJsonFile<ReloadRecord>(join(state, "reload.json"));
        return record.at !== last && record.outcome === "rejected" ? record : undefined;
      }, { what: `the daemon to reject ${label}`, timeoutMs: 15_000 });
      last = seen.at;
      expect(seen.problems, label).toEqual((expected as { problems: string[] }).problems);
      expect(snapshot(), label).toEqual(before);
      // reload.json is written just before log.md.
      await pollUntil(() => readFileSync(join(state, "log.md"), "utf8").includes(seen.problems[0]!), {
        what: `log.md to report ${label}`,
      });
    }
    expect(runOrg(["status"], { cwd: dir }).stdout).toContain("was rejected; the org runs as before:");
    writeFileSync(join(dir, "org.yaml"), good);
    await pollUntil(() => readJsonFile<ReloadRecord>(join(state, "reload.json")).outcome === "in-sync", {
      what: "the good org.yaml back in sync",
    });
    expect(snapshot()).toEqual(before);
    expect(sample).toHaveLength(Math.min(20, candidates.length));
  }, 300_000);
});
