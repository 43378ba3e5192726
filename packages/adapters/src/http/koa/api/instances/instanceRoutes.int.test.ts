import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '@browserdeck/domain';
import {
  browserRequest,
  FakeBrowserProvider,
  InMemoryIdentityProvider,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { assertProblem, inMemoryStorage } from '@browserdeck/testing/adapters';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browserdeck } from '../../../../composition/Browserdeck.ts';
import { createBrowserdeck } from '../../../../composition/createBrowserdeck.ts';
import { INSTANCE_AUTH_HEADER, InstanceAuth } from '../../../../instances/InstanceAuth.ts';
import { InstanceClient } from '../../../../instances/InstanceClient.ts';
import type { InstanceRecord, InstanceRegistry } from '../../../../instances/InstanceRegistry.ts';
import { INSTANCE_CALLS } from '../../../../instances/instanceCalls.ts';
import { parseSecretKey } from '../../../../persistence/secrets/parseSecretKey.ts';
import { SecretBox } from '../../../../persistence/secrets/SecretBox.ts';

const SECRET = 'a passphrase the instances of this test share';

/** The instances of one deployment, in memory: only what these calls read (holders are none). */
class InMemoryInstances implements InstanceRegistry {
  readonly records = new Map<string, InstanceRecord>();
  async register(record: InstanceRecord) {
    this.records.set(record.id, record);
  }
  async heartbeat(id: string, bootId: string, now: Date) {
    const record = this.records.get(id);
    if (record?.bootId !== bootId) return false;
    this.records.set(id, { ...record, seenAt: now });
    return true;
  }
  async find(id: string) {
    return this.records.get(id) ?? null;
  }
  async listSilentSince() {
    return [];
  }
  async remove(id: string, bootId: string) {
    if (this.records.get(id)?.bootId === bootId) this.records.delete(id);
  }
  async holderOf() {
    return undefined;
  }
}

/**
 * SPEC §15: the calls between instances are routes of the one table under the `instance` auth kind.
 * A call is signed over its method, path and body, with a nonce taken once, from a registered and
 * live instance; a captured header is good for one call only, and for no other body.
 */
describe('the calls between instances', () => {
  const registry = new InMemoryInstances();
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-instance-routes-'));
  const auth = (id: string) =>
    new InstanceAuth({
      signer: new SecretBox(parseSecretKey(SECRET).key).signer('instances'),
      instanceId: id,
    });
  let server: Server;
  let browserdeck: Browserdeck;
  let url: string;
  const provider = new FakeBrowserProvider({ clock: new SystemClock(), instanceId: 'b' });

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const clock = new SystemClock();
    const ids = new SequentialIdGenerator();
    browserdeck = await createBrowserdeck({
      database: { storage: { ...inMemoryStorage(clock), instances: registry } },
      identity: { provider: new InMemoryIdentityProvider({ ids, clock }) },
      browsers: { provider },
      secretKey: SECRET,
      dataDir,
      instance: { id: 'b', url },
      http: { validateResponses: true },
      logger: pino({ level: 'silent' }),
      clock,
      ids,
    });
    server.on('request', browserdeck.http.app.callback());
    await browserdeck.start();
    const now = new Date();
    await registry.register({
      id: 'a',
      url: 'http://127.0.0.1:1',
      bootId: 'boot-a',
      startedAt: now,
      seenAt: now,
    });
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await browserdeck.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a live instance’s signed calls, each answer parsed with its schema', async () => {
    const client = new InstanceClient({ auth: auth('a') });
    const peer = { id: 'b', url };
    expect(await client.ping(peer)).toMatchObject({ id: 'b' });
    const created = await provider.create(browserRequest());
    const params = { provider_session_id: created.providerSessionId };
    const got = await client.json(peer, INSTANCE_CALLS.get, { params, query: {} });
    expect(got.snapshot).toMatchObject({ providerSessionId: created.providerSessionId, status: 'RUNNING' });
    const unknown = { provider_session_id: 'no-such-session' };
    expect(await client.json(peer, INSTANCE_CALLS.get, { params: unknown, query: {} })).toEqual({
      snapshot: null,
    });
    async function* file() {
      yield Buffer.from('sent from a');
    }
    const input = { params, query: { name: 'note.txt' } };
    const stored = await client.upload(peer, INSTANCE_CALLS.upload, input, file());
    expect(stored.file).toMatchObject({ name: 'note.txt', size: 11 });
    expect(Buffer.from(provider.uploads.get(created.providerSessionId)?.[0]?.bytes ?? []).toString()).toBe(
      'sent from a',
    );
  });

  it('refuses a captured header the second time, and a call from an instance that is not registered', async () => {
    const path = '/internal/v1/instance';
    const header = auth('a').sign({ method: 'GET', path, target: 'b', body: 'empty' });
    const first = await fetch(`${url}${path}`, { headers: { [INSTANCE_AUTH_HEADER]: header } });
    expect(first.status).toBe(200);
    await assertProblem(
      await fetch(`${url}${path}`, { headers: { [INSTANCE_AUTH_HEADER]: header } }),
      401,
      'unauthorized',
    );
    const stranger = auth('c').sign({ method: 'GET', path, target: 'b', body: 'empty' });
    await assertProblem(
      await fetch(`${url}${path}`, { headers: { [INSTANCE_AUTH_HEADER]: stranger } }),
      401,
      'unauthorized',
    );
    await assertProblem(await fetch(`${url}${path}`), 401, 'unauthorized');
  });

  it('keeps nothing of an upload whose body is not the one signed, nor of one with a body it did not sign', async () => {
    const created = await provider.create(browserRequest({ sessionId: 'session-2' }));
    const path = `/internal/v1/provider-sessions/${created.providerSessionId}/upload?name=x.txt`;
    const a = auth('a');
    const header = a.sign({ method: 'POST', path, target: 'b', body: 'stream' });
    // Another caller's bytes under a captured header: the closing tag does not prove them.
    const forged = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { [INSTANCE_AUTH_HEADER]: header, 'content-type': 'application/octet-stream' },
      body: `not what was signed${'0'.repeat(64)}`,
    });
    await assertProblem(forged, 401, 'unauthorized');
    // A header signed for no body, with a body.
    const empty = a.sign({ method: 'POST', path, target: 'b', body: 'empty' });
    const withBody = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { [INSTANCE_AUTH_HEADER]: empty, 'content-type': 'application/octet-stream' },
      body: 'unsigned bytes',
    });
    await assertProblem(withBody, 401, 'unauthorized');
    expect(provider.uploads.get(created.providerSessionId)).toBeUndefined();
  });
});
