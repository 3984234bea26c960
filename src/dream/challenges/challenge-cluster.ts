import { z } from "zod";

/** The dream cycle's JavaScript clusters, mirroring the seed's (data analysis, regex parsing, algorithms, concurrency, …). */
export const ChallengeClusterSchema = z.enum([
  "data-analysis",
  "regex-parse",
  "algorithms",
  "promise-concurrency",
  "json-transform",
  "text-processing",
]);
export type ChallengeCluster = z.infer<typeof ChallengeClusterSchema>;
