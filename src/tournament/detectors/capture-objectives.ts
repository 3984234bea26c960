/** The capture objectives red teams pursue and detectors look for. */
export const CAPTURE_OBJECTIVES = ["treasury-drain", "faction-suppression", "emergency-overstay", "exit-blocking"] as const;
export type CaptureObjective = (typeof CAPTURE_OBJECTIVES)[number];
