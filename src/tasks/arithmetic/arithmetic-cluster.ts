import { z } from "zod";

/**
 * A kind of problem: operation × digits of each operand × whether a column
 * carries (addition) or borrows (subtraction). Curricula and the frontier
 * tracker reason per cluster; `add-2x1-carry` reads "a two-digit number plus a
 * one-digit number, with a carry".
 */
export const ArithmeticClusterSchema = z.object({
  operation: z.enum(["add", "subtract"]),
  leftDigits: z.union([z.literal(1), z.literal(2)]),
  rightDigits: z.union([z.literal(1), z.literal(2)]),
  regrouping: z.boolean(),
});
export type ArithmeticCluster = z.infer<typeof ArithmeticClusterSchema>;

export function clusterName(cluster: ArithmeticCluster): string {
  const regrouping = cluster.operation === "add" ? "carry" : "borrow";
  return `${cluster.operation}-${cluster.leftDigits}x${cluster.rightDigits}-${cluster.regrouping ? regrouping : `no-${regrouping}`}`;
}

const CLUSTER_NAME = /^(add|subtract)-([12])x([12])-(carry|no-carry|borrow|no-borrow)$/;

/** The cluster a name denotes, or undefined (e.g. a proposer's prompt names one). */
export function parseClusterName(name: string): ArithmeticCluster | undefined {
  const match = CLUSTER_NAME.exec(name);
  if (!match) return undefined;
  const operation = match[1] as "add" | "subtract";
  const regrouping = match[4] as string;
  if ((operation === "add") !== regrouping.endsWith("carry")) return undefined;
  return { operation, leftDigits: Number(match[2]) as 1 | 2, rightDigits: Number(match[3]) as 1 | 2, regrouping: !regrouping.startsWith("no-") };
}

const digitsOf = (value: number): 1 | 2 => (value < 10 ? 1 : 2);

/**
 * The cluster of `left ± right`. Addition carries when a column's digits sum
 * to 10 or more. Subtraction is done as larger − smaller (the sign comes
 * after), and borrows when a column of the larger has the smaller digit.
 */
export function clusterOf(left: number, operation: "add" | "subtract", right: number): ArithmeticCluster {
  let regrouping: boolean;
  if (operation === "add") {
    regrouping = (left % 10) + (right % 10) >= 10 || Math.floor(left / 10) + Math.floor(right / 10) + ((left % 10) + (right % 10) >= 10 ? 1 : 0) >= 10;
  } else {
    const larger = Math.max(left, right);
    const smaller = Math.min(left, right);
    regrouping = larger % 10 < smaller % 10;
  }
  return { operation, leftDigits: digitsOf(left), rightDigits: digitsOf(right), regrouping };
}
