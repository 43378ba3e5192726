import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type CallToSign, InstanceAuth, StreamTagError } from './InstanceAuth.ts';

const signer = (key: string) => ({
  sign: (text: string) => createHmac('sha256', key).update(text).digest('hex'),
});
const NOW = 1_800_000_000_000;
const ping = (target: string): CallToSign => ({
  method: 'GET',
  path: '/internal/v1/instance',
  target,
  body: 'empty',
});

async function read(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

async function* bytes(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('InstanceAuth', () => {
  const fresh = () => ({
    a: new InstanceAuth({ signer: signer('shared'), instanceId: 'a' }),
    b: new InstanceAuth({ signer: signer('shared'), instanceId: 'b' }),
  });

  it('accepts a call signed for it by an instance with the same key, and names the caller', () => {
    const { a, b } = fresh();
    const header = a.sign(ping('b'), NOW);
    expect(b.verify({ method: 'GET', path: '/internal/v1/instance', header }, NOW + 1_000)).toMatchObject({
      from: 'a',
      body: 'empty',
    });
  });

  it('refuses a call signed for another instance, another path or method, or out of time', () => {
    const { a, b } = fresh();
    const c = new InstanceAuth({ signer: signer('shared'), instanceId: 'c' });
    const header = () => a.sign(ping('b'), NOW);
    const path = '/internal/v1/instance';
    expect(c.verify({ method: 'GET', path, header: header() }, NOW)).toBeNull();
    expect(
      b.verify({ method: 'GET', path: '/internal/v1/provider-sessions/x', header: header() }, NOW),
    ).toBeNull();
    expect(b.verify({ method: 'POST', path, header: header() }, NOW)).toBeNull();
    expect(b.verify({ method: 'GET', path, header: header() }, NOW + 31_000)).toBeNull();
    expect(b.verify({ method: 'GET', path, header: header() }, NOW - 31_000)).toBeNull();
  });

  it('refuses a call signed with another key, a forged tag, or no header', () => {
    const { a, b } = fresh();
    const stranger = new InstanceAuth({ signer: signer('other'), instanceId: 'a' });
    const p = (header: string | string[] | undefined) => ({ method: 'GET', path: '/p', header });
    expect(b.verify(p(stranger.sign({ ...ping('b'), path: '/p' }, NOW)), NOW)).toBeNull();
    const fields = a.sign({ ...ping('b'), path: '/p' }, NOW).split('.');
    expect(b.verify(p([...fields.slice(0, -1), '0'.repeat(64)].join('.')), NOW)).toBeNull();
    expect(b.verify(p(undefined), NOW)).toBeNull();
    expect(b.verify(p(['x', 'y']), NOW)).toBeNull();
    expect(b.verify(p('a.b.1.2.3'), NOW)).toBeNull();
    // A header of the previous release (no nonce, no digest) is refused.
    expect(b.verify(p(`a.b.${NOW}.${'0'.repeat(64)}`), NOW)).toBeNull();
  });

  it('takes a nonce once: the same header sent again is refused, however well signed', () => {
    const { a, b } = fresh();
    const header = a.sign(ping('b'), NOW);
    const call = { method: 'GET', path: '/internal/v1/instance', header };
    expect(b.verify(call, NOW)).not.toBeNull();
    expect(b.verify(call, NOW + 1)).toBeNull();
    expect(b.verify(call, NOW + 29_000)).toBeNull();
    // Two calls signed alike still differ by their nonces.
    expect(b.verify({ ...call, header: a.sign(ping('b'), NOW) }, NOW)).not.toBeNull();
  });

  it('binds the body as signed: a header signed without a body does not pass for a streamed one', () => {
    const { a, b } = fresh();
    const path = '/internal/v1/provider-sessions/x/upload?name=a.txt';
    const header = a.sign({ method: 'POST', path, target: 'b', body: 'empty' }, NOW);
    const [version, from, target, time, nonce, , tag] = header.split('.');
    const restamped = [version, from, target, time, nonce, 'stream', tag].join('.');
    expect(b.verify({ method: 'POST', path, header: restamped }, NOW)).toBeNull();
    expect(b.verify({ method: 'POST', path, header }, NOW)).toMatchObject({ body: 'empty' });
  });

  it('proves a streamed body by its closing tag, and fails at its end when the bytes were changed', async () => {
    const { a, b } = fresh();
    const path = '/internal/v1/provider-sessions/x/upload?name=a.txt';
    const signed = () => a.sign({ method: 'POST', path, target: 'b', body: 'stream' });
    const header = signed();
    const sealed = await read(a.sealStream(header, bytes('hello ', 'world')));
    const call = b.verify({ method: 'POST', path, header });
    expect(call).toMatchObject({ from: 'a', body: 'stream' });
    if (!call) return;
    // The tag may arrive split over chunks.
    expect(
      await read(b.openStream(call, bytes(sealed.slice(0, 3), sealed.slice(3, -5), sealed.slice(-5)))),
    ).toBe('hello world');

    const other = signed();
    const changed = `HELLO${(await read(a.sealStream(other, bytes('hello world')))).slice(5)}`;
    const otherCall = b.verify({ method: 'POST', path, header: other });
    if (!otherCall) throw new Error('refused');
    await expect(read(b.openStream(otherCall, bytes(changed)))).rejects.toBeInstanceOf(StreamTagError);
    // Another call's sealed body does not pass for this one's.
    const third = signed();
    const thirdCall = b.verify({ method: 'POST', path, header: third });
    if (!thirdCall) throw new Error('refused');
    await expect(read(b.openStream(thirdCall, bytes(sealed)))).rejects.toBeInstanceOf(StreamTagError);
    const fourth = signed();
    const fourthCall = b.verify({ method: 'POST', path, header: fourth });
    if (!fourthCall) throw new Error('refused');
    await expect(read(b.openStream(fourthCall, bytes('short')))).rejects.toBeInstanceOf(StreamTagError);
  });
});
