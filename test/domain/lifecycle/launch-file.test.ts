// state/agents/<agent>/launch.json through its owner: read back whole; a damaged one is named to the supervisor with
// its fix, and reads as none to everyone else.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { filesPort } from "../../../src/adapters/fs/files-port.js";
import { loadLaunchSpec, readLaunchSpec, writeLaunchSpec } from "../../../src/domain/lifecycle/launch-file.js";
import type { LaunchSpec } from "../../../src/domain/state.js";
import { makeTempDir, removeDir } from "../../helpers/temp-repo.js";

let state: string | undefined;
afterEach(() => {
  if (state) removeDir(state);
  state = undefined;
});

const SPEC: LaunchSpec = {
  agent: "a-1", role: "researcher", argv: ["claude"], cwd: "/work", env: { PATH: "/bin" }, restart: "always",
  backoffMs: 1000, maxBackoffMs: 60_000, maxRestarts: 5, healthyAfterMs: 30_000, passEnv: ["API_KEY"],
  runtime: { preset: "claude", home: "/home/a-1" } as LaunchSpec["runtime"],
};

test("a spec is written and read back whole; none before `org up` wrote it, and the supervisor says so", async () => {
  state = makeTempDir("org-launch-");
  const file = join(state, "agents", "a-1", "launch.json");
  expect(await readLaunchSpec(filesPort, state, "a-1")).toBeUndefined();
  expect(await loadLaunchSpec(filesPort, state, "a-1")).toBe(`${file} not found — run \`org up\` to write it`);
  await writeLaunchSpec(filesPort, state, "a-1", SPEC);
  expect(await readLaunchSpec(filesPort, state, "a-1")).toEqual(SPEC);
});

test.each([
  ["cut short", '{"agent": "a-1", "ro', /^invalid .*: .*JSON.* — rerun `org up`$/],
  ["with a restart policy of another kind", JSON.stringify({ ...SPEC, restart: "sometimes" }), /: restart: expected /],
])("a spec %s is named to the supervisor, reads as none to the rest, and is left as it was", async (_, text, why) => {
  state = makeTempDir("org-launch-");
  const file = join(state, "agents", "a-1", "launch.json");
  mkdirSync(join(state, "agents", "a-1"), { recursive: true });
  writeFileSync(file, text);
  expect(await readLaunchSpec(filesPort, state, "a-1")).toBeUndefined();
  const named = await loadLaunchSpec(filesPort, state, "a-1");
  expect(named).toMatch(why);
  expect(named).toMatch(new RegExp(`^invalid ${file}: `));
  expect(readFileSync(file, "utf8")).toBe(text);
});
