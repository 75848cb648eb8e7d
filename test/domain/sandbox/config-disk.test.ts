import { describe, expect, it } from "vitest";
import { DIR, VALID, fakeProbe, load, problemsOf } from "../../fixtures/configs/fake-probe.js";
import { chooseFloor, readDiskSettings } from "../../../src/domain/sandbox/disk-budget.js";
import { formatSize, parseSize } from "../../../src/domain/config/size.js";

const GIB = 1024 ** 3;
// A disk of 10 GiB under the org folder.
const probe = { ...fakeProbe(), diskSize: async (path: string) => (path === `${DIR}/state` ? 10 * GIB : undefined) };
const withDisk = (section: string) => `${VALID}sandbox:\n  disk: ${section}\n`;

describe("rules: sandbox.disk", () => {
  it("sizes with units load as bytes; an org.yaml without the section gets budgets "
    + "that never bite a normal run", async () => {
    const result = await load(withDisk("{ per_agent: 20G, floor: 512M, every: 30s }"), probe);
    expect(result.ok && readDiskSettings(result.loaded.config)).toEqual({
      perAgent: 20 * GIB,
      floor: 512 * 1024 ** 2,
      everyMs: 30_000,
    });
    const plain = await load(VALID, probe);
    expect(plain.ok && readDiskSettings(plain.loaded.config)).toEqual({ perAgent: 50 * GIB, everyMs: 30_000 });
    // Without a floor of org.yaml's: 1 GiB, or a twentieth of a disk smaller than 20 GiB (a tmpfs for state/).
    expect([
      chooseFloor(undefined, 500 * GIB), chooseFloor(undefined, 24 * 1024 ** 2), chooseFloor(3 * GIB, 10 * GIB),
    ]).toEqual([GIB, 1258291, 3 * GIB]);
    const bytes = await load(withDisk("{ per_agent: 5242880, floor: 0 }"), probe);
    expect(bytes.ok && readDiskSettings(bytes.loaded.config)).toEqual({
      perAgent: 5 * 1024 ** 2,
      floor: 0,
      everyMs: 30_000,
    });
  });

  it("a negative size, one that does not parse, and a unit of the wrong case: each named with the fix", async () => {
    expect(await problemsOf(withDisk("{ per_agent: -5G, floor: -1, every: 1s }"), probe)).toEqual([
      'org.yaml:9:22: sandbox.disk.per_agent must be a size: bytes as a number, or a number and a unit such as 512M, '
        + '20G or 1T (K, M, G, T: powers of 1024), got "-5G" — write e.g. 20G',
      "org.yaml:9:34: sandbox.disk.floor must be at least 0, got -1 — write 0 or more",
    ]);
    expect(await problemsOf(withDisk("{ per_agent: lots, floor: 2g }"), probe)).toEqual([
      'org.yaml:9:22: sandbox.disk.per_agent must be a size: bytes as a number, or a number and a unit such as 512M, '
        + '20G or 1T (K, M, G, T: powers of 1024), got "lots" — write e.g. 20G',
      'org.yaml:9:35: sandbox.disk.floor must be a size: bytes as a number, or a number and a unit such as 512M, '
        + '20G or 1T (K, M, G, T: powers of 1024), got "2g" — write e.g. 2G',
    ]);
  });

  it("a budget of 0 and a floor as big as the disk are refused, an unknown key is the schema's", async () => {
    expect(await problemsOf(withDisk("{ per_agent: 0, floor: 10G }"), probe)).toEqual([
      "org.yaml:9:22: sandbox.disk.per_agent is 0, so every agent would be stopped as soon as it writes a byte — "
        + "give each agent a budget above 0, e.g. 20G",
      "org.yaml:9:32: sandbox.disk.floor 10G is not below the size of the whole disk holding the org (10 GiB), "
        + "so no verify run would ever start — set a floor well below 10 GiB, e.g. 1G",
    ]);
    expect(await problemsOf(withDisk("{ per_agnet: 5G }"), probe)).toEqual([
      'org.yaml:9:11: unknown key "per_agnet" in sandbox.disk — did you mean "per_agent"?',
    ]);
  });

  it("a probe that cannot tell the disk's size skips the floor's check; nothing else changes", async () => {
    expect(await problemsOf(withDisk("{ floor: 100T }"), fakeProbe())).toEqual([]);
  });
});

describe("sizes", () => {
  it("parse with binary units and print as df -h does", () => {
    expect([
      parseSize("5M"), parseSize("1.5G"), parseSize("2KiB"), parseSize("7B"), parseSize("12"), parseSize(3),
    ]).toEqual([5 * 1024 ** 2, 1.5 * GIB, 2048, 7, 12, 3]);
    expect([
      formatSize(812), formatSize(5 * 1024 ** 2), formatSize(21 * GIB + GIB / 10), formatSize(1.25 * 1024 ** 4),
    ]).toEqual(["812 B", "5.0 MiB", "21 GiB", "1.3 TiB"]);
    expect(() => parseSize("-5G")).toThrow("not a size: -5G");
  });
});
