import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Spec } from "vega";
import type { TopLevelSpec } from "vega-lite";

/** A Vega-Lite spec compiled to Vega (what the page runs) and rendered to SVG here, with no browser or canvas. */
export async function renderChart(spec: TopLevelSpec): Promise<{ vega: Spec; svg: string }> {
  // Imported here: both are ESM only, which bin/org.js's CommonJS bundle reaches through import() alone.
  const [{ parse, View }, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  const vega = compile(spec).spec;
  const view = new View(parse(vega), { renderer: "none" });
  const svg = await view.toSVG();
  view.finalize();
  return { vega, svg };
}

/** Vega's browser build, inlined into the report so the page works offline and from a file. */
export async function readVegaRuntime(): Promise<string> {
  // The package exports only its ESM entry; the minified UMD build sits beside it.
  const entry = fileURLToPath(import.meta.resolve("vega"));
  return readFile(join(dirname(entry), "vega.min.js"), "utf8");
}
