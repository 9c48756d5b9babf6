/**
 * Characters that show nothing or reorder what is shown: controls, bidi marks and isolates,
 * zero-width and other format characters, separators, private use and unassigned code points, and
 * the blank-looking Hangul fillers. An address holding one looks like another address.
 */
const INVISIBLE = /[\p{C}\p{Z}\u115F\u1160\u3164\uFFA0\u2800]/u;

/** What the widget and the host handler take as an email address; the service has the last word. */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && !INVISIBLE.test(email) && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}

/**
 * A suggestion for a likely typo in a common email domain ("gmial.com" -> "gmail.com"): shown to
 * the person, never applied silently.
 */
const DOMAINS = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'live.com', 'msn.com', 'aol.com', 'proton.me', 'protonmail.com', 'hotmail.co.uk', 'yahoo.co.uk', 'outlook.sa'];

/** Optimal string alignment distance: edits, counting a swap of neighbours as one. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

export function suggestEmail(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email.slice(at + 1).toLowerCase();
  if (!domain || DOMAINS.includes(domain)) return undefined;
  let best: { domain: string; score: number } | undefined;
  for (const candidate of DOMAINS) {
    const score = distance(domain, candidate);
    if (score > 0 && score <= 2 && (!best || score < best.score)) best = { domain: candidate, score };
  }
  return best && `${email.slice(0, at)}@${best.domain}`;
}
