import type { CapabilityProblem } from './CapabilityProblem.ts';
import { isJsonObject } from './requestedCapabilities.ts';

/**
 * Browser arguments a session's running browser already honours, or that change nothing a page or
 * a command can tell: headless (it is), sandbox and GPU switches (boilerplate for containers; the
 * browser keeps its own isolation), first-run prompts, and DevTools origins (the browser has no
 * DevTools port to open). Compared without their leading `--`, as chromedriver adds it.
 */
const INERT_ARGS: readonly RegExp[] = [
  /^headless(=(new|old|true|chrome))?$/,
  /^no-sandbox$/,
  /^disable-gpu$/,
  /^disable-dev-shm-usage$/,
  /^no-first-run$/,
  /^no-default-browser-check$/,
  /^remote-allow-origins=.*$/,
];

/** chromedriver options that only steer how chromedriver itself starts or leaves a browser. */
const DRIVER_ONLY = new Set(['detach', 'useAutomationExtension']);

/** chromedriver options that set up a browser as it starts: accepted only when they ask for nothing. */
const LAUNCH_OPTIONS = new Set([
  'excludeSwitches',
  'prefs',
  'localState',
  'mobileEmulation',
  'perfLoggingPrefs',
  'windowTypes',
  'minidumpPath',
  'androidPackage',
  'androidActivity',
  'androidDeviceSerial',
  'androidProcess',
  'androidUseRunningApp',
  'androidExecName',
  'androidDeviceSocket',
  'androidKeepAppDataDir',
]);

const STARTED =
  'takes effect only when a browser starts, and this session’s browser is running (set what the session needs — viewport, proxies, extension — when you create the Browserdeck session)';

/**
 * What in a request's `goog:chromeOptions` the session's running browser cannot honour: an argument
 * outside `INERT_ARGS`, extensions, a binary, a debugger address (another browser), launch-time
 * options that ask for something, the legacy protocol (`w3c: false`) and options chromedriver does
 * not know. Empty lists and objects, `w3c: true`, `detach` and `useAutomationExtension` are
 * accepted: Java's and Python's `ChromeOptions` always send `args: []` and `extensions: []`.
 */
export function chromeOptionsProblems(options: unknown): CapabilityProblem[] {
  const name = 'goog:chromeOptions';
  if (!isJsonObject(options)) return [{ capability: name, why: 'must be a JSON object', invalid: true }];
  const problems: CapabilityProblem[] = [];
  for (const [key, value] of Object.entries(options)) {
    const capability = `${name}.${key}`;
    if (value === null || DRIVER_ONLY.has(key)) continue;
    if (key === 'args') {
      if (!Array.isArray(value) || !value.every((arg) => typeof arg === 'string'))
        problems.push({ capability, why: 'must be a list of strings', invalid: true });
      else
        for (const arg of value as string[])
          if (!INERT_ARGS.some((inert) => inert.test(arg.replace(/^--/, ''))))
            problems.push({ capability: `${capability} ${JSON.stringify(arg)}`, why: STARTED });
    } else if (key === 'extensions') {
      if (!Array.isArray(value)) problems.push({ capability, why: 'must be a list', invalid: true });
      else if (value.length > 0)
        problems.push({
          capability,
          why: 'an extension loads when a browser starts: create the Browserdeck session with its extensionId',
        });
    } else if (key === 'binary') {
      if (value !== '')
        problems.push({ capability, why: `${JSON.stringify(value)} would be another browser` });
    } else if (key === 'debuggerAddress') {
      problems.push({ capability, why: 'this endpoint serves the session’s own browser, not another one' });
    } else if (key === 'w3c') {
      if (value !== true) problems.push({ capability, why: 'only the W3C protocol is served' });
    } else if (LAUNCH_OPTIONS.has(key)) {
      if (!isEmpty(value)) problems.push({ capability, why: STARTED });
    } else problems.push({ capability, why: 'is not a chromedriver option' });
  }
  return problems;
}

/** An empty list, object or string, or false: an option that asks for nothing. */
function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (isJsonObject(value)) return Object.keys(value).length === 0;
  return value === '' || value === false;
}
