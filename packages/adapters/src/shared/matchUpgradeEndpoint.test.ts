import { describe, expect, it } from 'vitest';
import { matchUpgradeEndpoint } from './matchUpgradeEndpoint.ts';

const id = '0190b2c4-7a1e-7c3d-9a2b-112233445566';
const connect = { path: '/v1/local/sessions/{provider_session_id}/connect' };
const live = { path: '/v1/live/{session_id}/ws' };
const endpoints = [live, connect];

describe('matchUpgradeEndpoint', () => {
  it('matches with or without the mount prefix, with the decoded parameters and the query', () => {
    const prefixed = matchUpgradeEndpoint(
      endpoints,
      `/api/v1/local/sessions/${id}/connect?signingKey=abc`,
      '/api',
    );
    expect(prefixed?.endpoint).toBe(connect);
    expect(prefixed?.params).toEqual({ provider_session_id: id });
    expect(prefixed?.query.get('signingKey')).toBe('abc');
    const bare = matchUpgradeEndpoint(endpoints, `/v1/live/${id}/ws?token=t&page=P`, '/api');
    expect(bare?.endpoint).toBe(live);
    expect(bare?.params).toEqual({ session_id: id });
    expect(bare?.query.getAll('page')).toEqual(['P']);
    expect(matchUpgradeEndpoint(endpoints, '/v1/live/a%20b/ws', '')?.params).toEqual({ session_id: 'a b' });
  });

  it('matches nothing else', () => {
    for (const url of [
      `/other/v1/local/sessions/${id}/connect`,
      `/api/api/v1/local/sessions/${id}/connect`,
      `/v1/local/sessions/${id}/connect/extra`,
      '/v1/local/sessions//connect',
      '/v1/local/sessions/a:b/connect',
      '/v1/live/%E0%A4%A/ws',
      '/v1/browserbase/sessions/x/connect',
      '/healthz',
      undefined,
    ])
      expect(matchUpgradeEndpoint(endpoints, url, '/api'), String(url)).toBeNull();
  });
});
