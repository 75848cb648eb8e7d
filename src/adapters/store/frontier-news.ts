// The frontier messages in an agent's inbox: the verifier's "the org's best advanced", read or not.
import { join } from "node:path";
import { mailPort } from "./inbox-files.js";

const FRONTIER_TITLE = "the org's best advanced";

/** Ids (file names) of the inbox's frontier messages; none when the inbox does not exist. */
export async function listFrontierNews(inbox: string): Promise<string[]> {
  const names = (await mailPort.listNames(inbox)).filter((name) => name.endsWith(".md")).sort();
  const texts = await Promise.all(names.map((name) => mailPort.readText(join(inbox, name))));
  return names.filter((_, index) => texts[index]?.includes(FRONTIER_TITLE) === true);
}
