import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

/**
 * GOMP_SPINCOUNT as a fresh process sees it after loadLlama, with `environment`
 * as its starting environment. A process of its own: libgomp reads the
 * setting once, and this one has loaded llama.cpp already. It runs the build
 * (`npm test` builds first), since a plain node process cannot import
 * TypeScript; and from a file, since node-llama-cpp tests its binary in a
 * child started with this process's arguments, which `node -e` would not survive.
 */
async function spinCountAfterLoad(environment: Record<string, string>): Promise<string> {
  const script = `
    const { loadLlama } = await import(${JSON.stringify(new URL("../../../dist/src/inference/llama/load-llama.js", import.meta.url).href)});
    await loadLlama("cpu");
    console.log(process.env.GOMP_SPINCOUNT ?? "unset");`;
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== "GOMP_SPINCOUNT" && name !== "OMP_WAIT_POLICY")) as Record<string, string>;
  const file = join(folder, "load.mjs");
  await writeFile(file, script);
  const { stdout } = await run(process.execPath, [file], { env: { ...base, ...environment } });
  return stdout.trim().split("\n").at(-1) ?? "";
}

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "selfplay-load-llama-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("loadLlama", () => {
  it("gives libgomp its unthrottled spin count before llama.cpp loads, unless the user set GOMP_SPINCOUNT or OMP_WAIT_POLICY", { timeout: 60_000 }, async () => {
    expect(await spinCountAfterLoad({})).toBe("300000");
    expect(await spinCountAfterLoad({ GOMP_SPINCOUNT: "5" })).toBe("5");
    expect(await spinCountAfterLoad({ OMP_WAIT_POLICY: "passive" })).toBe("unset");
  });
});
