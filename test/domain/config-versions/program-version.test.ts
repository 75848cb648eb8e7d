import { describe, expect, test } from "vitest";
import type { OrgConfig } from "../../../src/domain/config/index.js";
import { describeAuthor, describeProgramChanges } from "../../../src/domain/config-versions/version-changes.js";
import { resolveVersion } from "../../../src/domain/config-versions/resolve-version.js";
import {
  findLastProgram, findProgramAt, listSpans, parseProgramEvents,
} from "../../../src/domain/config-versions/version-timeline.js";
import { computeProgramVersion, normalizePrompt } from "../../../src/domain/config-versions/version.js";
import { load } from "../../fixtures/configs/fake-probe.js";

const YAML = `name: toy
runtimes:
  mybot: { command: [mybot, "{prompt_file}"] }
roles:
  researcher: { prompt: prompts/researcher.md, runtime: mybot, count: 2 }
`;
const PROMPT = "# Researcher\nYou are {{agent}}.\n\nEdit only {{edits}}.\n";

async function configOf(text: string): Promise<OrgConfig> {
  const result = await load(text);
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.loaded.config;
}

async function versionOf(text: string, prompt = PROMPT): Promise<string> {
  return computeProgramVersion({ config: await configOf(text), prompts: { "prompts/researcher.md": prompt } });
}

describe("program versions", () => {
  test("8 hex digits, the same for org.yaml with other comments, whitespace, "
    + "key order or spelled-out defaults", async () => {
    const version = await versionOf(YAML);
    expect(version).toMatch(/^[0-9a-f]{8}$/);
    const reworded = `# the toy org\nname:   toy   # its name\n\nroles:\n  researcher:\n    count: 2\n`
      + `    runtime: mybot\n    prompt: prompts/researcher.md\n    gpu: false\nruntimes:\n  mybot:\n`
      + `    command: [mybot, "{prompt_file}"]\nbase: main\n`;
    expect(await versionOf(reworded)).toBe(version);
  });

  test("a count, a runtime or a section that changes gives another version", async () => {
    const version = await versionOf(YAML);
    expect(await versionOf(YAML.replace("count: 2", "count: 3"))).not.toBe(version);
    expect(await versionOf(`${YAML}stop: { max_experiments: 10 }\n`)).not.toBe(version);
  });

  test("prompt whitespace does not count: trailing spaces, CRLF, "
    + "runs of blank lines, blank lines at the ends", async () => {
    const version = await versionOf(YAML);
    expect(
      await versionOf(YAML, "\n\n# Researcher   \r\nYou are {{agent}}.\t\r\n\r\n\r\n\r\nEdit only {{edits}}.\n\n\n"),
    ).toBe(version);
    expect(normalizePrompt("a  \n\n\n\nb\n")).toBe("a\n\nb");
  });

  test("prompt words count, and so do Markdown comments: the agent reads them", async () => {
    const version = await versionOf(YAML);
    expect(await versionOf(YAML, PROMPT.replace("Edit only", "Change only"))).not.toBe(version);
    expect(await versionOf(YAML, `${PROMPT}<!-- be bold -->\n`)).not.toBe(version);
  });
});

describe("what changed between two programs", () => {
  test("roles added and removed, counts, runtimes, prompts and other sections, each on a line", async () => {
    const before = {
      config: await configOf(`${YAML}  critic: { prompt: prompts/researcher.md, runtime: mybot }\n`),
      prompts: { "prompts/researcher.md": PROMPT },
    };
    const afterYaml = YAML.replace("count: 2", "count: 4").replace("runtime: mybot, count", "runtime: claude, count")
      .concat("  scout: { prompt: prompts/researcher.md, runtime: mybot, count: 1 }\nstop: { max_experiments: 10 }\n");
    const after = { config: await configOf(afterYaml), prompts: { "prompts/researcher.md": `${PROMPT}Be brief.\n` } };
    expect(describeProgramChanges(before, after)).toEqual([
      "~ researcher count 2 → 4",
      "~ researcher runtime mybot → claude",
      "+ role scout ×1 (runtime mybot, prompt prompts/researcher.md)",
      "- role critic (was ×1)",
      "+ runtime claude",
      "~ prompt prompts/researcher.md changed",
      "~ stop changed",
    ]);
  });

  test("a first program lists its roles; a whitespace-only prompt edit is no change", async () => {
    const program = { config: await configOf(YAML), prompts: { "prompts/researcher.md": PROMPT } };
    expect(describeProgramChanges(undefined, program)).toEqual(["first version: researcher ×2 (mybot)"]);
    expect(
      describeProgramChanges(program, { ...program, prompts: { "prompts/researcher.md": `${PROMPT}\n\n` } }),
    ).toEqual(["= nothing that counts: whitespace or comments only"]);
  });

  test("a verify change says when the verifier starts judging by it", async () => {
    const verify = "verify: { command: [python, train.py], metric: { name: val_bpb, pattern: "
      + "'val_bpb: (.*)' }, timeout: 1m }\n";
    const before = { config: await configOf(`${YAML}${verify}`), prompts: { "prompts/researcher.md": PROMPT } };
    const after = { ...before, config: await configOf(`${YAML}${verify.replace("1m", "2m")}`) };
    expect(describeProgramChanges(before, after)).toEqual([
      "~ verify changed (runs are judged by it from the next `org up`)",
    ]);
  });

  test("who changed it, in words", () => {
    expect(
      ["daemon", "org reload", "org up", "meta edit by meta-1", "org program restore 1a2b3c4d"].map(describeAuthor),
    ).toEqual([
      "a person's save, applied by hot reload", "`org reload`", "`org up`", "the meta role's proposal (meta-1)",
      "`org program restore 1a2b3c4d`",
    ]);
  });
});

describe("resolving a version id", () => {
  const saved = ["1a2b3c4d", "1a99ffee", "7777aaaa"];
  test("a whole version or a unique prefix, in any case", () => {
    expect(resolveVersion("7777aaaa", saved, [])).toEqual({ kind: "found", version: "7777aaaa" });
    expect(resolveVersion(" 1A2 ", saved, [])).toEqual({ kind: "found", version: "1a2b3c4d" });
  });
  test("an ambiguous prefix names its matches", () => {
    expect(resolveVersion("1a", saved, [])).toEqual({
      kind: "ambiguous",
      reason: "1a matches 2 versions: 1a2b3c4d, 1a99ffee — give more of its digits",
    });
  });
  test("an unknown id, a non-hex id and unversioned list the saved versions", () => {
    const known = "saved versions: 1a2b3c4d, 1a99ffee, 7777aaaa";
    expect(resolveVersion("deadbeef", saved, [])).toEqual({
      kind: "unknown",
      reason: `no program version deadbeef — ${known}`,
    });
    expect(resolveVersion("v1", saved, [])).toEqual({
      kind: "unknown",
      reason: `"v1" is not a program version (hex digits, as \`org history\` lists them) — ${known}`,
    });
    expect(resolveVersion("unversioned", saved, []).kind).toBe("unknown");
    expect(resolveVersion("deadbeef", [], [])).toEqual({
      kind: "unknown",
      reason: "no program version deadbeef — no program is saved yet: `org up` saves the first",
    });
  });
  test("a version the history names whose folder is gone is missing, not unknown", () => {
    expect(resolveVersion("beef", saved, ["beef0001"])).toEqual({
      kind: "missing",
      reason: `program beef0001 ran here, but its saved copy state/programs/beef0001/ is gone (removed by hand?) — `
        + `saved versions: 1a2b3c4d, 1a99ffee, 7777aaaa`,
    });
  });
});

describe("the timeline of history.jsonl", () => {
  const text = [
    JSON.stringify({ at: "2026-01-07T10:00:00.000Z", kind: "use", version: "aaaaaaaa", by: "org up" }),
    "{not json",
    JSON.stringify({ at: "2026-01-07T11:00:00.000Z", kind: "use", version: "bbbbbbbb", by: "daemon" }),
    JSON.stringify({ at: "2026-01-07T12:00:00.000Z", kind: "stop", by: "org down" }),
    JSON.stringify({ at: "2026-01-07T13:00:00.000Z", kind: "use", by: "org up" }),
    JSON.stringify({ at: "2026-01-07T14:00:00.000Z", kind: "use", version: "aaaaaaaa", by: "org up" }),
    '{"at":"2026-01-07T15:00',
  ].join("\n");
  const events = parseProgramEvents(text);
  test("lines cut short or not ours are skipped", () => {
    expect(events.map((event) => event.kind)).toEqual(["use", "use", "stop", "use"]);
  });
  test("the program at a time, the last one, and the stretches each ran", () => {
    const times = ["2026-01-07T09:00:00.000Z", "2026-01-07T10:00:00.000Z", "2026-01-07T11:30:00.000Z",
      "2026-01-07T12:30:00.000Z", "nonsense"];
    expect(times.map((time) => findProgramAt(events, time)))
      .toEqual([undefined, "aaaaaaaa", "bbbbbbbb", "bbbbbbbb", undefined]);
    expect(findLastProgram(events)).toBe("aaaaaaaa");
    const at = (hour: number) => Date.parse(`2026-01-07T${hour}:00:00.000Z`);
    expect(listSpans(events)).toEqual([
      { version: "aaaaaaaa", from: at(10), to: at(11) },
      { version: "bbbbbbbb", from: at(11), to: at(12) },
      { version: "aaaaaaaa", from: at(14), to: undefined },
    ]);
  });
});
