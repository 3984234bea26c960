// Test doubles, exported apart from the main API ("selfplay/testing").
export {
  ScriptedInferenceClient,
  type ScriptedInferenceClientOptions,
  type ScriptedRule,
  type ScriptedReply,
} from "./inference/scripted-inference-client.js";
export { conversationKey } from "./inference/conversation-key.js";
export { scriptedDebateRules } from "./tasks/debate/scripted-debate.js";
export { scriptedProposerSolverRules } from "./tasks/proposer-solver/scripted-proposer-solver.js";
export { scriptedDialecticRules } from "./dialectic/scripted-dialectic.js";
