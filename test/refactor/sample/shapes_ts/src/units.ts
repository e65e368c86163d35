export const UNIT = "cm";

export function scale(value: number, factor: number): number {
  return value * factor;
}

export function label(value: number, unit: string = UNIT): string {
  const rounded = Math.round(value * 100) / 100;
  return rounded + " " + unit;
}
