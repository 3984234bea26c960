import { RoleSchema, type Role } from "../../core/schemas/role.js";

/**
 * The dream cycle's solver as a Role: its system prompt and sampler. The cycle
 * runner calls it outside an episode (nothing becomes a Step there); an
 * environment that trains the solver (`selfplay train --env dream`) plays the
 * same Role, so what is trained is what dreams.
 */
export const DREAM_SOLVER_ROLE: Role = RoleSchema.parse({
  id: "dream-solver",
  systemPrompt: [
    "You write one JavaScript program (CommonJS, Node 20, no npm packages) that solves the task.",
    "The fixture files are in the current directory; read them with fs, write the answer to the named output file.",
    "Answer with the program in a single ```js code block.",
  ].join("\n"),
  // A program, not a word: the arena's 256-token default would cut most solutions off.
  sampler: { maxTokens: 768 },
});
