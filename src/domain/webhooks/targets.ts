import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { invalidField } from '../../errors.ts';

/**
 * Where webhooks may be sent (SPEC §11). A webhook makes this server send requests to addresses
 * its users choose; without a check, anyone who may create an endpoint could make it reach
 * services that only the server can: a database on the private network, the cloud's metadata
 * service, an admin page on loopback. So, unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true (development
 * and tests), a target must be https:// and every address its name resolves to must be public.
 * The check runs when an endpoint is saved (to say at once what is wrong) and again inside each
 * delivery's connection (a name can resolve elsewhere by then: DNS rebinding).
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata service at 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays, deprecated
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
// IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64's
// 64:ff9b::/96, 6to4's 2002::/16) are judged by that address (embeddedIPv4), not listed here.
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // NAT64 for local use: where it leads is the network's own choice
  ['100::', 64], // discard
  ['2001::', 32], // Teredo tunnels, whose addresses hide the IPv4 address they lead to
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, with the cloud metadata service at fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local, deprecated but still routed by some networks
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
type AddressBytes = number[];

/**
 * An IPv4 address in any spelling that inet_aton(3), and so the system's resolver, accepts:
 * one to four parts, each decimal, octal (a leading 0) or hexadecimal (0x), the last part
 * filling the bytes left (127.1 is 127.0.0.1, 2130706433 and 0x7f000001 too). Null otherwise.
 */
function ipv4Bytes(text: string): AddressBytes | null {
  const parts = text.replace(/\.$/, '').split('.');
  if (parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = /^0x[0-9a-f]+$/i.test(part)
      ? parseInt(part.slice(2), 16)
      : /^0[0-7]*$/.test(part)
        ? parseInt(part, 8)
        : /^[1-9][0-9]*$/.test(part)
          ? Number(part)
          : NaN;
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((value) => value > 255) || last >= 256 ** (4 - values.length)) return null;
  const bytes = [...values];
  for (let index = 3 - values.length; index >= 0; index -= 1) bytes.push(Math.floor(last / 256 ** index) % 256);
  return bytes;
}

/** An IPv6 address (with or without a zone, with or without a dotted IPv4 tail) as 16 bytes; null if it is not one. */
function ipv6Bytes(text: string): AddressBytes | null {
  const address = text.replace(/%.*$/, '');
  if (isIP(address) !== 6) return null;
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  const tail = dotted ? ipv4Bytes(dotted[1]!) : [];
  if (tail === null) return null;
  const groupsText = dotted ? address.slice(0, dotted.index + 1) : address;
  const [left, right] = groupsText.includes('::') ? groupsText.split('::') : [groupsText, null];
  const groups = (side: string | undefined) =>
    side
      ? side
          .split(':')
          .filter((group) => group !== '')
          .map((group) => parseInt(group, 16))
      : [];
  const head = groups(left);
  const rest = right === null ? [] : groups(right);
  const missing = 8 - tail.length / 2 - head.length - rest.length;
  const all = [...head, ...Array<number>(right === null ? 0 : missing).fill(0), ...rest];
  return [...all.flatMap((group) => [group >> 8, group & 0xff]), ...tail];
}

/** The bytes of an address in any of its spellings, IPv4 or IPv6; null for what is no address. */
export function addressBytes(text: string): AddressBytes | null {
  return text.includes(':') ? ipv6Bytes(text) : ipv4Bytes(text);
}

const startsWith = (bytes: AddressBytes, prefix: readonly number[]) => prefix.every((byte, index) => bytes[index] === byte);

/**
 * The IPv4 address an IPv6 address stands for or leads to, if any: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and
 * 6to4 (2002:aabb:ccdd::/48, the relay's way to a.b.c.d). A connection to any of these may reach
 * that IPv4 host, so it is that host that must be public.
 */
export function embeddedIPv4(bytes: AddressBytes): AddressBytes | null {
  if (bytes.length !== 16) return null;
  const zeros = (count: number) => Array<number>(count).fill(0);
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return bytes.slice(12);
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return bytes.slice(12);
  // :: and ::1 are IPv6's own unspecified and loopback addresses, not IPv4-compatible ones.
  if (startsWith(bytes, zeros(12)) && !startsWith(bytes, zeros(15))) return bytes.slice(12);
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, ...zeros(8)])) return bytes.slice(12);
  if (startsWith(bytes, [0x20, 0x02])) return bytes.slice(2, 6);
  return null;
}

const ipv4Text = (bytes: AddressBytes) => bytes.join('.');
const ipv6Text = (bytes: AddressBytes) => Array.from({ length: 8 }, (_, index) => ((bytes[2 * index]! << 8) | bytes[2 * index + 1]!).toString(16)).join(':');

/**
 * Whether an address is private, loopback, link-local, metadata or otherwise not a public host.
 * Every spelling is read first (see addressBytes), and an IPv6 address that carries an IPv4
 * address is judged by that address as well, so that no way of writing 127.0.0.1 passes; what
 * is no address at all is refused.
 */
export function isForbiddenAddress(address: string): boolean {
  const bytes = addressBytes(address);
  if (bytes === null) return true;
  if (bytes.length === 4) return blocked.check(ipv4Text(bytes), 'ipv4');
  const carried = embeddedIPv4(bytes);
  if (carried !== null && blocked.check(ipv4Text(carried), 'ipv4')) return true;
  return blocked.check(ipv6Text(bytes), 'ipv6');
}

const URL_POINTER = '/body/url';
const DEVELOPMENT_HINT = 'for development and tests, set WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server';

/** The host of a URL as a resolver takes it: IPv6 literals without their brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}

/** An address as a person reads it, with the IPv4 address it carries when it carries one (::ffff:7f00:1 is 127.0.0.1). */
export function describeAddress(address: string): string {
  const bytes = addressBytes(address);
  const carried = bytes === null ? null : embeddedIPv4(bytes);
  return carried === null ? address : `${address} (the IPv4 address ${ipv4Text(carried)})`;
}

/**
 * What keeps a URL from being a webhook target, worded to follow "the URL" or a field's name
 * ("must use https:// ..."); null when it may be one. Resolves the host unless it is an address.
 */
export async function findTargetProblem(raw: string, options: { allowPrivateTargets: boolean }): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL; give the full address of your receiver, e.g. https://example.com/webhooks/ledger-recon';
  }
  if (url.protocol !== 'https:' && !(options.allowPrivateTargets && url.protocol === 'http:')) {
    return url.protocol === 'http:'
      ? `must use https:// (deliveries carry your data and are signed with your secret); plain http:// is refused in production mode — ${DEVELOPMENT_HINT}`
      : `must be an https:// URL, not ${url.protocol}`;
  }
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password; receivers check the webhook-signature header instead';
  if (url.hash !== '') return 'must not have a #fragment, which is never sent to a server; remove it';
  if (options.allowPrivateTargets) return null;
  const host = hostOf(url);
  const refused = `a private, loopback, link-local or metadata address, which deliveries never reach in production mode; use a public address — ${DEVELOPMENT_HINT}`;
  if (addressBytes(host) !== null) return isForbiddenAddress(host) ? `has for its host ${describeAddress(host)}, ${refused}` : null;
  let addresses: string[];
  try {
    addresses = (await resolveAll(host)).map((entry) => entry.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error';
    return `has a host, ${JSON.stringify(host)}, that could not be resolved (${code}); check the spelling, or create the DNS record first`;
  }
  const forbidden = addresses.find(isForbiddenAddress);
  return forbidden === undefined ? null : `has a host, ${JSON.stringify(host)}, that resolves to ${describeAddress(forbidden)}, ${refused}`;
}

/** Checks a target as an endpoint is saved; throws a 400 naming the field and the fix. Returns the URL as it is stored. */
export async function checkTargetUrl(raw: string, options: { allowPrivateTargets: boolean }): Promise<string> {
  const problem = await findTargetProblem(raw, options);
  if (problem !== null) throw invalidField(URL_POINTER, problem);
  return new URL(raw).toString();
}

/**
 * The DNS lookup of a delivery's connection: resolves as usual and refuses a name that resolves
 * to any forbidden address, so the address checked is the address connected to.
 */
export const publicAddressLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
    if (forbidden !== undefined || addresses.length === 0) {
      const refusal: NodeJS.ErrnoException = new Error(
        forbidden === undefined
          ? `${hostname} resolves to no address; the delivery was not sent`
          : `${hostname} resolves to ${describeAddress(forbidden.address)}, a private, loopback or link-local address; the delivery was not sent`,
      );
      refusal.code = 'EFORBIDDENTARGET';
      return callback(refusal, '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
