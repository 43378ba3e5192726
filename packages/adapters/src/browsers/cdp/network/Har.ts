/** One CDP event as captured: the tab (page target) it came from, numbered 0,1,2… in the order tabs appeared. */
export interface CapturedNetworkEvent {
  readonly tab: number;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/). Custom fields start with `_`. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string; comment?: string };
    pages: HarPage[];
    entries: HarEntry[];
  };
}

export interface HarPage {
  /** `tab_<tab>_page_<n>`: unique across tabs. */
  id: string;
  startedDateTime: string;
  title: string;
  pageTimings: { onContentLoad?: number; onLoad?: number; comment?: string };
  _tab: number;
  [custom: `_${string}`]: unknown;
}

export interface HarNameValue {
  name: string;
  value: string;
  comment?: string;
}

export interface HarCookie extends HarNameValue {
  path?: string;
  domain?: string;
  expires?: string;
  httpOnly?: boolean;
  secure?: boolean;
}

export interface HarEntry {
  pageref?: string;
  startedDateTime: string;
  /** Milliseconds: the sum of the non-negative `timings`. */
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarCookie[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; params?: HarNameValue[]; text?: string };
    headersSize: number;
    bodySize: number;
    [custom: `_${string}`]: unknown;
  };
  response: {
    /** 0 for a request that failed before any response (`_error` says why). */
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarCookie[];
    headers: HarNameValue[];
    content: { size: number; compression?: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    /** The `errorText` of `Network.loadingFailed` (as in Chrome DevTools' HAR), e.g. `net::ERR_NAME_NOT_RESOLVED`. */
    _error?: string;
    [custom: `_${string}`]: unknown;
  };
  cache: { beforeRequest?: object | null; afterRequest?: object | null; comment?: string };
  timings: {
    blocked?: number;
    dns?: number;
    connect?: number;
    send: number;
    wait: number;
    receive: number;
    ssl?: number;
    comment?: string;
  };
  serverIPAddress?: string;
  connection?: string;
  _tab: number;
  [custom: `_${string}`]: unknown;
}
