import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InstanceAuth } from './InstanceAuth.ts';

const signer = (key: string) => ({
  sign: (text: string) => createHmac('sha256', key).update(text).digest('hex'),
});
const NOW = 1_800_000_000_000;

describe('InstanceAuth', () => {
  const a = new InstanceAuth({ signer: signer('shared'), instanceId: 'a' });
  const b = new InstanceAuth({ signer: signer('shared'), instanceId: 'b' });

  it('accepts a call signed for it by an instance with the same key, and names the caller', () => {
    const header = a.sign('GET', '/internal/v1/instance', 'b', NOW);
    expect(b.verify('GET', '/internal/v1/instance', header, NOW + 1_000)).toEqual({ from: 'a' });
  });

  it('refuses a call signed for another instance, another path or method, or out of time', () => {
    const header = a.sign('GET', '/internal/v1/instance', 'b', NOW);
    const c = new InstanceAuth({ signer: signer('shared'), instanceId: 'c' });
    expect(c.verify('GET', '/internal/v1/instance', header, NOW)).toBeNull();
    expect(b.verify('GET', '/internal/v1/provider-sessions/x', header, NOW)).toBeNull();
    expect(b.verify('POST', '/internal/v1/instance', header, NOW)).toBeNull();
    expect(b.verify('GET', '/internal/v1/instance', header, NOW + 31_000)).toBeNull();
    expect(b.verify('GET', '/internal/v1/instance', header, NOW - 31_000)).toBeNull();
  });

  it('refuses a call signed with another key, a forged tag, or no header', () => {
    const stranger = new InstanceAuth({ signer: signer('other'), instanceId: 'a' });
    const header = stranger.sign('GET', '/p', 'b', NOW);
    expect(b.verify('GET', '/p', header, NOW)).toBeNull();
    const [from, target, time] = a.sign('GET', '/p', 'b', NOW).split('.');
    expect(b.verify('GET', '/p', `${from}.${target}.${time}.${'0'.repeat(64)}`, NOW)).toBeNull();
    expect(b.verify('GET', '/p', undefined, NOW)).toBeNull();
    expect(b.verify('GET', '/p', ['x', 'y'], NOW)).toBeNull();
    expect(b.verify('GET', '/p', 'a.b.1.2.3', NOW)).toBeNull();
  });
});
