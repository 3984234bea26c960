import { z } from "zod";

/** The playbook's cap and retirement rule. */
export const PlaybookSettingsSchema = z.strictObject({
  /** Live lessons at most; admitting one more retires the lowest usage score first. Default 12. */
  maxLiveLessons: z.number().int().positive().default(12),
  /** Uses (cycles with the lesson in the prompt) before the help rate can retire a lesson. Default 5. */
  retireAfterUses: z.number().int().positive().default(5),
  /** A lesson used at least retireAfterUses times that helped in fewer than this share of them retires. 0–1, default 0.3. */
  minimumHelpRate: z.number().min(0).max(1).default(0.3),
});
export type PlaybookSettings = z.infer<typeof PlaybookSettingsSchema>;
export type PlaybookSettingsInput = z.input<typeof PlaybookSettingsSchema>;
