import { mkdirSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { LoadedConfig, OrgConfig } from "../../../src/domain/config/index.js";
import { ConfigSchema } from "../../../src/domain/config/index.js";
import { orgPaths, type OrgPaths } from "../../../src/domain/paths.js";
import type { OrgRecord } from "../../../src/domain/state.js";
import { VerifierHandle } from "../../../src/daemon/verifier/handle.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

const configWith = (metric: string): OrgConfig => ConfigSchema.parse({
  name: "toy",
  roles: { researcher: { prompt: "p.md", runtime: "claude" } },
  verify: { command: ["python3", "train.py"], metric: { name: metric, pattern: "^x: ([0-9.]+)", goal: "minimize" } },
});
const record = { agents: [], pool: undefined } as unknown as OrgRecord;

let dir: string;
let paths: OrgPaths;
beforeEach(() => {
  dir = makeTempDir();
  paths = orgPaths(dir);
  mkdirSync(paths.state, { recursive: true });
});
afterEach(() => removeDir(dir));

/** A handle whose org.yaml reads as `live` says; what each started loop was handed, and what it said. */
function makeHandle(live: { read: Read }) {
  const started: OrgConfig[] = [];
  const said: string[] = [];
  const loop = { tick: async () => {}, drain: async () => {}, stop: async () => {} };
  const start = (_: OrgRecord, config: OrgConfig) => (started.push(config), loop);
  const handle = new VerifierHandle(paths, start, async () => live.read, (line) => said.push(line));
  return { handle, started, said };
}

type Read = { loaded: LoadedConfig } | { problems: string[] };
const loadedWith = (config: OrgConfig) => ({ loaded: { config } as LoadedConfig });

/** An applied reload, as the verifier sees one: reload.json rewritten. */
function markReload(at: string): void {
  writeFileSync(`${paths.state}/reload.json`, JSON.stringify({ at }));
  writeFileSync(paths.orgFile, JSON.stringify(record));
}

describe("the verifier's verify section", () => {
  test("is the one handed at start: a later edit is said once and never judged by", async () => {
    const live: { read: Read } = { read: loadedWith(configWith("val_bpb")) };
    const { handle, started, said } = makeHandle(live);
    await handle.begin(record, configWith("val_bpb"));
    const edited = configWith("loss");
    live.read = loadedWith({ ...edited, roles: { ...edited.roles, extra: edited.roles.researcher! } });
    markReload("1");
    await handle.tick(new Date());
    await handle.tick(new Date());
    expect(started.map((config) => [config.verify?.metric.name, Object.keys(config.roles)])).toEqual([
      ["val_bpb", ["researcher"]],
      ["val_bpb", ["researcher", "extra"]],
    ]);
    expect(handle.judgedVerify(configWith("loss").verify)?.metric.name).toBe("val_bpb");
    expect(said).toEqual([
      "org.yaml's verify section changed: the verifier keeps judging as it started — `org down && org up` applies it",
    ]);
  });

  test("after a bad org.yaml at start, is the one of the first reload that loads", async () => {
    const live: { read: Read } = { read: { problems: ["org.yaml:1:1: bad"] } };
    const { handle, started } = makeHandle(live);
    await handle.begin(record, undefined);
    expect(handle.judgedVerify(configWith("loss").verify)?.metric.name).toBe("loss");
    live.read = loadedWith(configWith("val_bpb"));
    markReload("1");
    await handle.tick(new Date());
    expect(started.map((config) => config.verify?.metric.name)).toEqual(["val_bpb"]);
    expect(handle.judgedVerify(configWith("loss").verify)?.metric.name).toBe("val_bpb");
  });
});
