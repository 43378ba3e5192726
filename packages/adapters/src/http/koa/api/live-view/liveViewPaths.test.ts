import { describe, expect, it } from 'vitest';
import { liveViewPageUrl, parseLiveViewSocketRequest } from './liveViewPaths.ts';

const ID = '0190b000-0000-7000-8000-0000000000a1';

describe('liveViewPageUrl', () => {
  it('puts the page under the public URL’s path, with the token first', () => {
    expect(liveViewPageUrl('http://127.0.0.1:3000', ID, 'a.b')).toBe(
      `http://127.0.0.1:3000/v1/live/${ID}?token=a.b`,
    );
    expect(liveViewPageUrl('https://app.example.com/browserdeck/', ID, 'a_b-c.d')).toBe(
      `https://app.example.com/browserdeck/v1/live/${ID}?token=a_b-c.d`,
    );
  });
});

describe('parseLiveViewSocketRequest', () => {
  it('reads the session id and query, with or without the mount prefix', () => {
    for (const path of [`/v1/live/${ID}/ws`, `/browserdeck/v1/live/${ID}/ws`]) {
      const parsed = parseLiveViewSocketRequest(`${path}?token=t&page=P&readOnly=true`, '/browserdeck');
      expect(parsed?.sessionId).toBe(ID);
      expect(Object.fromEntries(parsed?.query ?? [])).toEqual({ token: 't', page: 'P', readOnly: 'true' });
    }
    expect(parseLiveViewSocketRequest(`/v1/live/${ID.toUpperCase()}/ws`, '')?.sessionId).toBe(ID);
  });

  it('is null for anything else', () => {
    for (const url of [
      undefined,
      '',
      `/other/v1/live/${ID}/ws`,
      `/v1/live/${ID}`,
      `/v1/live/${ID}/ws/x`,
      '/v1/live/not-a-session-id-at-all-000000000000/ws',
      `/v1/local/sessions/${ID}/connect`,
    ]) {
      expect(parseLiveViewSocketRequest(url, '/browserdeck'), String(url)).toBeNull();
    }
  });
});
