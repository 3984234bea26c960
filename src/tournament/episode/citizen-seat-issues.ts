/** Who sits where in a tournament episode: the citizen ids each seat option names. */
export interface CitizenSeats {
  /** Citizens in the world (`c0 …`). */
  citizens: number;
  llmCitizens: readonly string[];
  opponentCitizens?: readonly string[];
  scriptedRed?: { citizens: readonly string[] };
}

/** A seat option's citizen that is not in the world, or already seated. */
export interface CitizenSeatIssue {
  /** Where the citizen was named, e.g. `["opponentCitizens", 0]`. */
  path: (string | number)[];
  citizen: string;
  /** What to do instead. */
  message: string;
}

/**
 * The seat options' mistakes, in order: a citizen outside the world, or one
 * named twice (each citizen sits once, across llmCitizens, opponentCitizens
 * and scriptedRed.citizens). The episode and the environment both check
 * this, each naming the field its own way.
 */
export function citizenSeatIssues(seats: CitizenSeats): CitizenSeatIssue[] {
  const seated = [
    ...seats.llmCitizens.map((citizen, index) => ({ citizen, path: ["llmCitizens", index] })),
    ...(seats.opponentCitizens ?? []).map((citizen, index) => ({ citizen, path: ["opponentCitizens", index] })),
    ...(seats.scriptedRed?.citizens ?? []).map((citizen, index) => ({ citizen, path: ["scriptedRed", "citizens", index] })),
  ];
  return seated.flatMap(({ citizen, path }, index) => {
    if (Number(citizen.slice(1)) >= seats.citizens) return [{ path, citizen, message: `a citizen of the world (c0 … c${seats.citizens - 1}); raise citizens or name another` }];
    if (seated.findIndex((other) => other.citizen === citizen) !== index) return [{ path, citizen, message: "each citizen once, in one of llmCitizens, opponentCitizens and scriptedRed.citizens" }];
    return [];
  });
}
