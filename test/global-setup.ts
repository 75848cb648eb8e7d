import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import makeRunTmp from "./run-tmp.js";

// End-to-end tests run the built CLI (panes run bin/org.js, which loads dist/bundle), so bundle once before any test.
// Only the bundle: type errors are `npm run typecheck`'s to report, and no test loads tsc's dist/ (~11 s of CPU).
export default function setup(): () => void {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const bundle = spawnSync(process.execPath, [`${root}scripts/bundle.mjs`], { cwd: root, encoding: "utf8" });
  if (bundle.status !== 0) throw new Error(`scripts/bundle.mjs failed: ${bundle.stderr}`);
  return makeRunTmp();
}
