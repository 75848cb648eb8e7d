#!/usr/bin/env node
// CommonJS (bin/package.json): an ES module entry would start node's ESM loader, ~4 ms of CPU on every org command.
const { isAscii } = require("node:buffer");
const { createHash } = require("node:crypto");
const {
  accessSync, closeSync, constants, fstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync,
} = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { Script } = require("node:vm");

// `org … | head`: a reader that stops early ends the command quietly, as it would a shell tool, never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}
// dist/bundle/org.cjs is `npm run build`'s single-file CLI, one function (scripts/bundle.mjs). V8 compiles it from a
// code cache beside it when there is one: compiling the bundle was most of a short command's start-up.
const file = join(__dirname, "../dist/bundle/org.cjs");
const url = pathToFileURL(file);
const fd = openSync(file, "r");
const { size, mtimeNs } = fstatSync(fd, { bigint: true });
const source = readFileSync(fd);
closeSync(fd);
const argv = process.argv.slice(2);
// One cache per command and bundle, written by the command's first run that succeeds: it holds the functions that
// run compiled, which differ from one command to the next. V8 itself refuses a cache of another node or flags.
const command = /^[a-z][a-z-]{0,39}$/.test(argv[0] ?? "") ? argv[0] : undefined;
const hash = readBuildHash() ?? createHash("sha256").update(source).digest("hex").slice(0, 16);
const cacheFile = command && `${file}.${hash}.${command}.cache`;
let cachedData;
try {
  if (cacheFile) cachedData = readFileSync(cacheFile);
} catch {
  // None yet: this run writes it.
}
// The build escapes every character past ASCII: latin1 is then the same text, decoded ~4× faster than UTF-8 (2 MB).
const text = isAscii(source) ? source.toString("latin1") : source.toString("utf8");
const script = new Script(text, { filename: file, cachedData });
const bundle = { exports: {} };
const bundleRequire = createRequire(file);
// What the bundle's import.meta.resolve asks for (vega's entry) resolves the same under require's conditions.
const meta = { url: url.href, resolve: (specifier) => pathToFileURL(bundleRequire.resolve(specifier)).href };
script.runInThisContext()(bundleRequire, bundle, bundle.exports, meta, (specifier) => import(specifier));
bundle.exports.main(argv).then((code) => {
  process.exitCode = code;
  if (cacheFile && code === 0 && (!cachedData || script.cachedDataRejected)) saveCache(cacheFile);
});

// Written whole and renamed into place; an install org cannot write to simply runs without one.
function saveCache(target) {
  // Computing it costs tens of ms: skipped where this user cannot write (`npm install -g` by root, run by a user).
  try {
    accessSync(dirname(target), constants.W_OK);
  } catch {
    return;
  }
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { force: true });
  }
}

// The build's hash of the bundle (org.cjs.sum), when the bundle read is still the one it hashed: same size and mtime.
function readBuildHash() {
  try {
    const [sumSize, sumMtime, sumHash] = readFileSync(`${file}.sum`, "latin1").trim().split(" ");
    const fits = sumSize === String(size) && sumMtime === String(mtimeNs) && /^[0-9a-f]{16}$/.test(sumHash ?? "");
    return fits ? sumHash : undefined;
  } catch {
    return undefined;
  }
}
