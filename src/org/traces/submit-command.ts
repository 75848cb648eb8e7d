// `org submit` as an agent's transcript shows it: the command it ran, and what org printed back.

const SUBMIT = /(?:^|[\s;&|()`'"/])org\s+submit(?:\s|$)/;
const MESSAGE = /(?:^|\s)(?:-m|--message)(?:\s+|=)(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+))/;
const COMMIT = /\b(?:submitted|queued) ([0-9a-f]{7,40})\b|"commit"\s*:\s*"([0-9a-f]{7,40})"/;
const ID = /\bas (\S+-[0-9a-f]{7})\s*$|"id"\s*:\s*"([^"]+-[0-9a-f]{7})"/m;

/** Whether a shell command runs `org submit` (by name or by a path ending in org, alone or in a chain). */
export function isSubmitCommand(command: string): boolean {
  return SUBMIT.test(command);
}

/** The -m/--message text of a submit command, as the shell would pass it; undefined when it has none. */
export function readSubmitMessage(command: string): string | undefined {
  const match = MESSAGE.exec(command);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : (match[2] ?? match[3]);
}

/** What `org submit` printed: the commit it submitted and the experiment id where it says them. */
export function readSubmitAnswer(output: string): { commit?: string; id?: string } {
  const commit = COMMIT.exec(output);
  const id = ID.exec(output);
  return {
    ...(commit ? { commit: commit[1] ?? commit[2] } : {}),
    ...(id ? { id: id[1] ?? id[2] } : {}),
  };
}
