// A llama-server fleet against the in-process engine: greedy token agreement, the logprob gap at temperature 0.7
// (exact mode on both sides), and what a new policy version costs on the fleet — a router loading a new preset
// (selfplay's way) against stopping and restarting a single-model server with `--lora` (the other way llama-server has).
//
//   npm run build && node dist/benchmarks/fleet-sync.js [--servers 2] [--requests 32] [--swaps 3]   (prints JSON)
//
// llama-server comes from the user's cache (built from node-llama-cpp's bundled llama.cpp source; `npx vitest run
// --project fleet` builds it when it is missing).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { GenerationOutput, GenerationRequest } from "../src/core/inference-client.js";
import { findLlamaCppTool } from "../src/benchmarks/llama-cpp/find-llama-cpp-tool.js";
import { launchLlamaServer, type LaunchedLlamaServer } from "../src/benchmarks/llama-cpp/launch-llama-server.js";
import { LlamaInferenceClient } from "../src/inference/llama/llama-inference-client.js";
import { bundledArithmeticBase } from "../src/inference/model-files/bundled-models.js";
import { createRandomLoraAdapter } from "../src/inference/model-files/create-random-lora-adapter.js";
import { OpenAICompatibleClient } from "../src/inference/server/openai-compatible-client.js";
import { matchedTokenAgreement } from "../src/training/logprobs/matched-token-agreement.js";

const SLOTS = 4;
const CONTEXT = 256;

export interface FleetSyncResult {
  benchmark: "fleet-sync";
  servers: number;
  requests: number;
  /** Greedy completions whose token ids equal the engine's, of `requests`. */
  greedyIdentical: number;
  /** Temperature 0.7, the same seeds: tokens compared (up to where the two draws part) and the largest logprob gap. */
  sampled: { identicalCompletions: number; tokensCompared: number; maxAbsLogprobDiff: number };
  /** Seconds per new policy version on every server: selfplay's router presets, and a restart with --lora for comparison. */
  routerSwapSeconds: number[];
  restartSwapSeconds: number[];
}

function requests(temperature: number, count: number): GenerationRequest[] {
  return Array.from({ length: count }, (_, index) => ({
    messages: [{ role: "user" as const, content: `${10 + ((index * 7) % 89)}+${3 + ((index * 5) % 61)}=` }],
    sampler: { temperature, topK: 0, topP: 1, minP: 0, seed: 500 + index, maxTokens: 12, stop: [] },
    constraint: null,
  }));
}

function launch(binary: string, serve: { modelPath: string; loraPath?: string } | { presetFile: string }, folder: string, name: string): Promise<LaunchedLlamaServer> {
  return launchLlamaServer({ binary, ...serve, slots: SLOTS, contextPerSlot: CONTEXT, threads: 1, exact: true, logFile: join(folder, `${name}.log`) });
}

export async function measureFleetSync(options: { servers: number; requests: number; swaps: number }): Promise<FleetSyncResult> {
  const binary = await findLlamaCppTool("llama-server", { build: false });
  const modelPath = bundledArithmeticBase();
  const folder = await mkdtemp(join(tmpdir(), "selfplay-fleet-sync-"));
  const running: LaunchedLlamaServer[] = [];
  const engine = await LlamaInferenceClient.create({ modelPath, mode: "exact", sequences: SLOTS, contextSize: CONTEXT });
  try {
    const presetFile = join(folder, "models.ini");
    await writeFile(presetFile, `version = 1\n\n[arithmetic]\nmodel = ${modelPath}\n`);
    const routers = await Promise.all(Array.from({ length: options.servers }, (_, index) => launch(binary, { presetFile }, folder, `router-${index}`)));
    running.push(...routers);
    const client = await OpenAICompatibleClient.create({ endpoints: routers.map((router) => router.url), modelPath, model: "arithmetic", presetFile });
    let result: Omit<FleetSyncResult, "restartSwapSeconds">;
    try {
      const greedy = requests(0, options.requests);
      const [remoteGreedy, localGreedy] = [await client.generate(greedy), await engine.generate(greedy)];
      const sampled = requests(0.7, options.requests);
      const [remote, local] = [await client.generate(sampled), await engine.generate(sampled)];
      const routerSwapSeconds: number[] = [];
      for (let version = 1; version <= options.swaps; version++) {
        const adapter = join(folder, `policy-v${version}.lora.gguf`);
        await createRandomLoraAdapter({ baseModelPath: modelPath, path: adapter, rank: 4, seed: version });
        const started = performance.now();
        await client.swapWeights({ policyVersion: version, loraPath: adapter });
        routerSwapSeconds.push((performance.now() - started) / 1000);
      }
      result = {
        benchmark: "fleet-sync",
        servers: options.servers,
        requests: options.requests,
        greedyIdentical: remoteGreedy.filter((output, index) => sameTokens(output, localGreedy[index])).length,
        sampled: compare(remote, local),
        routerSwapSeconds,
      };
    } finally {
      await client.dispose();
    }
    // The other way: stop every single-model server and start it again with the new adapter.
    await Promise.all(routers.map((router) => router.stop()));
    const restartSwapSeconds: number[] = [];
    for (let version = 1; version <= options.swaps; version++) {
      const started = performance.now();
      await Promise.all(running.splice(0).map((server) => server.stop()));
      running.push(...(await Promise.all(Array.from({ length: options.servers }, (_, index) => launch(binary, { modelPath, loraPath: join(folder, `policy-v${version}.lora.gguf`) }, folder, `restart-${index}`)))));
      restartSwapSeconds.push((performance.now() - started) / 1000);
    }
    return { ...result, restartSwapSeconds };
  } finally {
    await engine.dispose();
    await Promise.all(running.map((server) => server.stop()));
    await rm(folder, { recursive: true, force: true });
  }
}

function sameTokens(output: GenerationOutput, reference: GenerationOutput | undefined): boolean {
  return reference !== undefined && output.completionTokenIds.length === reference.completionTokenIds.length && output.completionTokenIds.every((token, index) => token === reference.completionTokenIds[index]);
}

function compare(remote: readonly GenerationOutput[], local: readonly GenerationOutput[]): FleetSyncResult["sampled"] {
  const { tokens, maxAbsDiff } = matchedTokenAgreement(remote, local);
  return { identicalCompletions: remote.filter((output, index) => sameTokens(output, local[index])).length, tokensCompared: tokens, maxAbsLogprobDiff: maxAbsDiff };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({ options: { servers: { type: "string", default: "2" }, requests: { type: "string", default: "32" }, swaps: { type: "string", default: "3" } } });
  const result = await measureFleetSync({ servers: Number(values.servers), requests: Number(values.requests), swaps: Number(values.swaps) });
  console.log(JSON.stringify(result, null, 2));
}
