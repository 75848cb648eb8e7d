// `org ablate` as text: a head line, one row per variant (each change, its agent, its Δ with its interval), the flags.
import type { ContributionRow } from "../domain/ablation/index.js";
import { renderTable } from "./fit-table.js";
import type { AblationView } from "../adapters/verifier/ablation-view.js";

/** The head, the table, and a line on how to read it. */
export function renderAblation(view: AblationView, width?: number): string {
  const { ablation, sigma } = view;
  const deltas = view.rows.flatMap((row) => (row.delta === undefined ? [] : [row.delta]));
  const digits = pickDigits([ablation.best.metric, ...deltas]);
  const number = (value: number) => value.toFixed(digits);
  const signed = (value: number) => `${value >= 0 ? "+" : ""}${number(value)}`;
  const runs = ` when kept (${ablation.best.runs} run${ablation.best.runs === 1 ? "" : "s"})`;
  const again = view.rows.find((row) => row.reverted.length === 0 && row.metric !== undefined);
  const measured = again ? `, ${number(again.metric!)} measured again (${again.runs} runs)` : "";
  const noise = sigma === undefined ? "σ unknown (no repeated baseline yet)" : `σ ${number(sigma)}`;
  const head = `ablation of ${ablation.commit.slice(0, 7)}: ${ablation.metric} ${number(ablation.best.metric)}`
    + `${runs}${measured}, `
    + `${ablation.changes.length} kept change${ablation.changes.length === 1 ? "" : "s"}, `
    + `${view.measured} of ${view.rows.length} variant${view.rows.length === 1 ? "" : "s"} measured `
    + `× ${ablation.repeats} seeds, ${noise}`;
  const header = ["change", "agent", `Δ ${ablation.metric}`, "95 % interval", "without it", "effect"];
  const cells = view.rows.map((row) => [
    row.reverted.length === 0 ? `none (${ablation.commit.slice(0, 7)})`
      : row.reverted.map((change) => `${change.commit.slice(0, 7)}${change.kind === "stack" ? " (stack)" : ""}`)
        .join(" + "),
    row.reverted.length === 0 ? "—" : [...new Set(row.reverted.map((change) => change.agent))].join(", "),
    row.delta === undefined ? "—" : signed(row.delta),
    row.interval ? `[${signed(row.interval[0])}, ${signed(row.interval[1])}]` : "—",
    row.metric === undefined ? "—" : `${number(row.metric)} (${row.runs} run${row.runs === 1 ? "" : "s"})`,
    describeEffect(row),
  ]);
  const table = renderTable(header, cells, { width, cut: ["effect"], wrap: ["effect"] });
  const how = `Δ = the best's ${ablation.metric} minus the best's without the change (${ablation.goal === "minimize"
    ? "negative" : "positive"}: it helps)`;
  return [head, table, how].join("\n");
}

function describeEffect(row: ContributionRow): string {
  const others = row.entangled?.with.map((commit) => commit.slice(0, 7)).join(", ");
  const entangled = others ? ` (entangled: its revert conflicts with ${others}; reverted together)` : "";
  if (row.state !== "measured") return `${row.state}: ${row.note}${entangled}`;
  return `${row.note}${entangled}`;
}

/** Enough decimals to show the smallest difference, at least 4 and at most 10. */
export function pickDigits(values: number[]): number {
  const smallest = Math.min(...values.map((value) => Math.abs(value)).filter((value) => value > 0));
  if (!Number.isFinite(smallest)) return 4;
  return Math.min(10, Math.max(4, 3 - Math.floor(Math.log10(smallest))));
}
