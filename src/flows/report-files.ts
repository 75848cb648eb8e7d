import { writeFileAtomic } from "../adapters/fs/files.js";

/** The chart renderer and the vega runtime `org report` embeds: vega is heavy to import, only the report needs it. */
export async function loadChartRenderer() {
  const { readVegaRuntime, renderChart } = await import("../adapters/render/vega-chart.js");
  return { readVegaRuntime, renderChart };
}

/** The report's HTML page and its SVG chart, each written whole or not at all. */
export async function writeReportFiles(files: { htmlPath: string; html: string; svgPath: string; svg: string }) {
  await writeFileAtomic(files.htmlPath, files.html);
  await writeFileAtomic(files.svgPath, `${files.svg}\n`);
}
