/** One problem as `--json` gives it; line and col are null where the problem has no place in the file. */
export interface ProblemJson {
  file: string;
  line: number | null;
  col: number | null;
  message: string;
  fix: string | null;
  severity: "error" | "warning";
}

// `file:line:col: what — fix`, or `file: what — fix` for a file that is missing or unreadable.
const PLACED = /^(?<file>.+?):(?<line>\d+):(?<col>\d+): (?<rest>.*)$/s;
const UNPLACED = /^(?<file>[^\s:]+): (?<rest>.*)$/s;
const WARNING = /^warning: /;

/** A config problem line, as `org validate` prints it, taken apart into its fields. */
export function parseProblem(text: string): ProblemJson {
  const severity = WARNING.test(text) ? "warning" : "error";
  const body = text.replace(WARNING, "");
  const placed = PLACED.exec(body)?.groups;
  const unplaced = placed ? undefined : UNPLACED.exec(body)?.groups;
  const { what, fix } = splitFix(placed?.rest ?? unplaced?.rest ?? body);
  return {
    file: placed?.file ?? unplaced?.file ?? "",
    line: placed ? Number(placed.line) : null,
    col: placed ? Number(placed.col) : null,
    message: what,
    fix,
    severity,
  };
}

/** `what — how to fix` as its two halves, at the first dash; no dash: no fix. */
export function splitFix(text: string): { what: string; fix: string | null } {
  const at = text.indexOf(" — ");
  return at < 0 ? { what: text, fix: null } : { what: text.slice(0, at), fix: text.slice(at + 3) };
}
