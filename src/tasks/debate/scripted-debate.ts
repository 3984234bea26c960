import type { ScriptedRule } from "../../inference/scripted-inference-client.js";

const CLAIMS = ["it saves time", "it reduces risk", "the evidence favours it", "it scales", "users ask for it"];
const REBUTTALS = ["that ignores the cost", "the data says otherwise", "it does not generalise", "it breaks in practice"];

/**
 * Scripted players for a dry run of the debate example: debaters draw an
 * argument from their seeded stream; the judge names a winner, and one reply in
 * ten is malformed so the judge's retry path is exercised.
 */
export const scriptedDebateRules: readonly ScriptedRule[] = [
  {
    when: /^system: You judge a debate/,
    reply: (_request, random) => {
      if (random.next() < 0.1) return "Both sides argued well.";
      // The debate's judge names the sides by position: A shown first, B second.
      return JSON.stringify({ winner: random.next() < 0.5 ? "A" : "B" });
    },
  },
  { when: /^system: You argue FOR/, reply: (_request, random) => `I support the motion because ${random.pick(CLAIMS)}.` },
  { when: /^system: You argue AGAINST/, reply: (_request, random) => `I oppose it: ${random.pick(REBUTTALS)}.` },
];
