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
  '64:ff9b:1::/48', // local-use NAT64: embeds an IPv4 address where the operator chose
  '100::/64',
  '2001::/32', // Teredo: tunnels over UDP to the IPv4 address it embeds
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

interface Judged {
  readonly address: string;
  readonly family: 'ipv4' | 'ipv6';
}

/**
 * The addresses an address is judged as: itself, and the IPv4 address it carries when it is an
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) or ISATAP (…:0:5efe:a.b.c.d)
 * IPv6 address, each of which reaches that IPv4 address.
 */
function judgedAs(address: string): Judged[] {
  const bare = address.replace(/%.*$/, ''); // a zone (fe80::1%eth0) names an interface only
  if (isIP(bare) === 4) return [{ address: bare, family: 'ipv4' }];
  const g = ipv6Groups(bare);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0;
  const isatap = (g[4] & 0xfcff) === 0 && g[5] === 0x5efe;
  const self: Judged = { address: bare, family: 'ipv6' };
  if (!mapped && !translated && !isatap) return [self];
  const v4 = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
  return [self, { address: v4, family: 'ipv4' }];
}

/** The eight 16-bit groups of a valid IPv6 address, '::' and a trailing dotted quad expanded. */
function ipv6Groups(address: string): number[] {
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${dotted[1]}${((+dotted[2] << 8) | +dotted[3]).toString(16)}:${((+dotted[4] << 8) | +dotted[5]).toString(16)}`
    : address;
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) =>
    part ? part.split(':').map((hex) => parseInt(hex, 16)) : [];
  const left = groups(head);
  const right = groups(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
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
    const judged = judgedAs(address);
    if (judged.some(({ address: ip, family }) => this.allowed.check(ip, family))) return undefined;
    return judged.some(({ address: ip, family }) => this.refused.check(ip, family))
      ? `${address} is a private, loopback, link-local or reserved address`
      : undefined;
  }
}
