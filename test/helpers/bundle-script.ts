import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
// An ESM bundle: the CommonJS bundled into it (yaml, commander) calls require() for node's built-ins.
const BANNER = "import { createRequire as __orgCreateRequire } from 'node:module'; "
  + "const require = __orgCreateRequire(import.meta.url);";

/**
 * A script that imports org's modules from src/, bundled into dist/fixtures/<name>.mjs for a test to run with node:
 * the suite builds only the CLI's bundle, and under dist/ node still finds the packages left external.
 */
export async function bundleScript(name: string, source: { file: string } | { text: string }): Promise<string> {
  const outfile = `${ROOT}dist/fixtures/${name}.mjs`;
  const entry = "file" in source
    ? { entryPoints: [source.file] }
    : { stdin: { contents: source.text, resolveDir: ROOT, sourcefile: `${name}.mjs`, loader: "js" as const } };
  await build({
    ...entry, outfile, bundle: true, format: "esm", platform: "node", target: "node20", logLevel: "error",
    banner: { js: BANNER },
    external: ["blessed", "node-pty", "@xterm/headless", "vega", "vega-lite"],
  });
  return outfile;
}
