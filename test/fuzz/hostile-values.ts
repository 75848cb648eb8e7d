// Values an attacker, a typo or a runaway agent could put into org.yaml.

/** Strings that must never be interpreted by a shell, nor used as a path. */
export const HOSTILE_STRINGS = [
  "../../etc",
  "../x",
  "..",
  "a/../../b",
  "/etc/passwd",
  "~/x",
  "$(touch PWNED)",
  "`touch PWNED`",
  "x; touch PWNED",
  "x && touch PWNED",
  "x | tee PWNED",
  "'; touch PWNED; '",
  '"; touch PWNED; "',
  "${HOME}",
  "%s%s%n",
  "-rf",
  "--upload-pack=touch PWNED",
  "x\ny",
  "x\u0000y",
  "\u001b[31mred",
  "研究者",
  "🧪",
  "e\u0301",
  "\u202Egnp.exe",
  "a\u200Bb",
  "\uFEFFname",
  " ",
  "",
];

/** Values of every YAML type, for a spot that expects one type. */
export const WRONG_TYPES: unknown[] = [
  0, -1, 1.5, 1e308, -1e308, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 + 1,
  true, false, null,
  "", "yes", "2", "1m", "auto", "none",
  [], [1, 2], ["a"], [[["deep"]]], [{ a: 1 }],
  {}, { a: 1 }, { command: ["x"] },
];

/** A value far bigger than any real config holds. */
export function hugeString(length: number): string {
  return "x".repeat(length);
}
