import { type Algorithm, hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from './PasswordHasher.ts';

/** `Algorithm.Argon2id`: an ambient const enum, which `verbatimModuleSyntax` forbids reading. */
const ARGON2ID = 2 as Algorithm;

/** argon2id cost parameters. */
export interface Argon2Parameters {
  /** Memory in KiB (`m=`). */
  memoryCost: number;
  /** Passes (`t=`). */
  timeCost: number;
  /** Lanes (`p=`). */
  parallelism: number;
}

/** http-api.md §10 (OWASP's minimum): 19 MiB, two passes, one lane. */
export const DEFAULT_ARGON2_PARAMETERS: Argon2Parameters = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/**
 * argon2id through `@node-rs/argon2`, off the event loop. Hashes carry their parameters, so a hash
 * made with other costs still verifies.
 */
export class Argon2PasswordHasher implements PasswordHasher {
  private readonly parameters: Argon2Parameters;

  /** Parameters default to http-api.md §10; lower them only in tests. */
  constructor(parameters: Partial<Argon2Parameters> = {}) {
    this.parameters = { ...DEFAULT_ARGON2_PARAMETERS, ...parameters };
  }

  hash(password: string): Promise<string> {
    return hash(password, { ...this.parameters, algorithm: ARGON2ID });
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return verify(passwordHash, password);
  }
}
