import { describe, expect, it } from "vitest";
import { PartnerBudget } from "../../../src/riddles/actor/partner-budget.js";

describe("PartnerBudget", () => {
  it("grants min(per solver, what is left), reserving in order, and takes back what a solver did not use", () => {
    const budget = new PartnerBudget(2, 3);
    expect([budget.grant(), budget.grant(), budget.grant()]).toEqual([2, 1, 0]);
    budget.settle(2, 0);
    budget.settle(1, 1);
    budget.settle(0, 0);
    expect(budget.partnersUsed).toBe(1);
    expect([budget.grant(), budget.grant()]).toEqual([2, 0]);
  });

  it("grants nothing when partners are off", () => {
    expect(new PartnerBudget(0, 5).grant()).toBe(0);
    expect(new PartnerBudget(3, 0).grant()).toBe(0);
  });
});
