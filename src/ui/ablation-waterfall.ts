// The ablation's waterfall as a self-contained SVG: the baseline, each change's step, the rest, the best.
import type { WaterfallStep } from "../domain/ablation/index.js";
import type { Goal } from "../domain/experiments/verdict.js";

const ROW = 26;
const LABEL = 220;
const PLOT = 520;
const VALUE = 110;

/** One bar a step, on one axis from the lowest level to the highest; a gain is green, a loss red, the rest grey. */
export function renderWaterfallSvg(steps: readonly WaterfallStep[], metricName: string, goal: Goal): string {
  const levels = steps.flatMap((step) => [step.from, step.to]);
  const low = Math.min(...levels);
  const high = Math.max(...levels);
  // Totals start at the axis' floor: a margin below the lowest level keeps the smallest total visible.
  const floor = low - (high - low) * 0.1 || low - 1;
  const x = (value: number) => LABEL + ((value - floor) / (high - floor || 1)) * PLOT;
  const width = LABEL + PLOT + VALUE;
  const height = ROW * (steps.length + 1);
  const bars = steps.map((step, index) => {
    const y = ROW * index + 6;
    const total = step.kind === "baseline" || step.kind === "best";
    const [from, to] = total ? [floor, step.to] : [step.from, step.to];
    const left = Math.min(x(from), x(to));
    const size = Math.max(1, Math.abs(x(to) - x(from)));
    const gain = goal === "minimize" ? step.to < step.from : step.to > step.from;
    const fill = total ? "#6b7280" : step.kind === "rest" ? "#cbd5e1" : gain ? "#16a34a" : "#dc2626";
    const step3 = (step.to - step.from).toPrecision(3);
    const shown = total ? step.to.toPrecision(6) : `${step.to >= step.from ? "+" : ""}${step3}`;
    return `<text x="${LABEL - 8}" y="${y + 13}" text-anchor="end">${escapeXml(step.label)}</text>`
      + `<rect x="${left.toFixed(1)}" y="${y}" width="${size.toFixed(1)}" height="${ROW - 10}" fill="${fill}"/>`
      + `<text x="${LABEL + PLOT + 8}" y="${y + 13}">${escapeXml(shown)}</text>`;
  });
  const caption = `${escapeXml(metricName)} (${goal}): baseline, each kept change alone, the best`;
  return `<svg xmlns="http://www.w3.org/2000/svg" id="waterfall" width="${width}" height="${height}" `
    + `font-family="system-ui,sans-serif" font-size="12">${bars.join("")}`
    + `<text x="${LABEL}" y="${height - 6}" fill="#555">${caption}</text></svg>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
