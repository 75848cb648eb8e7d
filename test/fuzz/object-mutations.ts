import type { Rng } from "./rng.js";
import { HOSTILE_STRINGS, WRONG_TYPES, hugeString } from "./hostile-values.js";

type Doc = Record<string, unknown>;
type Path = (string | number)[];
/** One change to the parsed config; returns a short description of what it did. */
export type ObjectMutation = (doc: Doc, rng: Rng) => string;

/** Every path to a value in the document, maps and lists included. */
export function listPaths(value: unknown, prefix: Path = []): Path[] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((item, index) => listPaths(item, [...prefix, index]))];
  if (value !== null && typeof value === "object")
    return [prefix, ...Object.entries(value).flatMap(([key, item]) => listPaths(item, [...prefix, key]))];
  return [prefix];
}

function parentOf(doc: Doc, path: Path): Record<string | number, unknown> {
  let node: unknown = doc;
  for (const segment of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[segment];
  return node as Record<string | number, unknown>;
}

function setAt(doc: Doc, path: Path, value: unknown): void {
  parentOf(doc, path)[path[path.length - 1]!] = value;
}

function deleteAt(doc: Doc, path: Path): void {
  let parent: unknown = doc;
  for (const segment of path.slice(0, -1))
    parent =
      parent !== null && typeof parent === "object" ? (parent as Record<string | number, unknown>)[segment] : undefined;
  // An earlier mutation of the same document may have removed the parent already.
  if (parent === null || typeof parent !== "object") return;
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete (parent as Record<string | number, unknown>)[key];
}

const leafPaths = (doc: Doc) => listPaths(doc).filter((path) => path.length > 0);
const mapPaths = (doc: Doc) => listPaths(doc).filter((path) => {
  const value = path.length === 0 ? doc : parentOf(doc, path)[path[path.length - 1]!];
  return value !== null && typeof value === "object" && !Array.isArray(value);
});
const show = (path: Path) => path.join(".") || "(root)";

/** Rename a key of a map, keeping its place in the order. */
function renameKey(map: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.entries(map).map(([key, value]) => [key === from ? to : key, value] as const);
  for (const key of Object.keys(map)) delete map[key];
  for (const [key, value] of entries) map[key] = value;
}

/** The map at doc[key]..., made one again if an earlier mutation on the same document broke it. */
function mapAt(doc: Doc, ...keys: string[]): Doc {
  let node = doc;
  for (const key of keys) {
    const next = node[key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) node[key] = {};
    node = node[key] as Doc;
  }
  return node;
}
const roles = (doc: Doc) => mapAt(doc, "roles") as Record<string, Doc>;
const role = (doc: Doc, name: string) => mapAt(doc, "roles", name);
const runtime = (doc: Doc, name: string) => mapAt(doc, "runtimes", name);
const verify = (doc: Doc) => mapAt(doc, "verify");

export const OBJECT_MUTATIONS: Record<string, ObjectMutation> = {
  "wrong type": (doc, rng) => {
    const path = rng.pick(leafPaths(doc));
    const value = rng.pick(WRONG_TYPES);
    setAt(doc, path, value);
    return `${show(path)} = ${JSON.stringify(value)}`;
  },
  "unknown key": (doc, rng) => {
    const path = rng.pick(mapPaths(doc));
    const target = (path.length === 0 ? doc : parentOf(doc, path)[path[path.length - 1]!]) as Doc;
    const keys = Object.keys(target);
    // Half are typos of a real key (did-you-mean), half are strangers.
    const key =
      rng.next() < 0.5 && keys.length > 0
        ? `${rng.pick(keys)}${rng.pick(["s", "_", "x"])}`
        : rng.pick(["extra", "../up", "$(touch PWNED)", "🧪", "command ", "__proto__", "constructor"]);
    target[key] = rng.pick(WRONG_TYPES);
    return `${show([...path, key])} added`;
  },
  "deleted field": (doc, rng) => {
    const required: Path[] = [
      ["roles"],
      ["roles", "chief", "prompt"],
      ["roles", "researcher", "runtime"],
      ["verify", "command"],
      ["verify", "metric"],
      ["verify", "metric", "name"],
      ["verify", "metric", "pattern"],
      ["runtimes", "bot", "command"],
      ["runtimes"],
    ];
    const path = rng.next() < 0.6 ? rng.pick(required) : rng.pick(leafPaths(doc));
    deleteAt(doc, path);
    return `${show(path)} deleted`;
  },
  "hostile role name": (doc, rng) => {
    const name = rng.pick(HOSTILE_STRINGS);
    renameKey(roles(doc), rng.pick(["chief", "researcher"]), name);
    return `role renamed to ${JSON.stringify(name)}`;
  },
  "hostile runtime name": (doc, rng) => {
    const name = rng.pick(HOSTILE_STRINGS);
    renameKey(mapAt(doc, "runtimes"), "bot", name);
    if (rng.next() < 0.5) for (const role of Object.values(roles(doc))) role.runtime = name;
    return `runtime renamed to ${JSON.stringify(name)}`;
  },
  "hostile org name": (doc, rng) => {
    doc.name = rng.pick(HOSTILE_STRINGS);
    return `name = ${JSON.stringify(doc.name)}`;
  },
  "hostile path": (doc, rng) => {
    const value = rng.pick(HOSTILE_STRINGS);
    const spot = rng.pick(["prompt", "share", "share-map", "protected", "edits", "repo", "base"]);
    if (spot === "prompt") role(doc, "chief").prompt = value;
    else if (spot === "share") doc.share = [value];
    else if (spot === "share-map") doc.share = [{ path: value, mode: rng.pick(["link", "copy", "move"]) }];
    else if (spot === "protected") verify(doc).protected = [value];
    else if (spot === "edits") role(doc, "researcher").edits = [value];
    else doc[spot] = value;
    return `${spot} = ${JSON.stringify(value)}`;
  },
  "hostile argument": (doc, rng) => {
    const value = rng.pick(HOSTILE_STRINGS);
    const spot = rng.pick(["command", "env", "env-key", "kickoff", "verify", "pattern", "quiet"]);
    if (spot === "command") runtime(doc, "bot").command = [...(runtime(doc, "bot").command as string[]), value];
    else if (spot === "env") runtime(doc, "bot").env = { FUZZ: value };
    else if (spot === "env-key") runtime(doc, "bot").env = { [value]: "1" };
    else if (spot === "kickoff") role(doc, "chief").kickoff = value;
    else if (spot === "verify") verify(doc).command = [value];
    else if (spot === "pattern")
      (verify(doc).metric as Doc).pattern = rng.pick([value, "([", "(?<", "^(a+)+$", "\\", "(?=x)*"]);
    else mapAt(doc, "messages").quiet = [value];
    return `${spot} carries ${JSON.stringify(value)}`;
  },
  "hostile reference": (doc, rng) => {
    const value = rng.pick(HOSTILE_STRINGS);
    if (rng.next() < 0.5) role(doc, "researcher").reports_to = value;
    else role(doc, "chief").talks_to = [value];
    return `reference to ${JSON.stringify(value)}`;
  },
  "reports_to cycle": (doc, rng) => {
    const length = rng.int(1, 3);
    if (length === 3) roles(doc).third = { prompt: "prompts/researcher.md", runtime: "bot", reports_to: "researcher" };
    role(doc, "chief").reports_to = length === 1 ? "chief" : length === 2 ? "researcher" : "third";
    if (length === 1) delete role(doc, "researcher").reports_to;
    return `a reports_to cycle of ${length}`;
  },
  "huge value": (doc, rng) => {
    const spot = rng.pick(["count", "kickoff", "name", "command", "roles", "talks_to", "env", "number", "key"]);
    if (spot === "count") role(doc, "researcher").count = rng.pick([257, 1e6, 1e9, 2 ** 31, 1e21]);
    else if (spot === "kickoff") role(doc, "chief").kickoff = hugeString(rng.pick([100_000, 1_000_000]));
    else if (spot === "name") doc.name = hugeString(rng.int(41, 10_000));
    else if (spot === "command")
      runtime(doc, "bot").command = Array.from({ length: 10_000 }, (_, index) => `arg${index}`);
    else if (spot === "roles")
      for (let index = 0; index < 300; index++)
        roles(doc)[`r${index}`] = { prompt: "prompts/researcher.md", runtime: "bot", count: 256 };
    else if (spot === "talks_to") role(doc, "chief").talks_to = Array.from({ length: 5_000 }, () => "researcher");
    else if (spot === "env")
      runtime(doc, "bot").env = Object.fromEntries(
        Array.from({ length: 5_000 }, (_, index) => [`K${index}`, hugeString(100)]),
      );
    else if (spot === "number") verify(doc).parallel = rng.pick([1e308, -1e308, 2 ** 64, 0.000001]);
    else roles(doc)[hugeString(rng.pick([1_000, 100_000]))] = { prompt: "prompts/researcher.md", runtime: "bot" };
    return `huge ${spot}`;
  },
  "unicode": (doc, rng) => {
    const value = rng.pick(["研究者", "🧪🧪", "\u202Eevil", "e\u0301", "\uD800", "Ω", "\u0000", "a\u200Db"]);
    const path = rng.pick(
      leafPaths(doc).filter(
        (candidate) => typeof parentOf(doc, candidate)[candidate[candidate.length - 1]!] === "string",
      ),
    );
    setAt(doc, path, rng.next() < 0.5 ? value : `${String(parentOf(doc, path)[path[path.length - 1]!])}${value}`);
    return `${show(path)} gets ${JSON.stringify(value)}`;
  },
  "bad duration": (doc, rng) => {
    const spot = rng.pick([
      ["verify", "timeout"],
      ["supervisor", "backoff"],
      ["supervisor", "healthy_after"],
      ["messages", "idle"],
      ["reload", "min_interval"],
    ] as Path[]);
    const value = rng.pick([
      "10",
      "10 m",
      "-1s",
      "1d",
      "1e3s",
      "0",
      0,
      -5,
      "∞",
      "1.5.5s",
      "ms",
      "99999999999999999999h",
    ]);
    mapAt(doc, String(spot[0]))[spot[1]!] = value;
    return `${show(spot)} = ${JSON.stringify(value)}`;
  },
  "mixed runtime": (doc, rng) => {
    const bot = runtime(doc, "bot");
    const change = rng.pick(["both", "neither", "placeholder", "builtin", "restart"]);
    if (change === "both") bot.builtin = "hillclimb";
    else if (change === "neither") delete bot.command;
    else if (change === "placeholder")
      bot.command = ["x", rng.pick(["{promptfile}", "{seed}", "{}", "{../x}", "{$(id)}", "{agent"])];
    else if (change === "builtin")
      runtime(doc, "hill").builtin = rng.pick(["hillclimbing", "", "$(id)", "../hillclimb"]);
    else bot.restart = rng.pick(["Always", "sometimes", "", 1]);
    return `runtime ${change}`;
  },
};
