/**
 * Who is calling, for per-IP caps: the address the adapter saw (or the host's own `getClientIp`), or
 * with `trustProxy` the one the outermost trusted proxy saw, as a network. IPv6 callers are keyed by
 * their /64, since one home or phone is given a whole /64 and can change address within it at will.
 */

/** The client's network from `X-Forwarded-For`, through `hops` proxies of the host's own. */
export function forwardedFor(header: string | null, hops: number): string | null {
  const chain = (header ?? '').split(',').map((part) => part.trim()).filter(Boolean);
  // Each proxy appends the address it saw: the host's own proxies wrote the last `hops` entries.
  return chain.length ? chain[Math.max(0, chain.length - hops)]! : null;
}

/** `1.2.3.4` for IPv4 (mapped into IPv6 or not), `2001:db8:0:1::/64` for IPv6; null for anything else. */
export function networkOf(address: string | null | undefined): string | null {
  if (!address) return null;
  const bare = address.trim().replace(/^\[|\](:\d+)?$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  const groups = expandIPv6(bare);
  if (!groups) return null;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/**
 * The wider network a network of `networkOf` lies in: an IPv4 /24 or an IPv6 /48, what one site,
 * office or provider's pool hands out, so that a crowd from one place shares one budget.
 */
export function wideNetworkOf(network: string): string {
  if (network.endsWith('::/64')) return `${network.split(':').slice(0, 3).join(':')}::/48`;
  return `${network.split('.').slice(0, 3).join('.')}.0/24`;
}

function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function expandIPv6(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string) => {
    if (!half) return [];
    const parts = half.split(':');
    // An IPv4 tail (::ffff:1.2.3.4) is two groups.
    const last = parts.at(-1)!;
    if (last.includes('.')) {
      if (!isIPv4(last)) return null;
      const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
      parts.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    }
    return parts.every((p) => /^[0-9a-f]{1,4}$/i.test(p)) ? parts.map((p) => parseInt(p, 16)) : null;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...tail] : null;
}
