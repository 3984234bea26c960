import { z } from "zod";
import { KernelParamsSchema, type PatchableParamName } from "../../kernel/kernel-schema.js";
import { activeCitizens } from "../../world/world-state.js";
import type { AgentView } from "../tournament-agent.js";
import { unvotedProposals } from "./llm-state-prompt.js";

/** Most candidate values an amendment may set one parameter to (a grammar spells each one out). */
const MAX_PARAMETER_VALUES = 11;

/**
 * The strict-JSON shape of one action of `view.self`: the closed vocabulary
 * with the actor fixed to its citizen, votes only on open proposals it has
 * not voted on, spends only to active citizens and in amounts from a short
 * list under the cap in force, amendments of one amendable parameter to a
 * value the kernel's schema allows. Memo and reason are left out (they
 * default to ""), so a completion stays short. Compiled to a grammar, every
 * sample parses; the legality gate still decides (a second emergency, a
 * second open proposal, ending someone else's emergency are legal JSON).
 * Options that have nothing to offer (no open proposal) are left out.
 */
export function llmActionSchema(view: AgentView): z.ZodType {
  const { self, state, params } = view;
  const actor = z.literal(self);
  const options: z.ZodType[] = [];
  const unvoted = unvotedProposals(view).map((proposal) => proposal.id);
  if (unvoted.length > 0) options.push(z.strictObject({ type: z.literal("Vote"), actor, proposalId: z.enum(unvoted as [string, ...string[]]), support: z.boolean() }));
  const recipients = activeCitizens(state).map((citizen) => citizen.id);
  const amounts = spendAmounts(Math.floor((state.treasury * params.maxSpendPercentOfTreasury) / 100));
  if (amounts.length > 0 && recipients.length > 0) {
    options.push(z.strictObject({ type: z.literal("ProposeSpend"), actor, amount: literalUnion(amounts), recipient: z.enum(recipients as [string, ...string[]]) }));
  }
  const amendments = params.amendableParams.map((name) => z.strictObject({ [name]: parameterValues(name as PatchableParamName) }));
  if (amendments.length > 0) options.push(z.strictObject({ type: z.literal("ProposeAmendment"), actor, changes: amendments.length === 1 ? (amendments[0] as z.ZodType) : z.union(amendments as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]) }));
  for (const type of ["DeclareEmergency", "EndEmergency", "Exit", "Pass"] as const) options.push(z.strictObject({ type: z.literal(type), actor }));
  return z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/** A quarter, a half and all of the cap (whole units, distinct, at least 1). */
function spendAmounts(cap: number): number[] {
  return [...new Set([Math.floor(cap / 4), Math.floor(cap / 2), cap])].filter((amount) => amount >= 1);
}

/** The values the kernel's schema allows a parameter: every one in a short range, else evenly spaced ones from the bounds. */
function parameterValues(name: PatchableParamName): z.ZodType {
  const field = KernelParamsSchema.shape[name];
  if (field instanceof z.ZodBoolean) return z.boolean();
  const { minimum, maximum } = z.toJSONSchema(field) as { minimum: number; maximum: number };
  const span = maximum - minimum;
  const step = span < MAX_PARAMETER_VALUES ? 1 : Math.ceil(span / (MAX_PARAMETER_VALUES - 1));
  const values: number[] = [];
  for (let value = minimum; value < maximum; value += step) values.push(value);
  values.push(maximum);
  return literalUnion(values);
}

function literalUnion(values: readonly number[]): z.ZodType {
  return values.length === 1 ? z.literal(values[0] as number) : z.union(values.map((value) => z.literal(value)) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}
