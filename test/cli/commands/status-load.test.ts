// `org status` loads what it prints, not the config schema: zod and the schemas built with it were ~a fifth of its CPU.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const EXTERNAL = ["node-pty", "blessed", "@xterm/headless", "vega", "vega-lite"];

/** Every module `entry` loads before it runs (dynamic imports, loaded only when needed, left out). */
async function listStaticImports(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [`${root}${entry}`], absWorkingDir: root, bundle: true, write: false, platform: "node", format: "esm",
    metafile: true, logLevel: "silent", external: EXTERNAL,
  });
  const { inputs } = result.metafile;
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind === "dynamic-import" || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return [...seen];
}

test("org status loads neither zod nor the config schema; the queue's schema comes with a queued request", async () => {
  const loaded = await listStaticImports("src/cli/commands/status.ts");
  expect(loaded).toContain("src/adapters/store/queue.ts");
  // Every running agent has a status.json: its check comes with status itself, so it must be zod-free too.
  expect(loaded).toContain("src/domain/lifecycle/agent-status-schema.ts");
  const heavy = /node_modules\/zod\/|src\/domain\/config\/schema\.ts$|src\/domain\/experiments\/request\.ts$/;
  expect(loaded.filter((path) => heavy.test(path))).toEqual([]);
});
