import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { PrmModelError } from "../errors/index.js";
import { PRM_FILES, PrmMetadataSchema, type PrmMetadata } from "./prm-metadata.js";

/** The validated `prm.json` of a PRM directory. */
export async function readPrmMetadata(directory: string): Promise<PrmMetadata> {
  const path = join(directory, PRM_FILES.metadata);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new PrmModelError(path, "cannot be read; pass the directory `selfplay prm train --out` wrote", { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PrmModelError(path, `is not JSON (${(error as Error).message}); train the PRM again`, { cause: error });
  }
  const parsed = PrmMetadataSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PrmModelError(path, `${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}; train the PRM again with this version of selfplay`);
  }
  return parsed.data;
}
