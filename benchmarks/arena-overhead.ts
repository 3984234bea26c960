// Arena overhead: how fast the orchestration runs when the model costs nothing.
// Real engines decode a few thousand tokens/s on this machine, so the arena's
// own cost per model call must stay far below a millisecond.
//
//   node dist/benchmarks/arena-overhead.js [--quick]      (prints JSON)
import { pathToFileURL } from "node:url";
import { Arena } from "../src/arena/arena.js";
import { ArtifactStore } from "../src/arena/artifact-store.js";
import { ARITHMETIC_TOPICS, ProposerEpisode } from "../src/tasks/proposer-solver/proposer-episode.js";
import { scriptedProposerSolverRules } from "../src/tasks/proposer-solver/scripted-proposer-solver.js";
import { SolverEpisode } from "../src/tasks/proposer-solver/solver-episode.js";
import { ScriptedInferenceClient } from "../src/inference/scripted-inference-client.js";

export interface ArenaOverheadResult {
  benchmark: "arena-overhead";
  episodes: number;
  rollouts: number;
  modelCalls: number;
  seconds: number;
  rolloutsPerSecond: number;
  /** Wall time per model call, everything but the model included: arena, episode, verifier, credit, batch. */
  microsecondsPerModelCall: number;
  heapUsedMiB: number;
}

export async function measureArenaOverhead(episodes: number, batchSize = 64): Promise<ArenaOverheadResult> {
  const client = new ScriptedInferenceClient({ rules: scriptedProposerSolverRules });
  const arena = new Arena({ client, seed: 1, concurrency: batchSize })
    .register(new ProposerEpisode(), ArtifactStore.of(ARITHMETIC_TOPICS.map((topic) => ({ topic }))))
    .register(new SolverEpisode());
  let rollouts = 0;
  const started = performance.now();
  for (let done = 0; done < episodes; done += batchSize) {
    const results = await arena.generateRollouts(arena.getBatch([{ episodeType: "propose", count: Math.min(batchSize, episodes - done) }]));
    const batch = arena.buildTrainingBatch(results, arena.assignCredit(results), done / batchSize);
    rollouts += batch.stats.rollouts;
  }
  const seconds = (performance.now() - started) / 1000;
  const modelCalls = client.requests.length;
  return {
    benchmark: "arena-overhead",
    episodes,
    rollouts,
    modelCalls,
    seconds,
    rolloutsPerSecond: rollouts / seconds,
    microsecondsPerModelCall: (seconds * 1e6) / modelCalls,
    heapUsedMiB: process.memoryUsage().heapUsed / 2 ** 20,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const quick = process.argv.includes("--quick");
  console.log(JSON.stringify(await measureArenaOverhead(quick ? 64 : 4096)));
}
