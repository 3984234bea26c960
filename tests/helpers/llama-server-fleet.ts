import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findLlamaCppTool } from "../../src/benchmarks/llama-cpp/find-llama-cpp-tool.js";
import { launchLlamaServer, type LaunchedLlamaServer } from "../../src/benchmarks/llama-cpp/launch-llama-server.js";

/** Slots and context of every test server: the arithmetic base's context is 256 tokens. */
export const FLEET_SLOTS = 4;
export const FLEET_CONTEXT = 256;

/** The llama-server the fleet project's global setup built into the user's cache (or found there). */
export function builtLlamaServer(): Promise<string> {
  return findLlamaCppTool("llama-server", { build: false });
}

/** Servers of one model, in exact mode, on free ports of 127.0.0.1; their logs in `logFolder`. */
export async function launchFleet(count: number, serve: { modelPath: string } | { presetFile: string }, logFolder: string): Promise<LaunchedLlamaServer[]> {
  const binary = await builtLlamaServer();
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      launchLlamaServer({ binary, ...serve, slots: FLEET_SLOTS, contextPerSlot: FLEET_CONTEXT, threads: 1, exact: true, logFile: join(logFolder, `${"presetFile" in serve ? "router" : "server"}-${index}.log`) }),
    ),
  );
}

/** A router preset file with one section, `[name]`, serving `modelPath`. */
export async function writeBasePreset(name: string, modelPath: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "selfplay-preset-"));
  const path = join(folder, "models.ini");
  await writeFile(path, `version = 1\n\n[${name}]\nmodel = ${modelPath}\n`);
  return path;
}
