#!/usr/bin/env node
// dist/bundle is `npm run build`'s single-file CLI: loading it is most of the start-up time saved.
const { main } = await import("../dist/bundle/main.js");
process.exitCode = await main(process.argv.slice(2));
