// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).

import {
  browserbase,
  build,
  failure,
  ID,
  JSON_HEADERS,
  request,
  seen,
  socketError,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import released from '@browserdeck/testing/browserbase/fixtures/session-released.json' with { type: 'json' };
import running from '@browserdeck/testing/browserbase/fixtures/session-running.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import type { DatabaseDialect } from '../../persistence/mikro-orm/BrowserdeckOrm.ts';
import { createMikroOrm } from '../../persistence/mikro-orm/createMikroOrm.ts';
import { MikroOrmOrphanSearches } from '../../persistence/mikro-orm/MikroOrmOrphanSearches.ts';

useNockedBrowserbase();

const query = { q: `user_metadata['browserdeckSessionId']:'${request.sessionId}'` };
const DELAYS = [0, 10_000, 60_000];

describe.each<DatabaseDialect>(['sqlite', 'postgresql'])(
  'BrowserbaseProvider: the orphan search survives a restart (%s)',
  (dialect) => {
    let test: TestOrm;

    beforeAll(async () => {
      test = await openTestOrm(dialect);
    });
    afterAll(() => test?.close());

    it('a search one process recorded is carried out by the next one on the same database', async () => {
      browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
      browserbase().get('/v1/sessions').query(query).reply(200, [], JSON_HEADERS);
      browserbase().get('/v1/sessions').query(query).reply(200, [running], JSON_HEADERS);
      browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);

      // The first process: the create fails, its first look finds nothing yet, then it stops.
      const first = await createMikroOrm({ databaseUrl: test.database.url });
      try {
        const before = build({
          orphanSweepDelaysMs: DELAYS,
          orphanSearches: new MikroOrmOrphanSearches({ orm: first }),
        });
        expect((await failure(before.provider.create(request))).code).toBe('provider_unavailable');
        expect(await before.provider.sweepOrphans()).toBe(1);
        expect(before.logger.warn).not.toHaveBeenCalled();
      } finally {
        await first.close(true);
      }

      // The next process, on the same database: the second look is due 10 s after the failure.
      const second = await createMikroOrm({ databaseUrl: test.database.url });
      try {
        const after = build({
          orphanSweepDelaysMs: DELAYS,
          orphanSearches: new MikroOrmOrphanSearches({ orm: second }),
        });
        expect(await after.provider.sweepOrphans()).toBe(0);
        after.clock.advance(10_000);
        expect(await after.provider.sweepOrphans()).toBe(1);
        expect(after.logger.warn).toHaveBeenCalledWith(
          { sessionId: request.sessionId, providerSessionId: ID },
          'released a Browserbase browser left by a failed create',
        );
        expect(seen.at(-1)?.body).toEqual({ projectId: running.projectId, status: 'REQUEST_RELEASE' });
        // Found: nothing is left to look for, even at the last delay.
        after.clock.advance(60_000);
        expect(await after.provider.sweepOrphans()).toBe(0);
      } finally {
        await second.close(true);
      }
    });
  },
);
