import { gridPathTemplate } from "./algorithms/grid-path-template.js";
import { longestRunTemplate } from "./algorithms/longest-run-template.js";
import type { ChallengeTemplate } from "./challenge-template.js";
import { groupTotalsTemplate } from "./data-analysis/group-totals-template.js";
import { subjectStatsTemplate } from "./data-analysis/subject-stats-template.js";
import { customerTotalsTemplate } from "./json-transform/customer-totals-template.js";
import { tagIndexTemplate } from "./json-transform/tag-index-template.js";
import { poolOrderTemplate } from "./promise-concurrency/pool-order-template.js";
import { retrySummaryTemplate } from "./promise-concurrency/retry-summary-template.js";
import { levelCountsTemplate } from "./regex-parse/level-counts-template.js";
import { requestLatencyTemplate } from "./regex-parse/request-latency-template.js";
import { topWordsTemplate } from "./text-processing/top-words-template.js";
import { wrapLinesTemplate } from "./text-processing/wrap-lines-template.js";

/** Every template, at least two per cluster so that `pickTemplate` can always avoid a repeat. */
export const CHALLENGE_TEMPLATES: readonly ChallengeTemplate[] = [
  groupTotalsTemplate,
  subjectStatsTemplate,
  levelCountsTemplate,
  requestLatencyTemplate,
  longestRunTemplate,
  gridPathTemplate,
  poolOrderTemplate,
  retrySummaryTemplate,
  customerTotalsTemplate,
  tagIndexTemplate,
  topWordsTemplate,
  wrapLinesTemplate,
];
