// The commands whose -f names a file to read; `org logs -f` follows instead.
const FILE_COMMANDS = ["send", "task", "contract", "review", "plan"];

/** Where a brokered command's -f is, as the shim (src/org/sandbox/shim.ts) finds it: its path and the argv naming another. */
export interface FileOption {
  /** The last one given, as the CLI takes it. */
  path: string;
  /** The argv with every -f naming `name` instead. */
  rewrite(name: string): string[];
}

/** The file a command's -f names (-f x, -fx, --file x, --file=x, none after --); undefined when it names none. */
export function findFileOption(argv: readonly string[]): FileOption | undefined {
  if (!FILE_COMMANDS.includes(argv[0] ?? "")) return undefined;
  const spots: { index: number; prefix: string }[] = [];
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === "--") break;
    if (arg === "-f" || arg === "--file") {
      if (index + 1 < argv.length) spots.push({ index: index + 1, prefix: "" });
      index++;
    } else if (arg.startsWith("--file=")) spots.push({ index, prefix: "--file=" });
    else if (/^-f./.test(arg)) spots.push({ index, prefix: "-f" });
  }
  const last = spots.at(-1);
  if (!last) return undefined;
  return {
    path: argv[last.index]!.slice(last.prefix.length),
    rewrite: (name) => argv.map((arg, index) => {
      const spot = spots.find((candidate) => candidate.index === index);
      return spot ? `${spot.prefix}${name}` : arg;
    }),
  };
}
