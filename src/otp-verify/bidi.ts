/**
 * A left-to-right value (a dial code, a phone number, an email) kept whole inside text of either
 * direction, where no element can isolate it (an <option>, a live-region sentence): without it,
 * Arabic text shows "+966" as "966+" and "(+966)" as "(966+)".
 */
export function leftToRight(value: string): string {
  return `\u2066${value}\u2069`;
}
