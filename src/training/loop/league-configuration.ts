import { z } from "zod";

/**
 * Who plays the seats a two-sided environment binds to a frozen policy
 * (`Environment.frozenRoles`): `current`, the policy being trained (both seats
 * one policy); `frozen`, the environment's own frozen policy (the base or a
 * path, the task's `opponent` option); `league`, an opponent drawn for each
 * rollout from the run's kept snapshots, the current policy at `currentShare`.
 */
export const OpponentsSchema = z.enum(["current", "frozen", "league"]);
export type Opponents = z.infer<typeof OpponentsSchema>;

export const LeagueConfigurationSchema = z.strictObject({
  /** Snapshots in the league: the most recent K synced versions (version 0, the initial policy, until K have been synced), or `"all"`. Default 4. */
  size: z.union([z.number().int().min(1), z.literal("all")]).default(4),
  /** Share of rollouts whose opponent is the current policy, from 0 to 1; the rest draw a snapshot uniformly. Default 0.5. */
  currentShare: z.number().min(0).max(1).default(0.5),
});
export type LeagueConfiguration = z.infer<typeof LeagueConfigurationSchema>;
