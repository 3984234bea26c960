import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PackageRootNotFoundError } from "../../src/core/errors/index.js";
import { packageRoot } from "../../src/core/package-root.js";

const checkout = resolve(import.meta.dirname, "..", "..");

describe("packageRoot: the package a module belongs to", () => {
  it("is the checkout for a source module, a built one and a test alike", () => {
    expect(packageRoot(pathToFileURL(join(checkout, "src", "inference", "model-files", "bundled-models.ts")).href)).toBe(checkout);
    expect(packageRoot(pathToFileURL(join(checkout, "dist", "src", "inference", "model-files", "bundled-models.js")).href)).toBe(checkout);
    expect(packageRoot(import.meta.url)).toBe(checkout);
  });

  it("refuses a module with no package.json above it, naming its folder", async () => {
    const folder = await mkdtemp(join(tmpdir(), "selfplay-no-package-"));
    const module = pathToFileURL(join(folder, "module.js")).href;
    expect(() => packageRoot(module)).toThrow(PackageRootNotFoundError);
    expect(() => packageRoot(module)).toThrow(new RegExp(`^no package\\.json at or above ${folder}: `));
  });
});
