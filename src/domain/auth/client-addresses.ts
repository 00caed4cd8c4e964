import { isIPv4, isIPv6 } from 'node:net';

/**
 * The address a token request is counted under for throttling. IPv4 addresses count one by
 * one. An IPv6 address counts by its /64 prefix, because a single host is routinely given a
 * whole /64 and could otherwise rotate through addresses to multiply its allowance. An
 * IPv4-mapped IPv6 address (::ffff:192.0.2.1) counts as the IPv4 address it carries. Anything
 * else (a trusted proxy can forward any text) is marked as such, so that it can never be taken
 * for an address or for the counters' row of all addresses.
 */
export function throttlingAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return `not an address: ${address.slice(0, 64)}`;
  const groups = expandIPv6(address.split('%')[0]!);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, in lower-case hexadecimal without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, tail.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const missing = 8 - headGroups.length - restGroups.length;
  const groups = rest === undefined ? headGroups : [...headGroups, ...new Array(missing).fill('0'), ...restGroups];
  return groups.map((group) => parseInt(group, 16).toString(16));
}
