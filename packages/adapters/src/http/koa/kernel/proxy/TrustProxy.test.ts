import { describe, expect, it } from 'vitest';
import { compileTrustProxy, parseTrustProxy } from './TrustProxy.ts';

describe('parseTrustProxy (TRUST_PROXY)', () => {
  it('reads false, true, a hop count and a list', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy(' TRUE ')).toBe(true);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8,fd00::/8')).toBe('loopback, 10.0.0.0/8,fd00::/8');
  });

  it.each([
    ['0', /hop count/],
    ['yes', /"yes" is not an IP address/],
    ['10.0.0.0/99', /"10\.0\.0\.0\/99"/],
    ['10.0.0.0/8, 300.1.1.1', /"300\.1\.1\.1"/],
    ['fd00::/129', /"fd00::\/129"/],
    [' , ', /at least one/],
  ])('refuses %j, saying why', (text, message) => {
    expect(() => parseTrustProxy(text)).toThrow(message);
  });
});

describe('compileTrustProxy', () => {
  it('trusts no hop for false, every hop for true, the n nearest for a hop count', () => {
    expect(compileTrustProxy(false)('127.0.0.1', 0)).toBe(false);
    expect(compileTrustProxy(true)('203.0.113.1', 9)).toBe(true);
    const two = compileTrustProxy(2);
    expect([two('203.0.113.1', 0), two('203.0.113.1', 1), two('203.0.113.1', 2)]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('trusts the listed addresses, CIDRs (IPv4, IPv6, IPv4-mapped) and names, whatever the hop', () => {
    const trusts = compileTrustProxy(['loopback', '10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
    for (const addr of ['127.0.0.1', '::1', '10.200.0.1', '::ffff:10.0.0.5', '2001:db8::42', '192.0.2.7'])
      expect(trusts(addr, 3), addr).toBe(true);
    for (const addr of ['11.0.0.1', '192.0.2.8', '2001:db9::1', 'not-an-address'])
      expect(trusts(addr, 0), addr).toBe(false);
  });
});
