import ipaddr from 'ipaddr.js';

/**
 * The network an address belongs to, as a sessions list shows it: IPv4 /24, IPv6 /48 (a site's
 * usual allocation). An IPv4 address mapped into IPv6 (`::ffff:1.2.3.4`, as Node reports IPv4
 * clients of a dual-stack socket) counts as IPv4. Null when the text is not an address.
 */
export function ipPrefix(address: string): string | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `${ipaddr.IPv4.networkAddressFromCIDR(`${parsed.toString()}/24`).toString()}/24`;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/48`).toString()}/48`;
}
