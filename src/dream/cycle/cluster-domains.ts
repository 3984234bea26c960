import type { ChallengeCluster } from "../challenges/challenge-cluster.js";
import type { LessonDomain } from "../lessons/lesson-domains.js";

const DOMAINS: Readonly<Record<ChallengeCluster, LessonDomain>> = {
  "data-analysis": "data-analysis",
  "regex-parse": "regex-parse",
  algorithms: "algorithms",
  "promise-concurrency": "concurrency",
  "json-transform": "json-transform",
  "text-processing": "text-processing",
};

/** The lesson domains whose playbook entries a cluster's solver sees: its own and the general Node ones. */
export function clusterDomains(cluster: ChallengeCluster): LessonDomain[] {
  return [DOMAINS[cluster], "node-general"];
}
