// jstat ships no types; this declares the one function selfplay calls.
declare module "jstat" {
  const jstat: {
    jStat: {
      studentt: {
        /** The quantile of Student's t distribution with `degreesOfFreedom` at probability `p`. */
        inv(p: number, degreesOfFreedom: number): number;
      };
    };
  };
  export default jstat;
}
