import { RoleSchema, type Role } from "../../core/schemas/role.js";

/**
 * Role id of riddler Steps whose riddle the critic rejected. The episode moves
 * a rejected draft's Step to this untrainable role after the verdict, so the
 * batch builder leaves it out (counted in `skippedSteps`) and its reward (0)
 * never reaches the riddler's baseline: a rejection is neither trained on nor
 * penalised.
 */
export const REJECTED_RIDDLER_ROLE_ID = "riddler-rejected";

/** The untrainable twin of the riddler Role that rejected drafts are filed under. */
export function rejectedRiddlerRole(riddler: Role): Role {
  return RoleSchema.parse({ ...riddler, id: REJECTED_RIDDLER_ROLE_ID, trainable: false });
}
