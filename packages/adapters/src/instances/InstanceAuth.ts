import { timingSafeEqual } from 'node:crypto';
import type { CursorSigner } from '@browserdeck/domain';

/** The header a call from one instance to another carries. */
export const INSTANCE_AUTH_HEADER = 'x-browserdeck-instance-auth';

/** How far a signed call's time may be from the receiver's clock. */
const MAX_SKEW_MS = 30_000;

/** What an instance id looks like (`LOCAL_INSTANCE_ID`). */
export const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Who sent a call that `InstanceAuth.verify` accepted. */
export interface InstanceCaller {
  readonly from: string;
}

/**
 * Signs and checks calls between instances: `from.target.time.tag`, the tag an HMAC (the shared
 * secret key's `instances` signer) of the method, the path with its query, both ids and the time.
 * A call is accepted by its target only, within 30 s of its time: the internal address is no back
 * door for anyone without the secret key every instance of one deployment shares (`SECRET_KEY`).
 */
export class InstanceAuth {
  private readonly signer: CursorSigner;
  readonly instanceId: string;

  constructor(deps: { signer: CursorSigner; instanceId: string }) {
    this.signer = deps.signer;
    this.instanceId = deps.instanceId;
  }

  /** The header value for a call from this instance to `target`. */
  sign(method: string, path: string, target: string, now = Date.now()): string {
    const time = String(now);
    return `${this.instanceId}.${target}.${time}.${this.tag(method, path, this.instanceId, target, time)}`;
  }

  /** The caller of a call to this instance, or null when the header is missing, stale or forged. */
  verify(
    method: string,
    path: string,
    header: string | string[] | undefined,
    now = Date.now(),
  ): InstanceCaller | null {
    if (typeof header !== 'string') return null;
    const [from, target, time, tag, ...rest] = header.split('.');
    if (rest.length > 0 || !from || !target || !time || !tag) return null;
    if (!INSTANCE_ID.test(from) || target !== this.instanceId || !/^\d{1,15}$/.test(time)) return null;
    if (Math.abs(now - Number(time)) > MAX_SKEW_MS) return null;
    const expected = Buffer.from(this.tag(method, path, from, target, time));
    const given = Buffer.from(tag);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { from };
  }

  private tag(method: string, path: string, from: string, target: string, time: string): string {
    return this.signer.sign(`${method.toUpperCase()} ${path}\n${from}\n${target}\n${time}`);
  }
}
