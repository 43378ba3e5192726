import { legacyCapabilities } from './legacyCapabilities.ts';

/** A capabilities object of a new-session request (W3C: a JSON object of named capabilities). */
export type CapabilityMap = Readonly<Record<string, unknown>>;

/**
 * What a new-session request asks for: the capability sets to try, in order (W3C's `alwaysMatch`
 * merged into each `firstMatch`), or why the request is malformed (`invalid argument`).
 */
export type RequestedCapabilities =
  | { readonly candidates: readonly CapabilityMap[] }
  | { readonly invalid: string };

/** True for a plain JSON object. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The capability sets a `POST /session` body asks for, as W3C WebDriver §8.1 processes them:
 * `capabilities.alwaysMatch` (default `{}`) merged into each of `capabilities.firstMatch` (default
 * `[{}]`), entries whose value is null left out, a name in both an `invalid argument`. A body with
 * no `capabilities` but legacy `desiredCapabilities` (JSON Wire Protocol clients) is read as one set
 * of their W3C equivalents (`legacyCapabilities`); W3C ignores `desiredCapabilities` beside
 * `capabilities`, and so does this. A body with neither asks for nothing in particular.
 */
export function requestedCapabilities(body: unknown): RequestedCapabilities {
  if (!isJsonObject(body)) return { invalid: 'The new-session body must be a JSON object.' };
  const { capabilities, desiredCapabilities } = body;
  if (capabilities === undefined) {
    if (desiredCapabilities === undefined || desiredCapabilities === null) return { candidates: [{}] };
    if (!isJsonObject(desiredCapabilities)) return { invalid: 'desiredCapabilities must be a JSON object.' };
    return { candidates: [legacyCapabilities(withoutNulls(desiredCapabilities))] };
  }
  if (!isJsonObject(capabilities)) return { invalid: 'capabilities must be a JSON object.' };
  const always = capabilities.alwaysMatch ?? {};
  if (!isJsonObject(always)) return { invalid: 'capabilities.alwaysMatch must be a JSON object.' };
  const firsts = capabilities.firstMatch ?? [{}];
  if (!Array.isArray(firsts) || firsts.length === 0 || !firsts.every(isJsonObject))
    return { invalid: 'capabilities.firstMatch must be a non-empty list of JSON objects.' };
  const alwaysMatch = withoutNulls(always);
  const candidates: CapabilityMap[] = [];
  for (const [index, first] of firsts.entries()) {
    const firstMatch = withoutNulls(first);
    const both = Object.keys(firstMatch).filter((name) => name in alwaysMatch);
    if (both.length > 0)
      return {
        invalid: `capabilities.firstMatch[${index}] repeats ${both.join(', ')} of capabilities.alwaysMatch.`,
      };
    candidates.push({ ...alwaysMatch, ...firstMatch });
  }
  return { candidates };
}

/** The object without its entries whose value is null (W3C: a null capability is not asked for). */
function withoutNulls(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null));
}
