/// <reference path="./chromeHar.d.ts" />
import { type ChromeHarMessage, harFromMessages } from 'chrome-har';
import type { CapturedNetworkEvent, Har, HarEntry, HarPage } from './Har.ts';
import { redacted, withoutUserinfo } from './redactHar.ts';

export type { CapturedNetworkEvent, Har, HarEntry, HarPage } from './Har.ts';
export { REDACTED, SENSITIVE_HEADERS } from './redactHar.ts';

/** The CDP methods harOfCapture uses (what a capture must record), as chrome-har 1.3.1 reads them. */
export const HAR_CDP_EVENTS: readonly string[] = [
  'Page.frameStartedLoading',
  'Page.frameRequestedNavigation',
  'Page.navigatedWithinDocument',
  'Page.frameAttached',
  'Page.domContentEventFired',
  'Page.loadEventFired',
  'Network.requestWillBeSent',
  'Network.requestWillBeSentExtraInfo',
  'Network.requestServedFromCache',
  'Network.resourceChangedPriority',
  'Network.responseReceived',
  'Network.responseReceivedExtraInfo',
  'Network.dataReceived',
  'Network.loadingFinished',
  'Network.loadingFailed',
];

const PAGE_EVENTS = [
  'Page.frameStartedLoading',
  'Page.frameRequestedNavigation',
  'Page.navigatedWithinDocument',
];

/** Malformed events dropped one by one per tab; past them the tab's capture is cut at the next one. */
const MAX_MALFORMED = 20;

/**
 * Turns captured CDP events into one HAR 1.2 document. chrome-har builds each tab on its own (its
 * frame and request ids are per target), then the pages get ids unique across tabs and the entries
 * are merged by start time; both carry `_tab`. Requests that failed are kept, with `response._error`.
 * Unless `sensitive`, the values of SENSITIVE_HEADERS and of cookies are REDACTED; proxy credentials
 * and URL userinfo (`user:password@`) never appear. Malformed events are dropped, never thrown.
 */
export function harOfCapture(
  events: readonly CapturedNetworkEvent[],
  options: { sensitive: boolean; creator: { name: string; version: string } },
): Har {
  const pages: HarPage[] = [];
  const entries: HarEntry[] = [];
  for (const [tab, messages] of messagesByTab(events)) {
    const { log, failures } = harOfTab(messages);
    // chrome-har's output is HAR 1.2 with its own custom fields (the tests validate it against the schema).
    for (const page of log.pages as HarPage[]) {
      pages.push({ ...page, id: `tab_${tab}_${page.id}`, title: withoutUserinfo(page.title), _tab: tab });
    }
    for (const entry of log.entries as HarEntry[]) {
      const failure = failures.get(String(entry._requestId));
      entries.push({
        ...failedAs(entry, failure),
        ...(entry.pageref === undefined ? {} : { pageref: `tab_${tab}_${entry.pageref}` }),
        _tab: tab,
      });
    }
  }
  return {
    log: {
      version: '1.2',
      creator: { name: options.creator.name, version: options.creator.version },
      pages: byStart(pages),
      entries: byStart(entries).map((entry) => redacted(entry, options.sensitive)),
    },
  };
}

interface Failure {
  readonly error: string;
  /** Whether the request failed before any response: its response is a stand-in with status 0. */
  readonly unanswered: boolean;
}

function messagesByTab(events: readonly CapturedNetworkEvent[]): Map<number, ChromeHarMessage[]> {
  const tabs = new Map<number, ChromeHarMessage[]>();
  for (const { tab, method, params } of [...events].sort((a, b) => a.tab - b.tab)) {
    if (!HAR_CDP_EVENTS.includes(method) || typeof params !== 'object' || params === null) continue;
    const messages = tabs.get(tab) ?? [];
    tabs.set(tab, messages);
    messages.push({ method, params });
  }
  return tabs;
}

function harOfTab(captured: ChromeHarMessage[]) {
  const { messages, failures } = prepared(captured);
  let kept = messages;
  for (let dropped = 0; ; dropped++) {
    const read = { index: -1 };
    try {
      return { log: harFromMessages(watched(kept, read), CHROME_HAR_OPTIONS).log, failures };
    } catch {
      // chrome-har reads the messages in order, once: the last one it read is the one it choked on.
      if (read.index < 0) return { log: { pages: [], entries: [] }, failures };
      kept = dropped < MAX_MALFORMED ? kept.toSpliced(read.index, 1) : kept.slice(0, read.index);
    }
  }
}

/** Cached responses are requests the page made too; bodies are not in CDP events. */
const CHROME_HAR_OPTIONS = { includeResourcesFromDiskCache: true, includeTextFromResponseBody: false };

function watched(messages: readonly ChromeHarMessage[], read: { index: number }): ChromeHarMessage[] {
  return messages.map((message, index) => ({
    method: message.method,
    get params() {
      read.index = index;
      return message.params;
    },
  }));
}

/**
 * Rewrites what chrome-har 1.3.1 gets wrong. It drops a request that failed (`loadingFailed`): the
 * failure becomes a stand-in response (status 0) or, after a response, the end of loading. It adds
 * requests seen before any page again to every later page: a tab's first request without a page gets
 * one (`frameStartedLoading` of its frame) before it. It reads cookies' `expires` as milliseconds.
 */
function prepared(captured: readonly ChromeHarMessage[]) {
  const messages: ChromeHarMessage[] = [];
  const failures = new Map<string, Failure>();
  const answered = new Set<string>();
  let hasPage = false;
  for (const message of captured) {
    const params = message.params as Record<string, unknown>;
    const requestId = String(params.requestId);
    switch (message.method) {
      case 'Network.requestWillBeSent':
        if (!hasPage)
          messages.push({ method: 'Page.frameStartedLoading', params: { frameId: params.frameId } });
        hasPage = true;
        answered.delete(requestId);
        break;
      case 'Network.responseReceived':
        answered.add(requestId);
        break;
      case 'Network.requestWillBeSentExtraInfo':
        if (!Array.isArray(params.associatedCookies)) break;
        messages.push({
          method: message.method,
          params: { ...params, associatedCookies: params.associatedCookies.map(withExpiresInMs) },
        });
        continue;
      case 'Network.loadingFailed': {
        const unanswered = !answered.has(requestId);
        failures.set(requestId, { error: String(params.errorText ?? 'failed'), unanswered });
        messages.push(
          unanswered ? standInResponse(requestId) : { method: 'Network.loadingFinished', params },
        );
        continue;
      }
      default:
        if (PAGE_EVENTS.includes(message.method)) hasPage = true;
    }
    messages.push(message);
  }
  return { messages, failures };
}

function standInResponse(requestId: string): ChromeHarMessage {
  const response = {
    status: 0,
    statusText: '',
    headers: {},
    mimeType: 'x-unknown',
    protocol: '',
    connectionId: 0,
  };
  return { method: 'Network.responseReceived', params: { requestId, response } };
}

/** CDP gives a cookie's `expires` in seconds (-1 for a session cookie); chrome-har reads milliseconds. */
function withExpiresInMs(associated: unknown): unknown {
  const cookie = (associated as { cookie?: { expires?: unknown; session?: unknown } } | null)?.cookie;
  if (typeof cookie?.expires !== 'number') return associated;
  const expires = cookie.session === true || cookie.expires < 0 ? null : cookie.expires * 1000;
  return { ...(associated as object), cookie: { ...cookie, expires } };
}

function failedAs(entry: HarEntry, failure: Failure | undefined): HarEntry {
  if (!failure) return entry;
  const { connection: _standIn, ...unanswered } = entry;
  return {
    ...(failure.unanswered ? unanswered : entry),
    response: { ...entry.response, _error: failure.error },
  };
}

function byStart<T extends { startedDateTime: string }>(items: T[]): T[] {
  return items.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
}
