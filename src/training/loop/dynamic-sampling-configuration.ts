import { z } from "zod";

/**
 * DAPO's dynamic sampling: a step draws its plan again until it has its target of informative groups — groups of
 * two or more scored members whose rewards for a trained role differ — so every update trains on groups with a
 * gradient. Bounded by `maxDraws` and `maxSeconds`; a step that misses its target trains on what it has.
 */
export const DynamicSamplingConfigurationSchema = z.strictObject({
  /**
   * Draw the plan again while a step has fewer informative groups than its target, and train on the informative
   * groups (up to the target) and the ungrouped rollouts only; every rollout drawn is still logged and fed to the
   * frontier. Off: one draw per step, every group trained (all-equal groups add nothing: zero advantage). The step
   * line's `groups` is logged either way. Default false.
   */
  enabled: z.boolean().default(false),
  /**
   * Informative groups a step trains on; default as many as its first draw made groups (the plan's groups, or,
   * where groups are sub-episodes, those the first draw's episodes spawned). Extra informative groups beyond it
   * are dropped from the update (DAPO: a fixed batch), never from rollouts.jsonl.
   */
  targetGroups: z.number().int().min(1).optional(),
  /** Draws of the plan per step at most, the first included (DAPO's `max_num_gen_batches`): a step's rollouts cost at most this many plans. Default 3. */
  maxDraws: z.number().int().min(1).default(3),
  /**
   * Seconds of rollout a step may spend: a further draw starts only while the seconds spent plus a draw's mean so
   * far stay under it. A limit that binds depends on the machine's speed, so a run it stops replays exactly only
   * from its checkpoints. Default none (`maxDraws` alone bounds a step).
   */
  maxSeconds: z.number().positive().optional(),
});
export type DynamicSamplingConfiguration = z.infer<typeof DynamicSamplingConfigurationSchema>;
