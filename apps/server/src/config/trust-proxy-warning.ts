import ipaddr from 'ipaddr.js';
import type { TrustProxy } from './env';

/** Whether HOST only listens on this machine (`localhost`, 127.0.0.0/8, `::1`). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare.toLowerCase() === 'localhost') return true;
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'loopback';
}

/**
 * The start-up warning for a hop count in TRUST_PROXY (`1`, `true`) while HOST is not loopback: the
 * app then believes the last address in X-Forwarded-For from whoever connects, so anyone who reaches
 * the port directly, not through the proxy, picks the address the rate limits count. A list of proxy
 * addresses is believed only from those addresses and gets no warning.
 */
export function trustProxyWarning(host: string, trustProxy: TrustProxy): string | undefined {
  if (typeof trustProxy !== 'number' || isLoopbackHost(host)) return undefined;
  return (
    `TRUST_PROXY=${trustProxy} believes X-Forwarded-For from any client while HOST=${host} is reachable ` +
    'from other machines: a client that reaches the port directly chooses the address the rate limits ' +
    'count. Make the port reachable only through the proxy (firewall, private network), or set ' +
    "TRUST_PROXY to the proxy's addresses instead of a hop count"
  );
}
