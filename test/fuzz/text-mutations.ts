import type { Rng } from "./rng.js";

/** One change to the text of a valid org.yaml: what YAML itself can get wrong. */
export type TextMutation = (text: string, rng: Rng) => { text: string; what: string };

const lines = (text: string) => text.split("\n");
const randomLine = (text: string, rng: Rng) => rng.int(0, Math.max(0, lines(text).length - 2));

function editLine(text: string, index: number, edit: (line: string) => string): string {
  const all = lines(text);
  all[index] = edit(all[index] ?? "");
  return all.join("\n");
}

export const TEXT_MUTATIONS: Record<string, TextMutation> = {
  "syntax error": (text, rng) => {
    const index = randomLine(text, rng);
    const breaker = rng.pick(["[", "{", "]", "}", '"', "'", ": :", "- ", "? ", "&", "*", "!", "%", "@", "`", "|", ">"]);
    const where = rng.pick(["start", "end", "colon"]);
    const edited = editLine(text, index, (line) =>
      where === "start"
        ? `${breaker}${line}`
        : where === "end"
          ? `${line}${breaker}`
          : line.replace(": ", `${breaker} `),
    );
    return { text: edited, what: `${JSON.stringify(breaker)} at the ${where} of line ${index + 1}` };
  },
  "bad indentation": (text, rng) => {
    const index = randomLine(text, rng);
    const indent = rng.pick(["\t", " ", "   ", "\t  ", "        "]);
    const dedent = rng.next() < 0.3;
    return {
      text: editLine(text, index, (line) => (dedent ? line.trimStart() : `${indent}${line}`)),
      what: `line ${index + 1} ${dedent ? "dedented" : `indented by ${JSON.stringify(indent)}`}`,
    };
  },
  "duplicate key": (text, rng) => {
    const candidates = lines(text)
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => /^\s*[\w-]+:/.test(line));
    const { line, index } = rng.pick(candidates);
    const all = lines(text);
    // A scalar line repeats as is; a map header repeats with a value so the document stays a tree.
    all.splice(index + 1, 0, /:\s*$/.test(line) ? `${line} {}` : line);
    return { text: all.join("\n"), what: `line ${index + 1} repeated` };
  },
  "second document": (text, rng) => ({
    text: `${text}---\n${rng.pick(["name: other\n", "{}\n", "- a\n", ""])}`,
    what: "a second document",
  }),
  "dangling alias": (text, rng) => {
    const index = randomLine(text, rng);
    return {
      text: editLine(text, index, (line) => line.replace(/: .*$/, ": *nowhere")),
      what: `alias on line ${index + 1}`,
    };
  },
  "alias bomb": () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let level = 1; level < 10; level++)
      levels.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(10)
          .fill(`*${String.fromCharCode(96 + level)}`)
          .join(", ")}]`,
      );
    return { text: `${levels.join("\n")}\nroles: {}\n`, what: "a billion laughs" };
  },
  "truncated": (text, rng) => {
    const at = rng.int(0, text.length - 1);
    return { text: text.slice(0, at), what: `cut at ${at}` };
  },
  "random bytes": (text, rng) => {
    let out = text;
    const count = rng.int(1, 8);
    for (let index = 0; index < count; index++) {
      const at = rng.int(0, out.length);
      const char = String.fromCharCode(
        rng.pick([
          0,
          7,
          9,
          10,
          13,
          27,
          34,
          35,
          38,
          39,
          42,
          58,
          91,
          93,
          123,
          125,
          127,
          0xfeff,
          0xfffd,
          0x2028,
          rng.int(32, 0x2fff),
        ]),
      );
      out = rng.next() < 0.3 ? out.slice(0, at) + out.slice(at + 1) : out.slice(0, at) + char + out.slice(at);
    }
    return { text: out, what: `${count} bytes changed` };
  },
  "not a map": (_text, rng) => {
    const text = rng.pick([
      "",
      "\n",
      "# only a comment\n",
      "~\n",
      "null\n",
      "42\n",
      "hello\n",
      "- a\n- b\n",
      "[]\n",
      "{}\n",
      "\uFEFF",
      "---\n",
      "...\n",
      "roles:\n",
      "roles: []\n",
      "roles: {}\n",
      "!!binary aGVsbG8=\n",
      "!custom {}\n",
    ]);
    return { text, what: `the file is ${JSON.stringify(text)}` };
  },
  "deep nesting": (_text, rng) => {
    const depth = rng.pick([100, 1_000, 5_000]);
    const flow = rng.next() < 0.5;
    const text = flow
      ? `roles: ${"[".repeat(depth)}${"]".repeat(depth)}\n`
      : `roles:\n${Array.from({ length: depth }, (_, level) => `${" ".repeat(level + 2)}k${level}:`).join("\n")} 1\n`;
    return { text, what: `nested ${depth} deep (${flow ? "flow" : "block"})` };
  },
  "tags and anchors": (text, rng) => {
    const index = randomLine(text, rng);
    const tag = rng.pick([
      "!!str",
      "!!int",
      "!!float",
      "!!bool",
      "!!null",
      "!!map",
      "!!seq",
      "!!timestamp",
      "!!js/function",
      "&anchor",
      "!<tag:yaml.org,2002:binary>",
    ]);
    return {
      text: editLine(text, index, (line) => line.replace(/: (\S)/, `: ${tag} $1`)),
      what: `${tag} on line ${index + 1}`,
    };
  },
  "crlf and bom": (text, rng) => {
    const variant = rng.pick(["crlf", "bom", "cr", "nul"]);
    const out =
      variant === "crlf"
        ? text.replace(/\n/g, "\r\n")
        : variant === "bom"
          ? `\uFEFF${text}`
          : variant === "cr"
            ? text.replace(/\n/g, "\r")
            : `${text}\u0000`;
    return { text: out, what: variant };
  },
};
