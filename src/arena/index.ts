// The arena: batches of episodes, artifact stores, credit assignment, run directories and the rollout pool.
export { Arena, type ArenaOptions, type BatchPlanEntry, type ArenaEvents, type ArenaSnapshot } from "./arena.js";
export { ArtifactStore, type ArtifactStoreOptions, type ArtifactEntry, type ArtifactStoreSnapshot } from "./artifact-store.js";
export type { CreditAssignment } from "./credit-assignment.js";
export { RunDirectory, RUN_FILES } from "./run-directory.js";
export { runBatches, type RunBatchesOptions } from "./run-batches.js";
export type { BatchMetrics } from "./batch-metrics.js";
export { RolloutPoolOptionsSchema, type RolloutPoolOptions } from "./pool/rollout-pool-options.js";
export { EpisodeModuleSchema, loadEpisodeModule, type EpisodeModule, type EpisodeModuleInput, type EpisodeFactory } from "./pool/episode-module.js";
export { WorkerEngineClient } from "./pool/worker-engine-client.js";
