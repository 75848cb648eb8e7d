#!/usr/bin/env node
import { existsSync } from "node:fs";

// The daemon's pane starts with the grid, while `org up` still works: it loads nothing until org.json exists,
// so its start-up (a quarter second of CPU) does not slow the `org up` a person waits on.
const after = process.argv[2] === "daemon" ? process.argv.indexOf("--after") : -1;
for (let waited = 0; after > 0 && !existsSync(process.argv[after + 1]) && waited < 30_000; waited += 25) {
  await new Promise((resolve) => setTimeout(resolve, 25));
}
// dist/bundle is `npm run build`'s single-file CLI: loading it is most of the start-up time saved.
const { main } = await import("../dist/bundle/main.js");
process.exitCode = await main(process.argv.slice(2));
