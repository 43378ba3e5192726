import { isJsonObject } from './requestedCapabilities.ts';

/** A WebDriver session's timeouts in milliseconds (W3C §9; `script: null` waits for ever). */
export interface WebDriverTimeouts {
  readonly script: number | null;
  readonly pageLoad: number;
  readonly implicit: number;
}

/** A new WebDriver session's timeouts when it asks for none (W3C §9). */
export const W3C_DEFAULT_TIMEOUTS: WebDriverTimeouts = { script: 30_000, pageLoad: 300_000, implicit: 0 };

const NAMES = ['script', 'pageLoad', 'implicit'] as const;

/**
 * A `timeouts` capability's values, or null when it is not one (W3C: an object of `script`,
 * `pageLoad` and `implicit`, each an integer from 0 to 2^53 − 1; `script` may be null).
 */
export function readTimeouts(value: unknown): Partial<WebDriverTimeouts> | null {
  if (!isJsonObject(value)) return null;
  const timeouts: Record<string, number | null> = {};
  for (const [name, ms] of Object.entries(value)) {
    if (!(NAMES as readonly string[]).includes(name)) return null;
    const valid = Number.isSafeInteger(ms) && (ms as number) >= 0;
    if (!valid && !(name === 'script' && ms === null)) return null;
    timeouts[name] = ms as number | null;
  }
  return timeouts as Partial<WebDriverTimeouts>;
}

/** The timeouts a WebDriver session was made with (its capabilities' `timeouts`), W3C's where it says none. */
export function sessionTimeouts(capabilities: Readonly<Record<string, unknown>>): WebDriverTimeouts {
  return { ...W3C_DEFAULT_TIMEOUTS, ...readTimeouts(capabilities.timeouts) };
}
