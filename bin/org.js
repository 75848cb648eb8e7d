#!/usr/bin/env node
// `org … | head`: a reader that stops early ends the command quietly, as it would a shell tool, never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}
// dist/bundle is `npm run build`'s single-file CLI: loading it is most of the start-up time saved.
const { main } = await import("../dist/bundle/main.js");
process.exitCode = await main(process.argv.slice(2));
