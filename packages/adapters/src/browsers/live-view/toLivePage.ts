import type { LivePage } from './LiveViewHub.ts';

/** A target as `Target.getTargets` and the discovery events describe it. */
export interface TargetInfo {
  targetId?: unknown;
  type?: unknown;
  url?: unknown;
  title?: unknown;
}

/** The tab a page target is; null for any other target or a malformed one. */
export function toLivePage(info: TargetInfo | undefined): LivePage | null {
  if (typeof info?.targetId !== 'string' || info.type !== 'page') return null;
  return {
    id: info.targetId,
    url: typeof info.url === 'string' ? info.url : '',
    title: typeof info.title === 'string' ? info.title : '',
    faviconUrl: '',
  };
}
