import { orgPaths } from "../../org/paths.js";
import { buildLeaderboard, parseResults } from "../../org/results.js";
import { readText } from "../../adapters/files.js";
import { renderLeaderboard } from "../../ui/leaderboard.js";
import type { Io } from "../io.js";
import { readAndLoadConfig } from "./validate.js";

/** `org results [--json]`: the leaderboard from state/results.tsv. */
export async function runResults(opts: { root: string; json: boolean }, io: Io): Promise<number> {
  const table = parseResults((await readText(orgPaths(opts.root).results)) ?? "");
  const read = await readAndLoadConfig({ cwd: opts.root });
  const goal = "loaded" in read ? (read.loaded.config.verify?.metric.goal ?? "minimize") : "minimize";
  const board = buildLeaderboard(table.rows, goal);
  const metricName = table.metricName ?? ("loaded" in read ? read.loaded.config.verify?.metric.name : undefined) ?? "metric";
  io.out(opts.json ? JSON.stringify({ metric: metricName, goal, ...board }, null, 2) : renderLeaderboard(board, metricName));
  return 0;
}
