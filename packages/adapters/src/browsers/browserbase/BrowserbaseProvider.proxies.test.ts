// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).

import {
  browserbase,
  build,
  failure,
  ID,
  JSON_HEADERS,
  PROJECT,
  request,
  seen,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import created from '@browserdeck/testing/browserbase/fixtures/session-created.json' with { type: 'json' };
import running from '@browserdeck/testing/browserbase/fixtures/session-running.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';

useNockedBrowserbase();

describe('BrowserbaseProvider: proxies', () => {
  it('sends the proxies in Browserbase’s shape: external with credentials, its own with a geolocation, none', async () => {
    browserbase().post('/v1/sessions').reply(201, created, JSON_HEADERS);
    await build().provider.create({
      ...request,
      proxies: [
        {
          type: 'external',
          server: 'http://proxy.example:8080',
          username: 'user',
          password: 'hunter2',
          domainPattern: '\\.example\\.com$',
        },
        { type: 'external', server: 'socks5://socks-proxy.example:1080', username: undefined },
        { type: 'browserbase', geolocation: { country: 'US', state: 'NY', city: 'New York' } },
        { type: 'browserbase', domainPattern: 'shop' },
        { type: 'none', domainPattern: 'internal\\.corp$' },
      ],
    });
    expect((seen[0]!.body as { proxies: unknown }).proxies).toEqual([
      {
        type: 'external',
        server: 'http://proxy.example:8080',
        username: 'user',
        password: 'hunter2',
        domainPattern: '\\.example\\.com$',
      },
      { type: 'external', server: 'socks5://socks-proxy.example:1080' },
      { type: 'browserbase', geolocation: { country: 'US', state: 'NY', city: 'New York' } },
      { type: 'browserbase', domainPattern: 'shop' },
      { type: 'none', domainPattern: 'internal\\.corp$' },
    ]);
  });

  it('sends no proxies field without proxies', async () => {
    browserbase().post('/v1/sessions').times(2).reply(201, created, JSON_HEADERS);
    await build().provider.create({ ...request, proxies: null });
    await build().provider.create({ ...request, proxies: [] });
    expect(seen.map((s) => Object.keys(s.body as object))).toEqual([
      expect.not.arrayContaining(['proxies']),
      expect.not.arrayContaining(['proxies']),
    ]);
    expect(seen[0]?.body).toMatchObject({ projectId: PROJECT });
  });

  it('reports Browserbase’s proxyBytes on the snapshots of create, get and release', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(201, { ...created, proxyBytes: 1234 }, JSON_HEADERS)
      .get(`/v1/sessions/${ID}`)
      .reply(200, { ...running, proxyBytes: 987_654_321_012 }, JSON_HEADERS)
      .post(`/v1/sessions/${ID}`)
      .reply(200, { ...running, status: 'COMPLETED', proxyBytes: 987_654_321_999 }, JSON_HEADERS);
    const { provider } = build();
    expect((await provider.create(request)).proxyBytes).toBe(1234);
    expect((await provider.get(ID))?.proxyBytes).toBe(987_654_321_012);
    expect((await provider.release(ID))?.proxyBytes).toBe(987_654_321_999);
  });

  it('leaves proxyBytes out when Browserbase sends none, and refuses one that is not a count', async () => {
    const { proxyBytes: _, ...without } = running;
    browserbase()
      .get(`/v1/sessions/${ID}`)
      .reply(200, without, JSON_HEADERS)
      .get(`/v1/sessions/${ID}`)
      .reply(200, { ...running, proxyBytes: -5 }, JSON_HEADERS);
    const { provider } = build();
    expect(await provider.get(ID)).not.toHaveProperty('proxyBytes');
    expect((await failure(provider.get(ID))).code).toBe('provider_error');
  });
});
