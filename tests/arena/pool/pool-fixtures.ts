import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Arena } from "../../../src/arena/arena.js";
import type { ArtifactStore } from "../../../src/arena/artifact-store.js";
import { loadEpisodeModule, type EpisodeModuleInput } from "../../../src/arena/pool/episode-module.js";
import type {
  GenerateOptions,
  GenerationOutput,
  GenerationRequest,
  InferenceClient,
  WeightUpdate,
} from "../../../src/core/inference-client.js";
import type { JsonValue } from "../../../src/core/json.js";
import type { EpisodeRequest } from "../../../src/core/schemas/episode-request.js";
import { scriptedProposerSolverRules } from "../../../src/tasks/proposer-solver/scripted-proposer-solver.js";
import { ScriptedInferenceClient, type ScriptedRule } from "../../../src/inference/scripted-inference-client.js";

/** The test episode module (plain ESM over the build: workers load JavaScript only). */
export const EPISODE_MODULE = fileURLToPath(new URL("./fixtures/pool-episodes.mjs", import.meta.url));

export function episodeModule(options?: JsonValue): EpisodeModuleInput {
  return { module: EPISODE_MODULE, exportName: "createEpisodes", ...(options !== undefined && { options }) };
}

/** Files the faulty episode writes: one line per attempt, and markers for faults that happen once. */
export function faultFiles(): { attemptLog: string; markerDirectory: string } {
  const folder = mkdtempSync(join(tmpdir(), "selfplay-pool-"));
  return { attemptLog: join(folder, "attempts.log"), markerDirectory: folder };
}

/** Registers the module's episodes in the main thread, as a pooled arena needs (stores stay here). */
export async function registerEpisodes(arena: Arena, module: EpisodeModuleInput, stores: Record<string, ArtifactStore> = {}): Promise<Arena> {
  for (const episode of await loadEpisodeModule(module)) arena.register(episode, stores[episode.type]);
  return arena;
}

/** Answers `a+b?` with the sum, and plays proposer-solver. */
export const ARITHMETIC_RULES: readonly ScriptedRule[] = [
  {
    when: /^user: \d+\+\d+\?$/,
    reply: (request) => {
      const [left, right] = (request.messages.at(-1)?.content ?? "").slice(0, -1).split("+").map(Number);
      return String((left ?? 0) + (right ?? 0));
    },
  },
  ...scriptedProposerSolverRules,
];

export function question(left: number, right: number, groupId?: string): EpisodeRequest {
  return { episodeType: "question", artifact: { question: `${left}+${right}?`, expected: String(left + right) }, ...(groupId && { groupId }) };
}

export function faulty(fault: string, once = false): EpisodeRequest {
  return { episodeType: "faulty", artifact: { question: "2+2?", expected: "4", fault, once } };
}

/**
 * A scripted client whose calls wait at a gate the test opens: `arrived`
 * resolves once `expected` requests are waiting, so a test can act mid-batch
 * without sleeping.
 */
export class GatedClient implements InferenceClient {
  readonly inner = new ScriptedInferenceClient({ rules: ARITHMETIC_RULES });
  readonly arrived: Promise<void>;
  private requestsSeen = 0;
  private reached!: () => void;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));

  constructor(private readonly expected: number) {
    this.arrived = new Promise((resolve) => (this.reached = resolve));
  }

  get capabilities() {
    return this.inner.capabilities;
  }

  get policyVersion(): number {
    return this.inner.policyVersion;
  }

  async generate(requests: readonly GenerationRequest[], options?: GenerateOptions): Promise<GenerationOutput[]> {
    this.requestsSeen += requests.length;
    if (this.requestsSeen >= this.expected) this.reached();
    await this.gate;
    return this.inner.generate(requests, options);
  }

  release(): void {
    this.open();
  }

  swapWeights(update: WeightUpdate): Promise<void> {
    return this.inner.swapWeights(update);
  }

  async dispose(): Promise<void> {}
}
