import { existsSync } from "node:fs";
import { join } from "node:path";
import { InvalidInputError } from "../../core/errors/index.js";
import { packageRoot } from "../../core/package-root.js";

/** File name of the arithmetic base `selfplay pretrain` made and `models/` ships. */
export const ARITHMETIC_BASE_FILE_NAME = "selfplay-arithmetic-base.gguf";

/** The package's `models/` folder (this file is src/inference/model-files/ in the source, dist/src/… when built). */
export function packageModelsFolder(): string {
  return join(packageRoot(import.meta.url), "models");
}

/** Path of the shipped arithmetic base; a clear error when the package lacks it. */
export function bundledArithmeticBase(): string {
  const path = join(packageModelsFolder(), ARITHMETIC_BASE_FILE_NAME);
  if (!existsSync(path)) {
    throw new InvalidInputError("--model", `a GGUF model, or the bundled ${path} (make it with: selfplay pretrain --out ${path})`);
  }
  return path;
}
