import { describe, expect, it } from 'vitest';
import { EgressPolicy, type EgressVerdict } from './EgressPolicy.ts';
import { parseEgressEntry } from './parseEgressEntry.ts';
import { resolveDestination } from './resolveDestination.ts';

const refusedWith = (policy: EgressPolicy, address: string, via?: string) => {
  const verdict = policy.check(address, via);
  return verdict.allowed ? null : verdict.reason;
};

describe('EgressPolicy', () => {
  const policy = new EgressPolicy();

  it('refuses every built-in range by default, naming it', () => {
    const cases: Array<[string, string]> = [
      ['0.0.0.0', 'this network (0.0.0.0/8)'],
      ['0.255.255.255', 'this network (0.0.0.0/8)'],
      ['10.0.0.1', 'private (10.0.0.0/8)'],
      ['10.255.255.255', 'private (10.0.0.0/8)'],
      ['100.64.0.1', 'shared address space (CGNAT) (100.64.0.0/10)'],
      ['100.127.255.255', 'shared address space (CGNAT) (100.64.0.0/10)'],
      ['100.100.100.200', 'cloud metadata (100.100.100.200/32)'],
      ['127.0.0.1', 'loopback (127.0.0.0/8)'],
      ['127.255.255.254', 'loopback (127.0.0.0/8)'],
      ['169.254.169.254', 'link-local (169.254.0.0/16)'],
      ['172.16.0.1', 'private (172.16.0.0/12)'],
      ['172.31.255.255', 'private (172.16.0.0/12)'],
      ['192.0.0.8', 'IETF protocol assignments (192.0.0.0/24)'],
      ['192.0.2.1', 'documentation (192.0.2.0/24)'],
      ['198.51.100.1', 'documentation (198.51.100.0/24)'],
      ['203.0.113.1', 'documentation (203.0.113.0/24)'],
      ['192.168.1.1', 'private (192.168.0.0/16)'],
      ['198.18.0.1', 'benchmarking (198.18.0.0/15)'],
      ['198.19.255.255', 'benchmarking (198.18.0.0/15)'],
      ['224.0.0.1', 'multicast (224.0.0.0/4)'],
      ['239.255.255.250', 'multicast (224.0.0.0/4)'],
      ['240.0.0.1', 'reserved and broadcast (240.0.0.0/4)'],
      ['255.255.255.255', 'reserved and broadcast (240.0.0.0/4)'],
      ['::', 'unspecified (::/128)'],
      ['::1', 'loopback (::1/128)'],
      ['[::1]', 'loopback (::1/128)'],
      ['::7f00:1', 'IPv4-compatible (deprecated) (::/96)'],
      ['2001:db8::1', 'documentation (2001:db8::/32)'],
      ['fc00::1', 'unique local (fc00::/7)'],
      ['fd12:3456::1', 'unique local (fc00::/7)'],
      ['fd00:ec2::254', 'cloud metadata (fd00:ec2::254/128)'],
      ['fe80::1', 'link-local (fe80::/10)'],
      ['fe80::1%eth0', 'link-local (fe80::/10)'],
      ['febf:ffff::1', 'link-local (fe80::/10)'],
      ['fec0::1', 'site-local (deprecated) (fec0::/10)'],
      ['ff02::1', 'multicast (ff00::/8)'],
    ];
    for (const [address, reason] of cases)
      expect([address, refusedWith(policy, address)]).toEqual([address, reason]);
  });

  it('allows public addresses, including those just outside the refused ranges', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '126.255.255.255',
      '128.0.0.0',
      '169.253.255.255',
      '172.15.255.255',
      '172.32.0.0',
      '192.0.1.1',
      '192.167.255.255',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '[2a00:1450::1]',
      'fbff:ffff::1',
    ]) {
      expect([address, refusedWith(policy, address)]).toEqual([address, null]);
    }
  });

  it('judges IPv4-mapped IPv6 addresses as their IPv4 address', () => {
    expect(refusedWith(policy, '::ffff:127.0.0.1')).toBe('loopback (127.0.0.0/8)');
    expect(refusedWith(policy, '::ffff:7f00:1')).toBe('loopback (127.0.0.0/8)');
    expect(refusedWith(policy, '[::ffff:10.1.2.3]')).toBe('private (10.0.0.0/8)');
    expect(refusedWith(policy, '0:0:0:0:0:ffff:a9fe:a9fe')).toBe('link-local (169.254.0.0/16)');
    expect(refusedWith(policy, '::ffff:0.0.0.0')).toBe('this network (0.0.0.0/8)');
    expect(refusedWith(policy, '::ffff:8.8.8.8')).toBeNull();
  });

  it('judges NAT64 addresses by the IPv4 address they embed', () => {
    expect(refusedWith(policy, '64:ff9b::7f00:1')).toBe('loopback (127.0.0.0/8) via NAT64 (64:ff9b::/96)');
    expect(refusedWith(policy, '64:ff9b::10.0.0.1')).toBe('private (10.0.0.0/8) via NAT64 (64:ff9b::/96)');
    expect(refusedWith(policy, '64:ff9b::169.254.169.254')).toMatch(/^link-local/);
    expect(refusedWith(policy, '64:ff9b::8.8.8.8')).toBeNull();
    const allowing = new EgressPolicy({ allow: ['127.0.0.1'] });
    expect(refusedWith(allowing, '64:ff9b::127.0.0.1')).toBeNull();
  });

  it('refuses what is not an IP address', () => {
    for (const text of ['example.com', '127.1', '2130706433', '999.1.1.1', '', '127.0.0.1/32']) {
      expect(refusedWith(policy, text)).toBe(`not an IP address (${text})`);
    }
  });

  it('refuses the service’s own addresses, even public ones', () => {
    const own = new EgressPolicy({ ownAddresses: ['93.184.216.34', '::ffff:93.184.216.35', '2a01:4f8::7'] });
    expect(refusedWith(own, '93.184.216.34')).toBe("this host's own address (93.184.216.34)");
    expect(refusedWith(own, '93.184.216.35')).toBe("this host's own address (93.184.216.35)");
    expect(refusedWith(own, '::ffff:93.184.216.34')).toBe("this host's own address (93.184.216.34)");
    expect(refusedWith(own, '2a01:4f8::7')).toBe("this host's own address (2a01:4f8::7)");
    expect(refusedWith(own, '93.184.216.36')).toBeNull();
    expect(refusedWith(own, '127.0.0.1')).toBe('loopback (127.0.0.0/8)');
    expect(() => new EgressPolicy({ ownAddresses: ['eth0'] })).toThrow('"eth0"');
  });

  it('allowPrivate opens private networks, loopback and own addresses, not link-local or unroutable', () => {
    const open = new EgressPolicy({ allowPrivate: true, ownAddresses: ['93.184.216.34'] });
    for (const address of [
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      'fd12::1',
      '198.18.0.1',
      '93.184.216.34',
      '8.8.8.8',
    ]) {
      expect([address, refusedWith(open, address)]).toEqual([address, null]);
    }
    for (const address of [
      '169.254.169.254',
      'fe80::1',
      'fd00:ec2::254',
      '100.100.100.200',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      'ff02::1',
      '255.255.255.255',
    ]) {
      expect([address, refusedWith(open, address)]).toEqual([address, expect.any(String)]);
    }
  });

  it('an allowed range wins over the built-in refusals but not over unroutable ranges', () => {
    const allowing = new EgressPolicy({ allow: ['10.1.0.0/16', '169.254.169.254', 'fd00::/8', '0.0.0.0/0'] });
    expect(refusedWith(allowing, '10.1.2.3')).toBeNull();
    expect(refusedWith(allowing, '::ffff:10.1.2.3')).toBeNull();
    expect(refusedWith(allowing, '169.254.169.254')).toBeNull();
    expect(refusedWith(allowing, 'fd00:ec2::254')).toBeNull();
    expect(refusedWith(allowing, 'fd12::1')).toBeNull();
    expect(refusedWith(allowing, 'fc00::1')).toBe('unique local (fc00::/7)');
    expect(refusedWith(allowing, '0.0.0.0')).toBe('this network (0.0.0.0/8)');
    expect(refusedWith(allowing, '224.0.0.1')).toBe('multicast (224.0.0.0/4)');
    const narrow = new EgressPolicy({ allow: ['10.1.0.0/16'] });
    expect(refusedWith(narrow, '10.2.0.1')).toBe('private (10.0.0.0/8)');
  });

  it('a denied entry wins over everything, including allow and allowPrivate', () => {
    const both = new EgressPolicy({
      allowPrivate: true,
      allow: ['10.1.0.0/16', 'intranet.example'],
      deny: ['10.1.2.0/24', '8.8.8.8', '2606:4700::/32'],
    });
    expect(refusedWith(both, '10.1.2.3')).toBe('listed in EGRESS_DENY (10.1.2.0/24)');
    expect(refusedWith(both, '10.1.2.3', 'intranet.example')).toBe('listed in EGRESS_DENY (10.1.2.0/24)');
    expect(refusedWith(both, '10.1.3.3')).toBeNull();
    expect(refusedWith(both, '8.8.8.8')).toBe('listed in EGRESS_DENY (8.8.8.8)');
    expect(refusedWith(both, '::ffff:8.8.8.8')).toBe('listed in EGRESS_DENY (8.8.8.8)');
    expect(refusedWith(both, '64:ff9b::8.8.8.8')).toBe('listed in EGRESS_DENY (8.8.8.8)');
    expect(refusedWith(both, '2606:4700::1111')).toBe('listed in EGRESS_DENY (2606:4700::/32)');
    expect(refusedWith(both, '2607::1')).toBeNull();
  });

  it('host-name entries: deny by name, and allow what an allowed name resolves to', () => {
    const named = new EgressPolicy({
      allow: ['intranet.example', '*.corp.example'],
      deny: ['blocked.example', '*.internal.example', 'secret.corp.example'],
    });
    expect(named.checkHost('blocked.example')).toEqual({
      allowed: false,
      reason: 'listed in EGRESS_DENY (blocked.example)',
      rule: 'deny',
    });
    expect(named.checkHost('a.b.internal.example')).toEqual({
      allowed: false,
      reason: 'listed in EGRESS_DENY (*.internal.example)',
      rule: 'deny',
    });
    expect(named.checkHost('A.Internal.Example.').allowed).toBe(false);
    expect(named.checkHost('internal.example')).toEqual({ allowed: true });
    expect(named.checkHost('notblocked.example')).toEqual({ allowed: true });
    expect(named.checkHost('example.com')).toEqual({ allowed: true });

    expect(refusedWith(named, '10.0.0.5', 'intranet.example')).toBeNull();
    expect(refusedWith(named, '10.0.0.5', 'INTRANET.example.')).toBeNull();
    expect(refusedWith(named, '10.0.0.5', 'app.corp.example')).toBeNull();
    expect(refusedWith(named, '10.0.0.5', 'corp.example')).toBe('private (10.0.0.0/8)');
    expect(refusedWith(named, '10.0.0.5', 'other.example')).toBe('private (10.0.0.0/8)');
    expect(refusedWith(named, '10.0.0.5')).toBe('private (10.0.0.0/8)');
    expect(refusedWith(named, '10.0.0.5', 'secret.corp.example')).toBe(
      'listed in EGRESS_DENY (secret.corp.example)',
    );
    expect(refusedWith(named, '0.0.0.0', 'intranet.example')).toBe('this network (0.0.0.0/8)');
  });

  it('matches internationalised host names in their ASCII form', () => {
    const named = new EgressPolicy({ deny: ['*.bücher.example'] });
    expect(named.checkHost('shop.xn--bcher-kva.example').allowed).toBe(false);
  });

  it('parseList trims, skips empty entries and keeps valid ones', () => {
    expect(
      EgressPolicy.parseList(' 10.0.0.0/8, fd00::/8 ,,intranet.example, *.corp.example, [::1],'),
    ).toEqual(['10.0.0.0/8', 'fd00::/8', 'intranet.example', '*.corp.example', '[::1]']);
    expect(EgressPolicy.parseList('')).toEqual([]);
  });

  it('parseList throws an Error naming a bad entry', () => {
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      'fd00::/129',
      '10.0.0.1/x',
      'http://example.com',
      'exa mple.com',
      '*',
      '*.',
      '**.example.com',
      '-bad.example',
      '1.2.3',
      '256.1.1.1',
      'fe80::1%eth0',
      'example.com:0',
      'example.com:65536',
      'example.com:',
      'example.com:80:80',
      '127.0.0.1:x',
      '[::1]:',
      '[::1]:70000',
      'fd00::/8:443',
      'http://example.com:80',
    ]) {
      expect(() => EgressPolicy.parseList(`8.8.8.8, ${bad}`), bad).toThrow(`"${bad}"`);
    }
    expect(() => new EgressPolicy({ deny: ['10.0.0.0/33'] })).toThrow('"10.0.0.0/33"');
  });

  it('parses entries with a port: addresses, bracketed IPv6, IPv4 ranges and host names', () => {
    expect(
      EgressPolicy.parseList(
        '127.0.0.2:8080, [::1]:5173, 10.0.0.0/8:443, intranet.example:8443, *.corp.example:1',
      ),
    ).toEqual([
      '127.0.0.2:8080',
      '[::1]:5173',
      '10.0.0.0/8:443',
      'intranet.example:8443',
      '*.corp.example:1',
    ]);
    expect(parseEgressEntry('[::1]:5173')).toMatchObject({
      kind: 'range',
      network: '::1',
      prefix: 128,
      port: 5173,
    });
    expect(parseEgressEntry('127.0.0.2:8080')).toMatchObject({
      kind: 'range',
      network: '127.0.0.2',
      port: 8080,
    });
    expect(parseEgressEntry('10.0.0.0/8:443')).toMatchObject({ kind: 'range', prefix: 8, port: 443 });
    expect(parseEgressEntry('Intranet.Example:8443')).toMatchObject({
      kind: 'host',
      name: 'intranet.example',
      port: 8443,
    });
    expect(parseEgressEntry('10.0.0.0/8')).toMatchObject({ port: null });
    // Without brackets an IPv6 address never takes a port: `::1:80` is the address ::1:80.
    expect(parseEgressEntry('::1:80')).toMatchObject({ kind: 'range', network: '::1:80', port: null });
  });

  it('a port-scoped allow entry opens that port only, and names it when another port is refused', () => {
    const scoped = new EgressPolicy({ allow: ['127.0.0.1:8080', '[::1]:5173', 'dev.test:3000'] });
    expect(scoped.check('127.0.0.1', undefined, 8080)).toEqual({ allowed: true });
    expect(refusedWith(scoped, '127.0.0.1')).toBe('loopback (127.0.0.0/8)');
    expect(scoped.check('127.0.0.1', undefined, 3000)).toEqual({
      allowed: false,
      reason: 'loopback (127.0.0.0/8); EGRESS_ALLOW has 127.0.0.1:8080, not port 3000',
      rule: 'range',
    });
    expect(scoped.check('127.0.0.2', undefined, 3000)).toEqual({
      allowed: false,
      reason: 'loopback (127.0.0.0/8)',
      rule: 'range',
    });
    expect(scoped.check('::1', undefined, 5173)).toEqual({ allowed: true });
    expect(scoped.check('::1', undefined, 5174).allowed).toBe(false);
    expect(scoped.check('10.0.0.1', 'dev.test', 3000)).toEqual({ allowed: true });
    expect(scoped.check('10.0.0.1', 'dev.test', 3001)).toEqual({
      allowed: false,
      reason: 'private (10.0.0.0/8); EGRESS_ALLOW has dev.test:3000, not port 3001',
      rule: 'range',
    });
    const unscoped = new EgressPolicy({ allow: ['127.0.0.1'] });
    expect(unscoped.check('127.0.0.1', undefined, 3000)).toEqual({ allowed: true });
  });

  it('a port-scoped deny entry refuses that port only, and an unknown port', () => {
    const denying = new EgressPolicy({ deny: ['8.8.8.8:53', 'mail.example:25', '1.1.1.0/24:25'] });
    expect(denying.check('8.8.8.8', undefined, 53)).toEqual({
      allowed: false,
      reason: 'listed in EGRESS_DENY (8.8.8.8:53)',
      rule: 'deny',
    });
    expect(denying.check('8.8.8.8', undefined, 443)).toEqual({ allowed: true });
    expect(refusedWith(denying, '8.8.8.8')).toBe('listed in EGRESS_DENY (8.8.8.8:53)');
    expect(denying.check('1.1.1.1', undefined, 25).allowed).toBe(false);
    expect(denying.check('1.1.1.1', undefined, 443).allowed).toBe(true);
    expect(denying.checkHost('mail.example', 25).allowed).toBe(false);
    expect(denying.checkHost('mail.example', 443).allowed).toBe(true);
    expect(denying.checkHost('mail.example').allowed).toBe(false);
  });

  it('says which kind of rule refused: a deny entry, a built-in range, an own address, or no address', () => {
    const policy = new EgressPolicy({
      deny: ['127.0.0.2', 'blocked.example'],
      ownAddresses: ['198.51.200.7'],
    });
    const ruleOf = (verdict: EgressVerdict) => (verdict.allowed ? null : verdict.rule);
    expect(ruleOf(policy.check('127.0.0.2'))).toBe('deny');
    expect(ruleOf(policy.check('127.0.0.1'))).toBe('range');
    expect(ruleOf(policy.check('0.0.0.1'))).toBe('range');
    expect(ruleOf(policy.check('198.51.200.7'))).toBe('own-address');
    expect(ruleOf(policy.check('not-an-ip'))).toBe('invalid');
    expect(ruleOf(policy.checkHost('blocked.example'))).toBe('deny');
    expect(ruleOf(policy.check('8.8.8.8'))).toBeNull();
  });

  it('resolveDestination names a deny entry over the defaults when any address of a name has one', async () => {
    const policy = new EgressPolicy({ deny: ['::1'] });
    const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
    // localhost means 127.0.0.1 and ::1: the second is denied, so the deny entry is the reason.
    expect(await resolveDestination('localhost', 80, policy, lookup)).toEqual({
      reachable: false,
      refused: true,
      reason: 'listed in EGRESS_DENY (::1)',
      rule: 'deny',
      address: '::1',
    });
    expect(await resolveDestination('127.0.0.1', 80, policy, lookup)).toMatchObject({ rule: 'range' });
    expect(await resolveDestination('a b', 80, policy, lookup)).toMatchObject({ rule: 'invalid' });
  });

  it('describes its configuration', () => {
    expect(
      new EgressPolicy({
        allow: ['10.0.0.0/8'],
        deny: ['*.x.example'],
        ownAddresses: ['127.0.0.1'],
      }).describe(),
    ).toEqual({ allowPrivate: false, allow: ['10.0.0.0/8'], deny: ['*.x.example'], ownAddresses: 1 });
  });
});
