import { SelfplayError } from "../../core/errors/index.js";

/** An episode called a role it does not declare. */
export class UnknownRoleError extends SelfplayError {
  override readonly name = "UnknownRoleError";
  constructor(readonly roleId: string, episodeType: string, declared: readonly string[]) {
    super(`episode "${episodeType}" called role "${roleId}", which it does not declare (declared: ${declared.join(", ")})`);
  }
}
