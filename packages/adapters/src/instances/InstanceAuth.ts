import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { CursorSigner } from '@browserdeck/domain';
import { SeenNonces } from './SeenNonces.ts';

/** The header a call from one instance to another carries. */
export const INSTANCE_AUTH_HEADER = 'x-browserdeck-instance-auth';

/** How far a signed call's time may be from the receiver's clock. */
const MAX_SKEW_MS = 30_000;

/** What an instance id looks like (`LOCAL_INSTANCE_ID`). */
export const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The header's version: a header of an older release (no nonce, no digest) is refused. */
const VERSION = 'v2';
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/**
 * What a signed call's body is: `empty` (none: the digest of no bytes is signed), `stream` (streamed
 * as it is read; a tag at its end, bound to the header, proves it: `sealStream` / `openStream`), or
 * `forwarded` (a client's own request carried to the instance holding its session, which serves it
 * under the client's own credential: never accepted by an internal route).
 */
export type SignedBody = 'empty' | 'stream' | 'forwarded';

/** Who sent a call that `InstanceAuth.verify` accepted, and how its body is proven. */
export interface VerifiedCall {
  readonly from: string;
  readonly body: SignedBody;
  /** The header's tag, to which a streamed body's closing tag is bound. */
  readonly tag: string;
}

/** What a call is, as signed: its method, its path with the query, its target and its body. */
export interface CallToSign {
  readonly method: string;
  readonly path: string;
  readonly target: string;
  readonly body: SignedBody;
}

/**
 * Signs and checks calls between instances: `v2.from.target.time.nonce.digest.tag`, the tag an HMAC
 * (the shared secret key's `instances` signer) of the method, the path with its query, the body's
 * digest (or how it is proven), both ids, the time and a random nonce. A call is accepted by its
 * target only, within 30 s of its time, once: its nonce is refused the second time (`SeenNonces`).
 * The internal address is no back door for anyone without the secret key every instance of one
 * deployment shares (`SECRET_KEY`); whether `from` is a live instance is the caller's check
 * (`authenticateInstanceCall`).
 */
export class InstanceAuth {
  private readonly signer: CursorSigner;
  private readonly nonces = new SeenNonces();
  private readonly streamTagBytes: number;
  readonly instanceId: string;

  constructor(deps: { signer: CursorSigner; instanceId: string }) {
    this.signer = deps.signer;
    this.instanceId = deps.instanceId;
    this.streamTagBytes = Buffer.byteLength(this.signer.sign('length'));
  }

  /** The header value for a call from this instance. */
  sign(call: CallToSign, now = Date.now()): string {
    const time = String(now);
    const nonce = randomBytes(16).toString('base64url');
    const digest = digestOf(call.body);
    const fields = [this.instanceId, call.target, time, nonce, digest];
    return [VERSION, ...fields, this.tag(call.method, call.path, fields)].join('.');
  }

  /**
   * The caller of a call to this instance, or null when the header is missing, malformed, stale,
   * forged, for another instance or another body, or its nonce was seen already. A valid header
   * uses up its nonce.
   */
  verify(
    request: { method: string; path: string; header: string | string[] | undefined },
    now = Date.now(),
  ): VerifiedCall | null {
    const { header } = request;
    if (typeof header !== 'string') return null;
    const [version, from, target, time, nonce, digest, tag, ...rest] = header.split('.');
    if (version !== VERSION || rest.length > 0 || !from || !target || !time || !nonce || !tag) return null;
    if (!INSTANCE_ID.test(from) || target !== this.instanceId || !/^\d{1,15}$/.test(time)) return null;
    if (!NONCE.test(nonce) || digest === undefined) return null;
    const body = bodyOf(digest);
    if (!body) return null;
    if (Math.abs(now - Number(time)) > MAX_SKEW_MS) return null;
    const expected = Buffer.from(this.tag(request.method, request.path, [from, target, time, nonce, digest]));
    const given = Buffer.from(tag);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!this.nonces.take(nonce, Number(time) + MAX_SKEW_MS, now)) return null;
    return { from, body, tag };
  }

  /** A `stream` call's body: `content`, then a tag over its digest bound to the call's header. */
  async *sealStream(header: string, content: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    const hash = createHash('sha256');
    for await (const chunk of content) {
      hash.update(chunk);
      yield chunk;
    }
    yield Buffer.from(this.streamTag(header.slice(header.lastIndexOf('.') + 1), hash.digest('base64url')));
  }

  /**
   * A verified `stream` call's content, without its closing tag, as it arrives. It fails at the end
   * (after every content byte went out, so a reader must keep nothing until it ends well) when the
   * tag is missing or does not prove these bytes for this call.
   */
  async *openStream(call: VerifiedCall, body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
    const hash = createHash('sha256');
    let held = Buffer.alloc(0);
    for await (const chunk of body) {
      held = Buffer.concat([held, chunk]);
      if (held.length <= this.streamTagBytes) continue;
      const out = held.subarray(0, held.length - this.streamTagBytes);
      held = held.subarray(held.length - this.streamTagBytes);
      hash.update(out);
      yield out;
    }
    const expected = Buffer.from(this.streamTag(call.tag, hash.digest('base64url')));
    if (held.length !== expected.length || !timingSafeEqual(held, expected)) {
      throw new StreamTagError('The streamed body does not match its signature.');
    }
  }

  private tag(method: string, path: string, fields: readonly string[]): string {
    return this.signer.sign(`${method.toUpperCase()} ${path}\n${fields.join('\n')}`);
  }

  private streamTag(headerTag: string, contentDigest: string): string {
    return this.signer.sign(`stream\n${headerTag}\n${contentDigest}`);
  }
}

/** A streamed body whose closing tag is missing or wrong: the receiver keeps nothing of it. */
export class StreamTagError extends Error {
  override readonly name = 'StreamTagError';
}

const EMPTY_DIGEST = createHash('sha256').digest('base64url');

function digestOf(body: SignedBody): string {
  return body === 'empty' ? EMPTY_DIGEST : body;
}

function bodyOf(digest: string): SignedBody | null {
  if (digest === 'stream' || digest === 'forwarded') return digest;
  return digest === EMPTY_DIGEST ? 'empty' : null;
}
