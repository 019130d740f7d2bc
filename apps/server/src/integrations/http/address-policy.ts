import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses an outside call may connect to — every URL a tenant can influence (the Graph API base,
 * the chat-completions endpoint, media download URLs, template paging) goes through it. A public unicast
 * address is allowed; loopback, private, link-local (cloud metadata), CGNAT, unique-local, multicast,
 * unspecified, reserved and the IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo) are
 * not, unless the operator lists them in OUTBOUND_ALLOW_PRIVATE (the fakes of the demo and the tests).
 * The check runs on the addresses the connection is made to: the lookup the socket uses is this one, so
 * a name that resolves to a public address when asked once and to a private one when connecting gains
 * nothing.
 */

/** One allowed range: an address and its prefix length. */
export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

export interface AddressPolicy {
  /** Private addresses tenants may reach anyway (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivate: AddressRange[];
}

/** Why an address is refused: 'private' (not public, not listed) or 'not_listed' (plain http). */
export type AddressRefusal = 'private' | 'not_listed';

/** An IPv4-mapped IPv6 address is the IPv4 address it carries; anything else as it is. */
function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '');
  if (!net.isIP(bare)) return null;
  try {
    return ipaddr.process(bare);
  } catch {
    return null;
  }
}

/**
 * One entry of OUTBOUND_ALLOW_PRIVATE ('127.0.0.1', '::1', '10.0.0.0/8') as a range; null when it is
 * not an address or CIDR in the usual notation.
 */
export function parseAddressRange(entry: string): AddressRange | null {
  const [address, prefix, ...rest] = entry.trim().split('/');
  const parsed = normalise(address);
  if (!parsed || rest.length > 0) return null;
  const max = parsed.kind() === 'ipv4' ? 32 : 128;
  if (prefix === undefined) return [parsed, max];
  if (!/^\d{1,3}$/.test(prefix)) return null;
  let bits = Number(prefix);
  // An IPv4-mapped CIDR (::ffff:10.0.0.0/104) counts in the IPv4 address's bits.
  if (parsed.kind() === 'ipv4' && net.isIPv6(address)) bits -= 96;
  return bits >= 0 && bits <= max ? [parsed, bits] : null;
}

/** OUTBOUND_ALLOW_PRIVATE as ranges; throws naming the first entry that is not an address or CIDR. */
export function parseAllowList(value: string | undefined): AddressRange[] {
  if (!value?.trim()) return [];
  return value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const range = parseAddressRange(entry);
      if (!range) throw new Error(`'${entry}' is not an address or CIDR`);
      return range;
    });
}

function listed(address: ipaddr.IPv4 | ipaddr.IPv6, policy: AddressPolicy): boolean {
  return policy.allowPrivate.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits));
}

/**
 * Whether a call may connect to this address (an IP literal as a socket or URL gives it). With
 * `listedOnly` (plain http in production) only the operator's list counts, public or not.
 */
export function addressRefusal(
  address: string,
  policy: AddressPolicy,
  listedOnly = false,
): AddressRefusal | null {
  const parsed = normalise(address);
  if (!parsed) return 'private';
  if (listed(parsed, policy)) return null;
  if (listedOnly) return 'not_listed';
  return parsed.range() === 'unicast' ? null : 'private';
}

/** The error a refused address fails the connection with; callOutside answers it as `refused`. */
export const REFUSED_CODE = 'ERR_OUTBOUND_REFUSED';

export class OutboundRefusedError extends Error {
  readonly code = REFUSED_CODE;
  constructor(
    readonly host: string,
    readonly reason: AddressRefusal,
  ) {
    super(
      `outbound call to ${host} refused: ${reason === 'private' ? 'not a public address' : 'not listed'}`,
    );
    this.name = 'OutboundRefusedError';
  }
}

type LookupAddress = { address: string; family: number };
type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;
/** A resolver shaped like `dns.lookup` with `all: true` (tests give one that lies like a rebinding DNS). */
export type Resolve = (hostname: string, family: number) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname, family) =>
  dns.promises.lookup(hostname, { all: true, family: family as 0 | 4 | 6 });

/**
 * A `lookup` for `net.connect`: resolves, keeps only the addresses the policy allows and hands the socket
 * those, so the address checked is the address connected to. None left is a refusal.
 */
export function checkedLookup(policy: AddressPolicy, listedOnly: boolean, resolve: Resolve = systemResolve) {
  return (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: LookupCallback,
  ) => {
    const family =
      options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
    resolve(hostname, family).then(
      (addresses) => {
        const allowed = addresses.filter((a) => addressRefusal(a.address, policy, listedOnly) === null);
        if (allowed.length === 0) {
          callback(new OutboundRefusedError(hostname, listedOnly ? 'not_listed' : 'private'), []);
          return;
        }
        if (options.all) callback(null, allowed);
        else callback(null, allowed[0].address, allowed[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
