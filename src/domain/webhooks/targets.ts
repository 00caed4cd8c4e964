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
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b::', 96], // NAT64: reaches IPv4 addresses, private ones included
  ['fc00::', 7], // unique local, with the cloud metadata service at fd00:ec2::254
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is private, loopback, link-local, metadata or otherwise not a public host. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
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

/** Checks a target as an endpoint is saved; throws a 400 naming the field and the fix. */
export async function checkTargetUrl(raw: string, options: { allowPrivateTargets: boolean }): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidField(URL_POINTER, 'is not an absolute URL; give the full address of your receiver, e.g. https://example.com/webhooks/ledger-recon');
  }
  if (url.protocol !== 'https:' && !(options.allowPrivateTargets && url.protocol === 'http:')) {
    throw invalidField(
      URL_POINTER,
      url.protocol === 'http:'
        ? `must use https:// (deliveries carry your data and are signed with your secret); plain http:// is refused in production mode — ${DEVELOPMENT_HINT}`
        : `must be an https:// URL, not ${url.protocol}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidField(URL_POINTER, 'must not carry a user name or password; receivers check the webhook-signature header instead');
  }
  if (url.hash !== '') throw invalidField(URL_POINTER, 'must not have a #fragment, which is never sent to a server; remove it');
  if (options.allowPrivateTargets) return url.toString();
  const host = hostOf(url);
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolveAll(host)).map((entry) => entry.address);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      throw invalidField(URL_POINTER, `the host ${JSON.stringify(host)} could not be resolved (${code}); check the spelling, or create the DNS record first`);
    }
  }
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) {
    throw invalidField(
      URL_POINTER,
      `the host ${JSON.stringify(host)} resolves to ${forbidden}, a private, loopback, link-local or metadata address, which deliveries never reach in production mode; use a public address — ${DEVELOPMENT_HINT}`,
    );
  }
  return url.toString();
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
      const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${forbidden?.address ?? 'no address'}, a private, loopback or link-local address; the delivery was not sent`);
      refusal.code = 'EFORBIDDENTARGET';
      return callback(refusal, '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};
