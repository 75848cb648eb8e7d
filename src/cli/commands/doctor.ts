import { renderTable } from "../../ui/fit-table.js";
import { fitLines } from "../../ui/wrap-text.js";
import type { Io } from "../io.js";
import { EXIT, parseProblem } from "../../domain/scripting/index.js";
import { formatJson } from "../../domain/safe-text.js";
import { runDoctorChecks } from "../../flows/views/doctor-view.js";

/** `org doctor`: node, git, tmux, nvidia-smi and every runtime program of this org. */
export async function runDoctor(opts: { root: string; json?: boolean }, io: Io): Promise<number> {
  const { checks, problems } = await runDoctorChecks(opts.root, new Date());
  const code = checks.some((check) => check.status === "fail") ? EXIT.failure : EXIT.ok;
  if (opts.json) {
    const parsed = problems.map(parseProblem);
    const config = { valid: parsed.length === 0, problems: parsed };
    const shown = checks.map(({ name, status, detail, fix }) => ({ name, status, detail, fix: fix ?? null }));
    io.out(formatJson({ ok: code === EXIT.ok, checks: shown, config }));
    return code;
  }
  const rows = checks.map((check) => [check.name, check.status, check.detail, check.fix ?? ""]);
  io.out(renderTable(["CHECK", "STATUS", "DETAIL", "FIX"], rows, { width: io.columns, wrap: ["DETAIL", "FIX"] }));
  const told = `org.yaml: ${problems.length} problem(s); run \`org validate\` for details`;
  if (problems.length > 0) io.out(fitLines(told, io.columns));
  return code;
}
