import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compiledModuleUrl, compiledSiblingFile } from "../../../src/arena/pool/compiled-module-url.js";
import { RolloutPoolError } from "../../../src/arena/pool/errors/index.js";

const root = resolve(import.meta.dirname, "../../..");
const url = (path: string) => pathToFileURL(resolve(root, path)).href;

describe("compiledModuleUrl", () => {
  it("gives a TypeScript source's twin in the build, and a built module itself", () => {
    expect(compiledModuleUrl(url("src/tasks/debate/debate-episodes.ts"))).toBe(url("dist/src/tasks/debate/debate-episodes.js"));
    expect(compiledModuleUrl(url("dist/src/tasks/debate/debate-episodes.js"))).toBe(url("dist/src/tasks/debate/debate-episodes.js"));
  });

  it("says to build when the twin is missing", () => {
    expect(() => compiledModuleUrl(url("src/examples/not-a-module.ts"))).toThrow(RolloutPoolError);
    expect(() => compiledModuleUrl(url("src/examples/not-a-module.ts"))).toThrow(/dist\/src\/examples\/not-a-module\.js does not exist: .*run `npm run build`/);
  });

  it("finds a compiled sibling (a worker entry, a child's script) from sources and build alike", () => {
    const worker = resolve(root, "dist/src/arena/pool/rollout-worker.js");
    expect(compiledSiblingFile(url("src/arena/pool/rollout-pool.ts"), "rollout-worker")).toBe(worker);
    expect(compiledSiblingFile(url("dist/src/arena/pool/rollout-pool.js"), "rollout-worker")).toBe(worker);
  });
});
