// org tried out from a clone in /tmp: the private /tmp of an agent's sandbox must not hide the org it runs.
import { describe, expect, test } from "vitest";
import { findInstallsInTmp } from "../src/org/sandbox/prepare.js";

describe("org's own install under /tmp", () => {
  test("a clone in /tmp is shown again read-only; node and org elsewhere need nothing", () => {
    expect(findInstallsInTmp(["/usr/local/bin/node", "/tmp/nu/org/bin/org.js"])).toEqual(["/tmp/nu/org"]);
    expect(findInstallsInTmp(["/tmp/node-v20/bin/node", "/tmp/node-v20/lib/node_modules/org/bin/org.js"]))
      .toEqual(["/tmp/node-v20", "/tmp/node-v20/lib/node_modules/org"]);
    expect(findInstallsInTmp(["/usr/bin/node", "/home/ada/org/bin/org.js"])).toEqual([]);
    // /tmp itself is never bound whole: that would undo the private /tmp.
    expect(findInstallsInTmp(["/usr/bin/node", "/tmp/bin/org.js"])).toEqual([]);
    expect(findInstallsInTmp(["/usr/bin/node", "/tmpfoo/org/bin/org.js"])).toEqual([]);
  });
});
