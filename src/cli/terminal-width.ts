// How wide the person's terminal is, for the tables: fitted to it at a terminal, whole in a pipe (a script or an
// agent reading every row), whole with --wide.

/** The stream's side the width is read from: a TTY's `columns`, as node's tty.WriteStream gives it. */
export interface OutputStream {
  isTTY?: boolean;
  columns?: number;
}

/** A terminal's width when it is unknown: the one every terminal starts at. */
const DEFAULT_COLUMNS = 80;

/** $COLUMNS when set to a number, else a TTY's width (80 when it says none); undefined for a pipe. */
export function readColumns(env: NodeJS.ProcessEnv, stream: OutputStream): number | undefined {
  const set = Number(env.COLUMNS);
  if (env.COLUMNS !== undefined && env.COLUMNS.trim() !== "" && Number.isInteger(set) && set > 0) return set;
  if (!stream.isTTY) return undefined;
  return stream.columns !== undefined && stream.columns > 0 ? stream.columns : DEFAULT_COLUMNS;
}
