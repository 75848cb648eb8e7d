import { describe, expect, test } from "vitest";
import {
  coversRules, findTampered, listProtected, recordProtected,
} from "../../../src/domain/experiments/protected-files.js";

const blob = (digit: string) => digit.repeat(40);
const entries = [
  { path: "prepare.py", file: { mode: "100644", blob: blob("a") } },
  { path: "data/train.csv", file: { mode: "100644", blob: blob("b") } },
  { path: "data/link", file: { mode: "120000", blob: blob("c") } },
  { path: "vendor/lib", file: { mode: "160000", blob: blob("d") } },
  { path: "train.py", file: { mode: "100644", blob: blob("e") } },
];
const now = new Date("2026-12-04T20:00:00.000Z");

describe("the base's protected files as org up records them", () => {
  test("each rule covers what it matches (a folder, a glob), a rule that matches nothing covers "
    + "nothing, a submodule is no file", () => {
    const record = recordProtected(blob("f"), entries, ["prepare.py", "data", "vendor/**", "missing.txt"], now);
    expect(record).toEqual({
      base: blob("f"), recordedAt: "2026-12-04T20:00:00.000Z",
      rules: {
        "prepare.py": { "prepare.py": entries[0]!.file },
        data: { "data/train.csv": entries[1]!.file, "data/link": entries[2]!.file },
        "vendor/**": {},
        "missing.txt": {},
      },
    });
    expect(coversRules(record, blob("f"), ["data", "missing.txt"])).toBe(true);
    expect(coversRules(record, blob("f"), ["train.py"])).toBe(false);
    expect(coversRules(record, blob("0"), ["data"])).toBe(false);
  });

  test("a checkout is tampered when a protected file is missing, a link where a file was, "
    + "or other content; as recorded it passes", () => {
    const expected = listProtected(recordProtected(blob("f"), entries, ["prepare.py", "data"], now), [
      "prepare.py", "data",
    ]);
    const found = new Map([
      ["prepare.py", entries[0]!.file],
      ["data/train.csv", entries[1]!.file],
      ["data/link", entries[2]!.file],
    ]);
    expect(findTampered(expected, found)).toBeUndefined();
    expect(findTampered(expected, new Map([...found, ["data/train.csv", undefined]]))).toBe(
      "protected data/train.csv is missing from the checkout",
    );
    expect(findTampered(expected, new Map([...found, ["prepare.py", { mode: "120000", blob: blob("a") }]])))
      .toBe("protected prepare.py is a symbolic link in the checkout, not as recorded");
    expect(findTampered(expected, new Map([...found, ["data/link", { mode: "100644", blob: blob("c") }]])))
      .toBe("protected data/link is a file in the checkout, not as recorded");
    expect(findTampered(expected, new Map([...found, ["prepare.py", { mode: "100755", blob: blob("9") }]])))
      .toBe("protected prepare.py in the checkout is 999999999999, not the base's aaaaaaaaaaaa recorded at org up");
  });
});
