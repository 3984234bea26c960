import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/** Every entry package.json exports, by subpath, with the source file it is built from. */
const ENTRIES: Record<string, string> = {
  ".": "src/index.ts",
  "./testing": "src/testing.ts",
  "./tournament": "src/entries/tournament.ts",
  "./dream": "src/entries/dream.ts",
  "./riddles": "src/entries/riddles.ts",
  "./dialectic": "src/entries/dialectic.ts",
  "./gguf": "src/entries/gguf.ts",
  "./prm": "src/entries/prm.ts",
  "./tfjs": "src/entries/tfjs.ts",
};

function snapshotName(subpath: string): string {
  return subpath === "." ? "root" : subpath.slice(2);
}

/** Every name each entry exports, value or type, as the TypeScript compiler sees the source. */
function compiledExports(): Map<string, string[]> {
  const files = Object.values(ENTRIES).map((file) => join(root, file));
  const configuration = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!configuration) throw new Error("tsconfig.json: cannot be read");
  const program = ts.createProgram(files, { ...configuration.options, noEmit: true });
  const checker = program.getTypeChecker();
  const exports = new Map<string, string[]>();
  for (const [subpath, file] of Object.entries(ENTRIES)) {
    const source = program.getSourceFile(join(root, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`${file}: not a module`);
    exports.set(subpath, checker.getExportsOfModule(symbol).map((exported) => exported.getName()));
  }
  return exports;
}

/** "name: typeof value" for each runtime export, "name: type" for each name only types carry; sorted. */
function apiListing(runtime: Record<string, unknown>, compiled: readonly string[]): string {
  const names = [...new Set([...Object.keys(runtime), ...compiled])].sort();
  return `${names.map((name) => `${name}: ${name in runtime ? typeof runtime[name] : "type"}`).join("\n")}\n`;
}

describe("the public API", () => {
  const compiled = compiledExports();

  it("package.json exports exactly these entries, each built from its source file", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { types: string; default: string }> };
    expect(Object.keys(manifest.exports).sort()).toEqual(Object.keys(ENTRIES).sort());
    for (const [subpath, file] of Object.entries(ENTRIES)) {
      const built = `./dist/${file.replace(/\.ts$/, "")}`;
      expect(manifest.exports[subpath]).toEqual({ types: `${built}.d.ts`, default: `${built}.js` });
    }
  });

  // Adding or removing an export fails here until the snapshot is updated on purpose: `npx vitest run tests/public-api.test.ts -u`.
  for (const [subpath, file] of Object.entries(ENTRIES)) {
    it(`exports from ${subpath === "." ? "selfplay" : `selfplay/${subpath.slice(2)}`} what its snapshot lists`, async () => {
      const runtime = (await import(join(root, file))) as Record<string, unknown>;
      const names = compiled.get(subpath) ?? [];
      // Every runtime export is one the compiler sees; the rest are types.
      expect(Object.keys(runtime).filter((name) => !names.includes(name))).toEqual([]);
      await expect(apiListing(runtime, names)).toMatchFileSnapshot(`./__snapshots__/public-api/${snapshotName(subpath)}.txt`);
    });
  }
});

const run = promisify(execFile);

/** What importing a built entry in a fresh node process resolves and opens, one "kind what" line each. */
async function loadsOf(entry: string): Promise<string[]> {
  const built = join(root, "dist", entry.replace(/\.ts$/, ".js"));
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  const log = join(mkdtempSync(join(tmpdir(), "selfplay-module-loads-")), "loads.txt");
  const preload = join(import.meta.dirname, "public-api", "record-module-loads.mjs");
  const url = pathToFileURL(built).href;
  await run(process.execPath, ["--import", preload, "--input-type=module", "-e", `await import(${JSON.stringify(url)});`], {
    cwd: root,
    env: { ...process.env, RECORD_MODULE_LOADS: log },
  });
  return readFileSync(log, "utf8").trim().split("\n");
}

const isTfjs = (line: string) => line.includes("@tensorflow/");
const isNative = (line: string) => line.startsWith("dlopen ") || /\.node$/.test(line) || line.includes("onnxruntime");

describe("importing an entry (built; npm test builds before vitest)", () => {
  it("loads no tfjs and no native library from selfplay, nor from the system subpaths", async () => {
    const light = Object.entries(ENTRIES).filter(([subpath]) => subpath !== "./tfjs" && subpath !== "./prm");
    const loads = await Promise.all(light.map(([, file]) => loadsOf(file)));
    for (const [index, [subpath]] of light.entries()) {
      const lines = loads[index] as string[];
      // The recorder saw the entry itself.
      expect(lines.some((line) => line.endsWith(`/dist/${ENTRIES[subpath]?.replace(/\.ts$/, ".js")}`)), subpath).toBe(true);
      expect(lines.filter(isTfjs), subpath).toEqual([]);
      expect(lines.filter(isNative), subpath).toEqual([]);
    }
  });

  it("sees tfjs when selfplay/tfjs is imported (the check can fail)", async () => {
    expect((await loadsOf(ENTRIES["./tfjs"] as string)).some(isTfjs)).toBe(true);
  });
});
