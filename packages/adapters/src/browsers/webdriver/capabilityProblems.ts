import { isDeepStrictEqual } from 'node:util';
import type { CapabilityProblem } from './CapabilityProblem.ts';
import { chromeOptionsProblems } from './chromeOptionsProblems.ts';
import { type CapabilityMap, isJsonObject } from './requestedCapabilities.ts';
import { readTimeouts } from './webdriverTimeouts.ts';

export type { CapabilityProblem } from './CapabilityProblem.ts';

/** Names a Chromium answers to: any of them asks for the session's browser, whatever build it is. */
const CHROMIUM_NAMES = new Set(['chrome', 'chromium', 'chrome-headless-shell']);

/**
 * Capabilities a WebDriver session is made with and keeps: a request must ask for what the session
 * has (W3C's default where the session's answer left one out).
 */
const FIXED: Readonly<Record<string, { fallback: unknown; valid: (value: unknown) => boolean }>> = {
  acceptInsecureCerts: { fallback: false, valid: (v) => typeof v === 'boolean' },
  setWindowRect: { fallback: true, valid: (v) => typeof v === 'boolean' },
  strictFileInteractability: { fallback: false, valid: (v) => typeof v === 'boolean' },
  pageLoadStrategy: { fallback: 'normal', valid: (v) => v === 'none' || v === 'eager' || v === 'normal' },
  unhandledPromptBehavior: {
    fallback: 'dismiss and notify',
    valid: (v) => typeof v === 'string' || isJsonObject(v),
  },
};

/**
 * What in one requested capability set the session's running browser (`actual`: the capabilities
 * of its WebDriver session) cannot honour; empty when it honours all of it. The browser is a
 * Chromium: `browserName` may be any Chromium name; `browserVersion` must be its version or a
 * prefix of it (`156`), `platformName` its platform (or `any`); the capabilities fixed at creation
 * must equal the session's; `timeouts` are honoured (set when the session is answered); a proxy, BiDi
 * (`webSocketUrl: true`) and names W3C does not define are not. Of the extension capabilities
 * (`vendor:name`), `goog:chromeOptions` is checked (`chromeOptionsProblems`), `goog:loggingPrefs` and
 * `se:downloadsEnabled` must ask for nothing, one the session reports must equal it, and the others
 * (`se:name`, `se:remoteUrl`, cloud vendors' options) are hints a running session has no use for.
 */
export function capabilityProblems(requested: CapabilityMap, actual: CapabilityMap): CapabilityProblem[] {
  return Object.entries(requested).flatMap(([name, value]) => problemsOf(name, value, actual));
}

function problemsOf(name: string, value: unknown, actual: CapabilityMap): CapabilityProblem[] {
  const label = `${name} ${JSON.stringify(value)}`;
  const fixed = FIXED[name];
  if (fixed) {
    if (!fixed.valid(value)) return [{ capability: label, why: 'is not a valid value', invalid: true }];
    const have = actual[name] ?? fixed.fallback;
    return isDeepStrictEqual(value, have)
      ? []
      : [{ capability: label, why: `this session has ${JSON.stringify(have)}, fixed when it was made` }];
  }
  switch (name) {
    case 'browserName':
    case 'browserVersion':
    case 'platformName': {
      if (typeof value !== 'string') return [{ capability: label, why: 'must be a string', invalid: true }];
      const why = browserMismatch(name, value, actual);
      return why ? [{ capability: label, why }] : [];
    }
    case 'timeouts':
      return readTimeouts(value) ? [] : [{ capability: label, why: 'is not a valid value', invalid: true }];
    case 'proxy':
      if (!isJsonObject(value)) return [{ capability: label, why: 'must be a JSON object', invalid: true }];
      return Object.keys(value).length === 0
        ? []
        : [
            {
              capability: label,
              why: 'a browser’s proxy is set when it starts: give the Browserdeck session its proxies when you create it',
            },
          ];
    case 'webSocketUrl':
      if (typeof value !== 'boolean') return [{ capability: label, why: 'must be a boolean', invalid: true }];
      return value
        ? [
            {
              capability: label,
              why: 'WebDriver BiDi is not served: drive DevTools over the session’s connectUrl',
            },
          ]
        : [];
  }
  if (!name.includes(':')) return [{ capability: label, why: 'is not a W3C capability' }];
  return extensionProblems(name, label, value, actual);
}

/** Why `browserName`, `browserVersion` or `platformName` does not name the session's browser; null when it does. */
function browserMismatch(name: string, value: string, actual: CapabilityMap): string | null {
  const have = typeof actual[name] === 'string' ? (actual[name] as string) : '';
  const asked = value.toLowerCase();
  if (asked === '' || asked === have.toLowerCase()) return null;
  if (name === 'browserName')
    return CHROMIUM_NAMES.has(asked) ? null : `this session’s browser is ${have || 'a Chromium'}`;
  if (name === 'browserVersion')
    return have.startsWith(`${value}.`) ? null : `this session’s browser is version ${have || 'unknown'}`;
  return asked === 'any' || have === '' ? null : `this session’s browser runs on ${have}`;
}

function extensionProblems(
  name: string,
  label: string,
  value: unknown,
  actual: CapabilityMap,
): CapabilityProblem[] {
  if (name === 'goog:chromeOptions') return chromeOptionsProblems(value);
  if (name === 'goog:loggingPrefs')
    return isJsonObject(value) && Object.keys(value).length === 0
      ? []
      : [
          {
            capability: label,
            why: 'log levels are set when a WebDriver session is made (the session’s console and network events are at its logs endpoint)',
          },
        ];
  if (name === 'se:downloadsEnabled')
    return value === true
      ? [
          {
            capability: label,
            why: 'downloads through WebDriver are not served (a local session’s downloads are at its downloads endpoint)',
          },
        ]
      : [];
  if (name.startsWith('se:')) return [];
  if (name in actual && !isDeepStrictEqual(value, actual[name]))
    return [{ capability: label, why: `this session has ${JSON.stringify(actual[name])}` }];
  return [];
}
