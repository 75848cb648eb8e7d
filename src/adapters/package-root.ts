import { fileURLToPath } from "node:url";

// src/adapters/x.ts (tsx), dist/adapters/x.js (tsc) and dist/bundle/org.cjs (the bundle bin/org.js runs) all sit two
// folders below the root.
export const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));
