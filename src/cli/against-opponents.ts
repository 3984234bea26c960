import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { InvalidInputError } from "../core/errors/index.js";
import { assertEvaluationOpponentNames } from "../environments/assert-evaluation-opponent-names.js";

const SYNCED_POLICY = /^policy-v(\d+)(\.lora)?\.gguf$/;
const ALLOWED = '"base", a GGUF model or LoRA adapter file (a run\'s final.lora.gguf), or a run folder (its policies/policy-v<N> files)';

/**
 * `--against` values as evaluation opponents, by name: `base` (the evaluated
 * `--model`), a file named for itself without `.gguf`/`.lora.gguf`
 * (`final.lora.gguf` is `final`, `policy-v3.lora.gguf` is `v3`), a run folder
 * (or its `policies/`) each of its synced policies as `v<N>`, oldest first.
 * The values are `openFrozenPolicies`' (`"base"` or a path).
 */
export async function againstOpponents(values: readonly string[]): Promise<Record<string, string>> {
  const policies: [string, string][] = [];
  for (const value of values) {
    if (value === "base") {
      policies.push(["base", "base"]);
      continue;
    }
    const found = await stat(value).catch(() => undefined);
    if (found?.isDirectory()) policies.push(...(await syncedPolicies(value)));
    else if (found?.isFile() && value.endsWith(".gguf")) policies.push([opponentName(basename(value)), value]);
    else throw new InvalidInputError("--against", ALLOWED, value);
  }
  assertEvaluationOpponentNames(
    policies.map(([name]) => name),
    "--against",
    " (a file's name without .gguf or .lora.gguf, policy-v3 as v3: rename a file to give it another)",
  );
  return Object.fromEntries(policies);
}

function opponentName(file: string): string {
  const synced = SYNCED_POLICY.exec(file);
  return synced ? `v${synced[1]}` : file.replace(/(\.lora)?\.gguf$/, "");
}

async function syncedPolicies(folder: string): Promise<[string, string][]> {
  const policies = (await stat(join(folder, "policies")).catch(() => undefined))?.isDirectory() ? join(folder, "policies") : folder;
  const files = (await readdir(policies)).filter((file) => SYNCED_POLICY.test(file));
  if (files.length === 0) throw new InvalidInputError("--against", `${ALLOWED}; ${policies} holds no policy-v<N>.lora.gguf or policy-v<N>.gguf`, folder);
  const version = (file: string) => Number(SYNCED_POLICY.exec(file)?.[1]);
  return files.sort((a, b) => version(a) - version(b)).map((file) => [opponentName(file), join(policies, file)]);
}
