import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must not reach unless the operator opens them: the gateway's own host and
 * network (loopback, private, link-local, unique-local, carrier-grade NAT, multicast, reserved).
 * Otherwise a merchant could aim notificationUrl at internal services (SSRF).
 */
const REFUSED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
];
const REFUSED_V6 = [
  '::/96', // unspecified, loopback and IPv4-compatible (embeds an IPv4 address)
  '64:ff9b::/96', // NAT64: embeds an IPv4 address
  '100::/64',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
  '2002::/16', // 6to4: embeds an IPv4 address
];

function blockList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network, prefix] = cidr.split('/');
    const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    list.addSubnet(network, Number(prefix), family);
  }
  return list;
}

/** A CIDR ("127.0.0.0/8", "::1/128") or a bare address; the problem when malformed. */
export function cidrProblem(cidr: string): string | undefined {
  const [network, prefix, extra] = cidr.split('/');
  const family = isIP(network);
  const max = family === 6 ? 128 : 32;
  if (!family || extra !== undefined) return `'${cidr}' is not an address or CIDR`;
  if (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= max))
    return `'${cidr}' has a prefix length outside 0-${max}`;
  return undefined;
}

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const lower = address.toLowerCase();
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return { address: dotted[1], family: 'ipv4' };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return { address: `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, family: 'ipv4' };
  }
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export class AddressGuard {
  private readonly refused = blockList([...REFUSED_V4, ...REFUSED_V6]);
  private readonly allowed: BlockList;

  /** `allow`: CIDRs (or bare addresses) opened despite the refused ranges, e.g. for tests. */
  constructor(allow: readonly string[] = []) {
    this.allowed = blockList(
      allow.map((c) => (c.includes('/') ? c : `${c}/${isIP(c) === 6 ? 128 : 32}`)),
    );
  }

  /** Why this resolved address may not be reached, or undefined when it may. */
  refusal(address: string): string | undefined {
    if (!isIP(address)) return `'${address}' is not an IP address`;
    const { address: ip, family } = unmapped(address);
    if (this.allowed.check(ip, family)) return undefined;
    return this.refused.check(ip, family)
      ? `${address} is a private, loopback, link-local or reserved address`
      : undefined;
  }
}
