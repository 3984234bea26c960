import { SelfplayError } from "./selfplay-error.js";

/** A selfplay module found no package.json above it: its package's files (models, kernels, the build) cannot be located. */
export class PackageRootNotFoundError extends SelfplayError {
  override readonly name = "PackageRootNotFoundError";
  constructor(readonly folder: string) {
    super(`no package.json at or above ${folder}: selfplay's modules must stay inside its package folder (reinstall it, or run from its checkout)`);
  }
}
