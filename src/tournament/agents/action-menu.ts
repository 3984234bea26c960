import type { Kernel } from "../kernel/kernel.js";
import type { PatchableParamName } from "../kernel/kernel-schema.js";
import { checkLegality } from "../legality/check-legality.js";
import type { Action } from "../world/actions.js";
import { effectiveParams } from "../world/effective-params.js";
import { activeCitizens, citizenIndex, type WorldState } from "../world/world-state.js";

export interface ActionMenuOptions {
  /**
   * The actor's team (it may include the actor). Spends are offered to each
   * teammate and to one citizen outside the team, the lowest-numbered active
   * one; without a team, to that one citizen only. Default: no team.
   */
  team?: readonly string[];
  /**
   * Spend sizes, as whole percents of the largest spend the rules allow now
   * (each rounded down, sizes under 1 unit dropped). Default `[100, 50]`.
   */
  spendSizesPercentOfMax?: readonly number[];
}

/**
 * The finite set of candidate actions for `actor` in `state`: Pass, Declare
 * or End an emergency, Exit, spends of a few sizes to teammates and to an
 * outsider, amendments setting each amendable parameter to a few values
 * (the lowest allowed, half, double) and a yes and a no vote on each open
 * proposal — every one checked by the legality gate, so all are legal now.
 * The order is fixed (by kind, then citizen and proposal number), so a
 * search over it is deterministic. Empty when it is not `actor`'s turn.
 */
export function actionMenu(state: WorldState, actor: string, kernel: Kernel, options: ActionMenuOptions = {}): Action[] {
  const params = effectiveParams(kernel, state);
  const candidates: Action[] = [
    { type: "Pass", actor },
    { type: "DeclareEmergency", actor, reason: "" },
    { type: "EndEmergency", actor },
    { type: "Exit", actor },
  ];

  const team = new Set(options.team ?? []);
  const active = activeCitizens(state).map((citizen) => citizen.id);
  const outsider = active.find((citizen) => citizen !== actor && !team.has(citizen));
  const recipients = [...active.filter((citizen) => citizen !== actor && team.has(citizen)), ...(outsider === undefined ? [] : [outsider])];
  recipients.sort((a, b) => citizenIndex(a) - citizenIndex(b));
  // Integer arithmetic: the largest amount with amount × 100 ≤ treasury × percent.
  const largest = Math.floor((state.treasury * params.maxSpendPercentOfTreasury) / 100);
  const sizes = [...new Set((options.spendSizesPercentOfMax ?? [100, 50]).map((percent) => Math.floor((largest * percent) / 100)))].filter((amount) => amount >= 1);
  for (const recipient of recipients) for (const amount of sizes) candidates.push({ type: "ProposeSpend", actor, amount, recipient, memo: "" });

  for (const name of params.amendableParams as PatchableParamName[]) {
    const current = params[name];
    const isLegal = (value: number | boolean): boolean => value !== current && checkLegality(state, { type: "ProposeAmendment", actor, changes: { [name]: value } }, kernel).legal;
    // The gate refuses values outside the schema's bounds, so "lowest" is whichever of 0 and 1 it accepts.
    const values: (number | boolean)[] = typeof current === "boolean" ? [!current] : [[0, 1].find(isLegal) ?? current, Math.floor(current / 2), current * 2];
    for (const value of new Set<number | boolean>(values)) if (isLegal(value)) candidates.push({ type: "ProposeAmendment", actor, changes: { [name]: value } });
  }

  for (const proposal of state.proposals) {
    if (proposal.status !== "open") continue;
    candidates.push({ type: "Vote", actor, proposalId: proposal.id, support: true }, { type: "Vote", actor, proposalId: proposal.id, support: false });
  }
  return candidates.filter((action) => checkLegality(state, action, kernel).legal);
}
