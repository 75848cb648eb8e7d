import { Command } from "commander";
import { describe, expect, test } from "vitest";
import { defineCommand, registerCommands, type TableRow } from "../../src/cli/command-table.js";

function build(rows: readonly TableRow[]) {
  const program = new Command("org").exitOverride();
  const codes: number[] = [];
  const io = { out: () => undefined, err: () => undefined };
  registerCommands(program, rows, { root: () => "/org", dir: () => undefined, io, exit: (code) => codes.push(code) });
  return { program, codes };
}

describe("the command table", () => {
  test("a row's arguments and options reach its run, and its exit code is org's", async () => {
    const seen: unknown[] = [];
    const { program, codes } = build([
      defineCommand<{ runs: string; json?: boolean }, [string, string[]]>({
        name: "try", args: [["<commit>"], ["[words...]"]],
        options: [{ flags: "-n, --runs <n>", description: "", default: "5" }, { flags: "--json", description: "" }],
        run: async ({ args: [commit, words], opts, root }) => {
          seen.push(commit, words, opts, root());
          return 3;
        },
      }),
    ]);
    await program.parseAsync(["try", "abc", "x", "y", "--json"], { from: "user" });
    expect(seen).toEqual(["abc", ["x", "y"], { runs: "5", json: true }, "/org"]);
    expect(codes).toEqual([3]);
  });

  test("a subcommand runs under its group; a hidden row is left out of the help", async () => {
    const ran: string[] = [];
    const { program } = build([
      defineCommand({ name: "program", description: "versions" }),
      defineCommand({
        name: "program show",
        run: async () => {
          ran.push("show");
          return 0;
        },
      }),
      defineCommand({ name: "daemon", hidden: true, run: async () => 0 }),
    ]);
    await program.parseAsync(["program", "show"], { from: "user" });
    expect(ran).toEqual(["show"]);
    expect(program.helpInformation()).toContain("program");
    expect(program.helpInformation()).not.toContain("daemon");
  });

  test("a subcommand written before its group is refused by name", () => {
    expect(() => build([defineCommand({ name: "contract sign" })]))
      .toThrow('command table: "contract" must come before its subcommands');
  });
});
