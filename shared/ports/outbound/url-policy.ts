/**
 * Outbound safety for webhook URLs, in one module.
 *
 * `public-https` (default): only `https`, no userinfo, and every address the hostname resolves to
 * must be public unicast: loopback, private (RFC 1918, ULA), link-local (incl. 169.254.169.254),
 * CGNAT, multicast, unspecified, broadcast and reserved ranges are refused. Checked at creation
 * (syntax, literal IPs and `localhost`) and again at send time after resolving, and the connection
 * then goes to the checked address (see undici-sender.ts), so DNS rebinding cannot slip through.
 *
 * `allow-local` additionally lets loopback receivers (`http://127.0.0.1:*`, `localhost`, `[::1]`)
 * through, over http or https, for local development and tests.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { UrlPolicy } from '../../config.js';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');
/** `[::1]` → `::1`, and the root label's dot dropped: `localhost.` is `localhost`. */
const stripBrackets = (host: string) =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host.replace(/\.+$/, '');

/** C0 and C1 controls, DEL and any whitespace: the URL parser would drop or encode them silently. */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f-\u009f\s]/u;

/**
 * The URL as it is stored: refused when it carries control characters, whitespace or a fragment
 * (receivers never see one); otherwise parsed (scheme and host lower-cased), with the host's
 * trailing dot removed, then checked by the policy.
 */
export function normalizeUrl(raw: string, policy: UrlPolicy): UrlCheck {
  if (CONTROL_OR_SPACE.test(raw)) return { ok: false, reason: 'url must not contain control characters or spaces' };
  if (raw.includes('#')) return { ok: false, reason: 'url must not contain a fragment (#…)' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url must be an absolute URL' };
  }
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  return checkUrlSyntax(url.href, policy);
}

/** The ipaddr.js range of an address, with IPv4-mapped IPv6 addresses judged as the IPv4 they carry. */
export function addressRange(address: string): string {
  return ipaddr.process(address).range();
}

/** Whether the policy lets a connection go to this IP address. */
export function addressAllowed(address: string, policy: UrlPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = addressRange(address);
  return range === 'unicast' || (policy === 'allow-local' && range === 'loopback');
}

/** The checks that need no DNS: scheme, userinfo, literal IP addresses and local names. */
export function checkUrlSyntax(raw: string, policy: UrlPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'url must be an absolute URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'url must not contain a user name or password' };
  const host = stripBrackets(url.hostname);
  const loopbackAllowed =
    policy === 'allow-local' && (isLocalName(host) || (ipaddr.isValid(host) && addressRange(host) === 'loopback'));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackAllowed)) {
    return {
      ok: false,
      reason:
        policy === 'allow-local' ? 'url must use https (http only for 127.0.0.1 or localhost)' : 'url must use https',
    };
  }
  if (!host) return { ok: false, reason: 'url must name a host' };
  if (isLocalName(host) && !loopbackAllowed) return { ok: false, reason: 'url must name a public host, not localhost' };
  if (ipaddr.isValid(host) && !addressAllowed(host, policy)) {
    return {
      ok: false,
      reason:
        'url must point to a public address (loopback, private, link-local, CGNAT, multicast and reserved addresses are refused)',
    };
  }
  if (!ipaddr.isValid(host) && !host.includes('.') && !isLocalName(host))
    return { ok: false, reason: 'url must name a fully qualified host' };
  return { ok: true, url };
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The send-time check: syntax again, then resolve the hostname and refuse if ANY address is not
 * allowed. Returns the address to connect to (the first one), which is the one that was checked.
 */
export async function resolveTarget(
  raw: string,
  policy: UrlPolicy,
  resolver: Resolver = systemResolver,
): Promise<ResolvedTarget | { reason: string }> {
  const syntax = checkUrlSyntax(raw, policy);
  if (!syntax.ok) return { reason: syntax.reason };
  const host = stripBrackets(syntax.url.hostname);
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  else {
    try {
      addresses = await resolver(host);
    } catch {
      return { reason: 'the receiver host name could not be resolved' };
    }
  }
  if (addresses.length === 0) return { reason: 'the receiver host name could not be resolved' };
  if (addresses.some((a) => !addressAllowed(a.address, policy))) {
    return { reason: 'the receiver host resolves to an address that is not public; refused' };
  }
  const first = addresses[0]!;
  return { url: syntax.url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
