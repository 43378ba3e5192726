import { isAbsolute, relative, resolve } from 'node:path';
import type { CdpBrowserMessage, CdpCommand } from './cdpMessages.ts';
import { opensBrowserPage } from './opensBrowserPage.ts';

/**
 * Domains a client may use: those Playwright, Puppeteer and Selenium's CDP bridge use. Anything
 * else (`PWA`, `Tethering`, `SystemInfo`, `Cast`, `FileSystem`, unknown domains) is refused, and of
 * `Extensions` only `ALLOWED_EXTENSIONS_METHODS`.
 */
export const ALLOWED_CDP_DOMAINS: ReadonlySet<string> = new Set([
  'Accessibility',
  'Animation',
  'Audits',
  'Autofill',
  'BackgroundService',
  'Browser',
  'CSS',
  'CacheStorage',
  'Console',
  'DOM',
  'DOMDebugger',
  'DOMSnapshot',
  'DOMStorage',
  'Debugger',
  'DeviceAccess',
  'DeviceOrientation',
  'Emulation',
  'EventBreakpoints',
  'FedCm',
  'Fetch',
  'HeadlessExperimental',
  'HeapProfiler',
  'IO',
  'IndexedDB',
  'Input',
  'Inspector',
  'LayerTree',
  'Log',
  'Media',
  'Memory',
  'Network',
  'Overlay',
  'Page',
  'Performance',
  'PerformanceTimeline',
  'Preload',
  'Profiler',
  'Runtime',
  'Schema',
  'Security',
  'ServiceWorker',
  'Storage',
  'Target',
  'Tracing',
  'WebAudio',
  'WebAuthn',
]);

/**
 * The one `Extensions` command a client may send: the read-only list Stagehand 4 looks for its
 * extension in (its answer's host paths hidden: `hideExtensionPaths`). Loading, uninstalling and the
 * extensions' storage stay refused: the extensions a session runs are the ones it was created with.
 */
export const ALLOWED_EXTENSIONS_METHODS: ReadonlySet<string> = new Set(['Extensions.getExtensions']);

/** Commands of allowed domains that are refused, with the rule each breaks. */
const DENIED_METHODS: ReadonlyMap<string, string> = new Map([
  ['Browser.executeBrowserCommand', 'runs browser UI commands'],
  ['Target.exposeDevToolsProtocol', 'hands DevTools to page script'],
  ['Target.sendMessageToTarget', 'nested (non-flat) sessions are not supported; attach with flatten: true'],
  ['Target.setRemoteLocations', 'opens network connections from the browser'],
  ['Target.openDevTools', 'opens DevTools windows'],
  ['Storage.overrideQuotaForOrigin', "raises an origin's storage quota past what the browser allows"],
]);

/** Commands that open a URL: `file:` and the browser's own pages (`opensBrowserPage`) are refused. */
const URL_METHODS = new Set(['Page.navigate', 'Target.createTarget', 'Network.loadNetworkResource']);
/** Why file parameters are refused by a provider without session folders. */
const NO_FOLDERS = "this provider's browsers run on other hosts: files cannot be handed to them.";

/** Commands whose download folder is replaced by the session's own. */
const DOWNLOAD_METHODS = new Set(['Browser.setDownloadBehavior', 'Page.setDownloadBehavior']);

/**
 * The session's own folders on the browser's host, where file parameters may point. A provider
 * without them (its browsers run on other machines) passes null: file parameters are refused there,
 * and downloads denied.
 */
export interface SessionFolders {
  readonly downloadsDir: string;
  /** Where the session's uploads are put (`POST …/uploads`): file inputs may take files from it too. */
  readonly uploadsDir?: string | undefined;
}

/** How the answer to an allowed command is changed before the client sees it. */
export type AnswerRewrite = 'hideExtensionPaths';

/** The outcome of checking one client message. */
export type PolicyDecision =
  | { readonly allowed: true; readonly command: CdpCommand; readonly answer?: AnswerRewrite }
  | {
      readonly allowed: false;
      readonly id: number | null;
      readonly sessionId?: string | undefined;
      readonly code: number;
      readonly message: string;
    };

/**
 * What a client may ask of a browser through its `connectUrl`. It fails closed: a message that is
 * not strict JSON (Chrome's own parser accepts comments, Node's does not), has no numeric `id` and
 * string `method`, or names a domain or command outside the allowlist is refused with the rule it
 * broke, and the browser only ever receives the command as re-serialised here (so it sees exactly
 * what was checked). File parameters are confined to the session's folders: file inputs and
 * dropped files must lie in `downloadsDir` or `uploadsDir`, downloads always go to `downloadsDir`
 * under the names the pages give them (`allowAndName`, which names them by their guid, becomes
 * `allow`: the files are fetched by name from the session's downloads, never from the client's own
 * disk), and neither `file:` URLs nor the browser's own pages (`chrome:`, `devtools:`: `opensBrowserPage`) can be opened. Without folders (`null`: a browser on another host) file parameters are refused and a
 * download behaviour that saves files becomes `deny`: a client's download path names a folder on its
 * own machine, which the browser's host must not be made to write. Nested sessions (`Target.sendMessageToTarget`, non-flat attach) are refused, so every
 * command a page target receives passes through here.
 */
export function checkCdpCommand(raw: string, folders: SessionFolders | null): PolicyDecision {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {
      allowed: false,
      id: null,
      code: -32700,
      message: 'Browserdeck: the message is not strict JSON and was dropped.',
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return {
      allowed: false,
      id: null,
      code: -32600,
      message: 'Browserdeck: a command must be a JSON object.',
    };
  const { id, method, params, sessionId } = parsed as Record<string, unknown>;
  const idOrNull = typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  const session = typeof sessionId === 'string' ? sessionId : undefined;
  const refuse = (code: number, message: string): PolicyDecision => ({
    allowed: false,
    id: idOrNull,
    sessionId: session,
    code,
    message: `Browserdeck: ${message}`,
  });
  if (idOrNull === null) return refuse(-32600, 'a command needs an integer "id".');
  if (typeof method !== 'string') return refuse(-32600, 'a command needs a string "method".');
  if (sessionId !== undefined && session === undefined)
    return refuse(-32600, '"sessionId" must be a string.');
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return refuse(-32602, '"params" must be an object.');
  const p = (params ?? {}) as Record<string, unknown>;
  const domain = method.split('.')[0]!;
  if (ALLOWED_EXTENSIONS_METHODS.has(method))
    return {
      allowed: true,
      command: { id: idOrNull, method, params: {}, ...(session === undefined ? {} : { sessionId: session }) },
      answer: 'hideExtensionPaths',
    };
  if (!ALLOWED_CDP_DOMAINS.has(domain) || !/^[A-Za-z]+\.[A-Za-z]+$/.test(method))
    return refuse(-32601, `${method} is not allowed (the ${domain} domain is not on the allowlist).`);
  const denied = DENIED_METHODS.get(method);
  if (denied) return refuse(-32601, `${method} is not allowed (${denied}).`);
  const command = (next: Record<string, unknown> = p): PolicyDecision => ({
    allowed: true,
    command: { id: idOrNull, method, params: next, ...(session === undefined ? {} : { sessionId: session }) },
  });
  if (
    (method === 'Target.attachToTarget' || (method === 'Target.setAutoAttach' && p.autoAttach === true)) &&
    p.flatten !== true
  )
    return refuse(-32602, `${method} needs flatten: true (nested sessions are not supported).`);
  if (
    method === 'Target.createBrowserContext' &&
    (p.proxyServer !== undefined || p.proxyBypassList !== undefined)
  )
    return refuse(
      -32602,
      `${method}: proxyServer and proxyBypassList are not allowed (every request goes through the egress proxy).`,
    );
  if (URL_METHODS.has(method) && typeof p.url === 'string' && opensFile(p.url))
    return refuse(-32602, `${method} may not open file: URLs.`);
  if (URL_METHODS.has(method) && typeof p.url === 'string' && opensBrowserPage(p.url))
    return refuse(
      -32602,
      `${method} may not open the browser's own pages (chrome:, devtools:, about: other than about:blank): chrome://extensions could change what the session's extensions may do.`,
    );
  if (method === 'DOM.setFileInputFiles' || method === 'Page.handleFileChooser') {
    const files = Array.isArray(p.files) ? p.files : [];
    if (files.length > 0 && !folders) return refuse(-32602, `${method}: ${NO_FOLDERS}`);
    if (folders && !files.every((f) => inFolders(folders, f)))
      return refuse(-32602, `${method}: files must be inside the session's ${folderNames(folders)}.`);
  }
  if (method === 'Input.dispatchDragEvent') {
    const data = (p.data ?? {}) as Record<string, unknown>;
    const files = data.files === undefined ? [] : Array.isArray(data.files) ? data.files : [null];
    if (files.length > 0 && !folders) return refuse(-32602, `${method}: ${NO_FOLDERS}`);
    if (folders && !files.every((f) => inFolders(folders, f)))
      return refuse(-32602, `${method}: data.files must be inside the session's ${folderNames(folders)}.`);
  }
  if (DOWNLOAD_METHODS.has(method) && p.behavior !== 'deny' && p.behavior !== 'default') {
    if (!folders) {
      const { downloadPath: _theirs, ...rest } = p;
      return command({ ...rest, behavior: 'deny' });
    }
    const behavior = p.behavior === 'allowAndName' ? 'allow' : p.behavior;
    return command({ ...p, behavior, downloadPath: folders.downloadsDir });
  }
  return command();
}

/**
 * The CDP error answer to a refused command: its `id` (none when it had no usable one) and
 * `sessionId`, and the policy's code and message, so the client sees which rule it broke.
 */
export function refusalAnswer(decision: Extract<PolicyDecision, { allowed: false }>): CdpBrowserMessage {
  return {
    ...(decision.id === null ? {} : { id: decision.id }),
    error: { code: decision.code, message: decision.message },
    ...(decision.sessionId === undefined ? {} : { sessionId: decision.sessionId }),
  };
}

/** True for a `file:` URL, also behind `view-source:`, parsed as the browser parses it. */
function opensFile(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    // Not an absolute URL to us; refuse anything that still spells the scheme out.
    return /f\W*i\W*l\W*e\W*:/i.test(url);
  }
  if (parsed.protocol === 'view-source:') return opensFile(parsed.pathname);
  return parsed.protocol === 'file:' || parsed.protocol === 'filesystem:';
}

/** Whether `file` is a path inside one of the session's folders. */
function inFolders(folders: SessionFolders, file: unknown): boolean {
  if (typeof file !== 'string') return false;
  return isInside(folders.downloadsDir, file) || (!!folders.uploadsDir && isInside(folders.uploadsDir, file));
}

/** The folders file parameters may name, as a refusal says them. */
function folderNames(folders: SessionFolders): string {
  const downloads = `downloads folder ${folders.downloadsDir}`;
  return folders.uploadsDir ? `${downloads} or uploads folder ${folders.uploadsDir}` : downloads;
}

function isInside(dir: string, path: string): boolean {
  if (!isAbsolute(path) || path.includes('\0')) return false;
  const rel = relative(dir, resolve(dir, path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
