import { z } from "zod";
import { LessonDomainSchema } from "./lesson-domains.js";

const text = z.string().trim().min(1);

/**
 * What a judge proposes after a won challenge, before any gate: domains are
 * free strings here so that an off-taxonomy domain reaches the generalization
 * guard and is rejected by name instead of failing the judge call.
 */
export const LessonCandidateSchema = z.strictObject({
  /** When the lesson applies, said in general terms (never the challenge itself). */
  trigger: text,
  /** What the failed attempts did that went wrong. */
  antiPattern: text,
  /** What works instead, as a reusable technique. */
  correctPattern: text,
  /** Domains of LESSON_DOMAINS the lesson applies to. */
  domains: z.array(z.string().trim()),
  /** The judge's confidence that the lesson generalises, 0–1. */
  confidence: z.number().min(0).max(1),
});
export type LessonCandidate = z.infer<typeof LessonCandidateSchema>;

/** A lesson that passed the generalization guard: its domains are a non-empty subset of the taxonomy. */
export const LessonSchema = z.strictObject({
  trigger: text,
  antiPattern: text,
  correctPattern: text,
  /** Non-empty, every one of LESSON_DOMAINS. */
  domains: z.array(LessonDomainSchema).min(1),
  /** 0–1. */
  confidence: z.number().min(0).max(1),
  /** Hash of the challenge the lesson was learnt on (the challenge's own hash). */
  sourceChallengeHash: text,
});
export type Lesson = z.infer<typeof LessonSchema>;
