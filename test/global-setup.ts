import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// End-to-end tests run the built CLI (panes run bin/org.js), so compile once before any test.
// Type errors are `npm run typecheck`'s to report; tsc still emits, so a red build never hides tests.
export default function setup(): void {
  const root = fileURLToPath(new URL("../", import.meta.url));
  spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, "-p", `${root}tsconfig.json`], { cwd: root, stdio: "ignore" });
  const bundle = spawnSync(process.execPath, [`${root}scripts/bundle.mjs`], { cwd: root, encoding: "utf8" });
  if (bundle.status !== 0) throw new Error(`scripts/bundle.mjs failed: ${bundle.stderr}`);
}
