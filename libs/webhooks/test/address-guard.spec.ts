import { AddressGuard, cidrProblem } from '../src/sending/address-guard';

describe('SSRF address guard', () => {
  const guard = new AddressGuard();

  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(guard.refusal(address)).toMatch(/private, loopback, link-local or reserved/);
  });

  it.each([
    ['IPv4-translated (::ffff:0:0/96), loopback', '::ffff:0:7f00:1'],
    ['IPv4-translated, dotted', '::ffff:0:127.0.0.1'],
    ['IPv4-translated, written out', '0:0:0:0:ffff:0:a00:1'],
    ['IPv4-translated, metadata service', '::ffff:0:a9fe:a9fe'],
    ['IPv4-mapped, written out', '0:0:0:0:0:ffff:c0a8:101'],
    ['IPv4-compatible, private', '::10.0.0.1'],
    ['NAT64 (64:ff9b::/96), public', '64:ff9b::808:808'],
    ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::a00:1'],
    ['6to4 (2002::/16)', '2002:a00:1::1'],
    ['Teredo (2001::/32)', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    ['ISATAP embedding a private address', '2600:1f18::5efe:a00:1'],
    ['ISATAP (u bit) embedding loopback', '2600:1f18::200:5efe:7f00:1'],
    ['link-local with a zone', 'fe80::1%eth0'],
  ])('refuses an IPv6 address reaching IPv4 or a tunnel: %s (%s)', (_what, address) => {
    expect(guard.refusal(address)).toMatch(/private, loopback, link-local or reserved/);
  });

  it.each([
    '93.184.216.34',
    '172.32.0.1',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::ffff:0:808:808',
    '2600:1f18::5efe:808:808',
    '2001:4860:4860::8888',
  ])('lets %s through', (address) => {
    expect(guard.refusal(address)).toBeUndefined();
  });

  it('opens only what the allow-list names', () => {
    const open = new AddressGuard(['127.0.0.0/8', '::1']);
    expect(open.refusal('127.0.0.1')).toBeUndefined();
    expect(open.refusal('::ffff:127.0.0.1')).toBeUndefined();
    expect(open.refusal('::ffff:0:127.0.0.1')).toBeUndefined();
    expect(open.refusal('::1')).toBeUndefined();
    expect(open.refusal('10.0.0.1')).toBeDefined();
    expect(open.refusal('169.254.169.254')).toBeDefined();
  });

  it('refuses what is not an address', () => {
    expect(guard.refusal('localhost')).toMatch(/not an IP address/);
  });

  it('checks allow-list entries', () => {
    expect(cidrProblem('127.0.0.0/8')).toBeUndefined();
    expect(cidrProblem('::1')).toBeUndefined();
    expect(cidrProblem('127.0.0.0/33')).toMatch(/prefix length outside 0-32/);
    expect(cidrProblem('fe80::/129')).toMatch(/0-128/);
    expect(cidrProblem('example.com/8')).toMatch(/not an address or CIDR/);
    expect(cidrProblem('10.0.0.0/8/1')).toMatch(/not an address or CIDR/);
  });
});
