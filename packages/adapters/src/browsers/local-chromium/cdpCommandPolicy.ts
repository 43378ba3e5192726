import { isAbsolute, join, relative, resolve } from 'node:path';

/** Domains a client may not use at all: they reach the host (extensions, web apps) or escape CDP. */
const DENIED_DOMAINS = ['Extensions.', 'PWA.'];
/** Single commands a client may not send. */
const DENIED_METHODS = new Set(['Target.exposeDevToolsProtocol', 'Browser.executeBrowserCommand']);
const DOWNLOAD_METHODS = new Set(['Browser.setDownloadBehavior', 'Page.setDownloadBehavior']);
const NAVIGATING_METHODS = new Set(['Page.navigate', 'Target.createTarget']);

interface CdpCommand {
  id?: unknown;
  method?: unknown;
  params?: Record<string, unknown>;
  sessionId?: unknown;
}

/**
 * What a client may ask of a browser on the service's host through its `connectUrl`. The browser
 * runs as the service's user, so commands that touch the host's files are contained:
 * downloads always go to `downloadsDir` (the path a client names is replaced), file inputs may
 * only use files from there, `file:` URLs cannot be opened, and the domains and commands above are
 * refused. A refused command is renamed, so the browser itself answers it with a "method not
 * found" error naming it. Returns the message to forward.
 */
export function applyCdpCommandPolicy(message: Buffer, downloadsDir: string): Buffer {
  let command: CdpCommand;
  try {
    command = JSON.parse(message.toString('utf8')) as CdpCommand;
  } catch {
    return message; // The browser answers a malformed message itself.
  }
  if (typeof command !== 'object' || command === null || typeof command.method !== 'string') return message;
  const method = command.method;
  const params = command.params ?? {};
  if (DENIED_METHODS.has(method) || DENIED_DOMAINS.some((d) => method.startsWith(d))) return refuse(command);
  if (NAVIGATING_METHODS.has(method) && typeof params.url === 'string' && opensFile(params.url))
    return refuse(command);
  if (method === 'DOM.setFileInputFiles') {
    const files = Array.isArray(params.files) ? params.files : [];
    const inside = files.every((f) => typeof f === 'string' && isInside(downloadsDir, f));
    return inside ? message : refuse(command);
  }
  if (DOWNLOAD_METHODS.has(method) && params.behavior !== 'deny' && params.behavior !== 'default') {
    return Buffer.from(JSON.stringify({ ...command, params: { ...params, downloadPath: downloadsDir } }));
  }
  return message;
}

/** True for a `file:` URL, also behind `view-source:`, parsed as the browser parses it. */
function opensFile(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not an absolute URL to us; refuse anything that still spells the scheme out.
    return /f\W*i\W*l\W*e\W*:/i.test(url);
  }
  if (parsed.protocol === 'view-source:') return opensFile(parsed.pathname);
  return parsed.protocol === 'file:';
}

function refuse(command: CdpCommand): Buffer {
  const { id, sessionId } = command;
  const renamed = `Browserdeck.notAllowed:${String(command.method)}`;
  return Buffer.from(
    JSON.stringify(sessionId === undefined ? { id, method: renamed } : { id, method: renamed, sessionId }),
  );
}

function isInside(dir: string, path: string): boolean {
  const rel = relative(dir, resolve(dir, path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Where a browser's downloads go: inside its profile, so they go with a temporary profile. */
export function downloadsDirOf(profileDir: string): string {
  return join(profileDir, 'Downloads');
}
