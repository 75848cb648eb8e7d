#!/usr/bin/env node
// Every agent pane starts `org supervise`: skip the CLI parser on that path, it starts N times per `org up`.
const [command, agent, flag, state] = process.argv.slice(2);
if (command === "supervise" && agent && flag === "--state" && state) {
  const { runSupervise } = await import("../dist/cli/commands/supervise.js");
  process.exitCode = await runSupervise({ agent, state });
} else {
  const { main } = await import("../dist/cli/main.js");
  process.exitCode = await main(process.argv.slice(2));
}
