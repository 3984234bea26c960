import { z } from "zod";
import { PlaybookEntrySchema, RetiredPlaybookEntrySchema } from "./playbook-entry.js";

/** The playbook's JSON file: live lessons and the retired section. */
export const PlaybookFileSchema = z.strictObject({
  version: z.literal(1),
  live: z.array(PlaybookEntrySchema),
  retired: z.array(RetiredPlaybookEntrySchema),
});
export type PlaybookFile = z.infer<typeof PlaybookFileSchema>;
