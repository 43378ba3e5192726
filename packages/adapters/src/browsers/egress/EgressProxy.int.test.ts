import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EgressPolicy, type EgressPolicyOptions } from './EgressPolicy.ts';
import { EgressProxy, type EgressRefusal } from './EgressProxy.ts';

// Only loopback traffic here: targets listen on 127.0.0.1 (and ::1 when the host has it). Refusals
// of other ranges are EgressPolicy's unit tests, without network.

interface Target {
  port: number;
  connections: number;
  hosts: string[];
  server: http.Server;
}

async function startTarget(host: string): Promise<Target | null> {
  const target: Target = { port: 0, connections: 0, hosts: [], server: http.createServer() };
  target.server.on('connection', () => target.connections++);
  target.server.on('request', (req, res) => {
    target.hosts.push(req.headers.host ?? '');
    res.end('hello from the target');
  });
  try {
    await new Promise<void>((resolve, reject) => {
      target.server.once('error', reject);
      target.server.listen(0, host, resolve);
    });
  } catch {
    return null;
  }
  target.port = (target.server.address() as AddressInfo).port;
  return target;
}

/** A refusal the tests expect; `asked` is the host sent when the proxy reports it differently. */
interface Case {
  asked?: string;
  host: string;
  port: number;
  address: string;
  reason: string;
}

type Answer = { status: number; body: string; headers?: http.IncomingHttpHeaders } | 'closed';

/** A plain-HTTP request through the proxy (absolute-form target, as a browser sends it). */
function viaHttp(proxy: EgressProxy, url: string, withHeaders = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: new URL(proxy.url).port, path: url, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, ...(withHeaders ? { headers: res.headers } : {}) }),
        );
      },
    );
    req.setHeader('host', new URL(url).host);
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve('closed') : reject(error),
    );
    req.end();
  });
}

/** A CONNECT through the proxy; when it is established, a GET / over the tunnel. */
function viaConnect(proxy: EgressProxy, authority: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: new URL(proxy.url).port,
      method: 'CONNECT',
      path: authority,
      agent: false,
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, body: '' });
        return;
      }
      let raw = '';
      socket.setEncoding('utf8').on('data', (chunk) => (raw += chunk));
      socket.on('end', () => resolve({ status: 200, body: raw.slice(raw.indexOf('\r\n\r\n') + 4) }));
      socket.write(`GET / HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve('closed') : reject(error),
    );
    req.end();
  });
}

describe('EgressProxy', () => {
  let target: Target;
  let target6: Target | null;
  let proxy: EgressProxy | null = null;
  const refusals: EgressRefusal[] = [];
  const lookups: string[] = [];

  /** DNS for the tests: `*.test` names answer 127.0.0.1 (a rebinding name), others do not exist. */
  const lookup = async (hostname: string) => {
    lookups.push(hostname);
    if (hostname.endsWith('.test')) return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };

  const start = async (options: EgressPolicyOptions = {}) => {
    proxy = await EgressProxy.start({
      policy: new EgressPolicy(options),
      lookup,
      onRefused: (refusal) => refusals.push(refusal),
    });
    return proxy;
  };

  beforeAll(async () => {
    target = (await startTarget('127.0.0.1'))!;
    target6 = await startTarget('::1');
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = null;
    refusals.length = 0;
    lookups.length = 0;
    target.connections = 0;
    target.hosts.length = 0;
    if (target6) target6.connections = 0;
  });

  afterAll(async () => {
    for (const t of [target, target6]) {
      t?.server.closeAllConnections();
      await new Promise((resolve) => t?.server.close(resolve) ?? resolve(null));
    }
  });

  /** Loopback targets by every spelling: `asked` is what is sent, `host` what the refusal reports. */
  const loopbackCases = (): Case[] => {
    const port = target.port;
    const loopback4 = { port, address: '127.0.0.1', reason: 'loopback (127.0.0.0/8)' };
    return [
      { host: '127.0.0.1', ...loopback4 },
      { host: 'localhost', ...loopback4 },
      { host: '[::1]', port: target6?.port ?? port, address: '::1', reason: 'loopback (::1/128)' },
      { asked: '[::ffff:127.0.0.1]', host: '[::ffff:7f00:1]', ...loopback4, address: '::ffff:7f00:1' },
      { host: 'rebind.test', ...loopback4 },
      { host: '0.0.0.0', port, address: '0.0.0.0', reason: 'this network (0.0.0.0/8)' },
    ];
  };
  const reported = (cases: readonly Case[]) =>
    cases.map(({ asked: _, ...refusal }) => ({ ...refusal, timestamp: expect.any(Number) }));

  it('answers a refused plain-HTTP request with a 403 page naming the rule; the target sees no connection', async () => {
    const egress = await start();
    const cases = loopbackCases();
    for (const { asked, host, port, reason } of cases) {
      const url = `http://${asked ?? host}:${port}/`;
      const answer = await viaHttp(egress, url, true);
      expect([url, answer]).toEqual([
        url,
        {
          status: 403,
          body: expect.stringContaining(
            `Browserdeck egress policy refused ${url}: ${reason}. See EGRESS_ALLOW.`,
          ),
          headers: expect.objectContaining({
            'content-type': 'text/html; charset=utf-8',
            'x-content-type-options': 'nosniff',
          }),
        },
      ]);
    }
    expect(refusals).toEqual(reported(cases));
    expect(lookups).toEqual(['rebind.test']);
    expect(target.connections).toBe(0);
    expect(target6?.connections ?? 0).toBe(0);
  });

  it('answers a refused CONNECT with 403, also for IPv4 shorthands and *.localhost', async () => {
    const egress = await start();
    const loopback4 = { port: target.port, address: '127.0.0.1', reason: 'loopback (127.0.0.0/8)' };
    const cases: Case[] = [
      ...loopbackCases(),
      { host: '127.1', ...loopback4 },
      { host: '2130706433', ...loopback4 },
      { host: '0x7f.0.0.1', ...loopback4 },
      { host: 'LOCALHOST.', ...loopback4 },
      { host: 'app.localhost', ...loopback4 },
    ];
    for (const { asked, host, port } of cases) {
      const authority = `${asked ?? host}:${port}`;
      expect([authority, await viaConnect(egress, authority)]).toEqual([
        authority,
        { status: 403, body: '' },
      ]);
    }
    expect(refusals).toEqual(reported(cases));
    expect(lookups).toEqual(['rebind.test']);
    expect(target.connections).toBe(0);
    expect(target6?.connections ?? 0).toBe(0);
  });

  it('serves the page when 127.0.0.1/32 is allowed, over plain HTTP and CONNECT', async () => {
    const egress = await start({ allow: ['127.0.0.1/32'] });
    const served = { status: 200, body: 'hello from the target' };
    for (const host of ['127.0.0.1', 'localhost', 'rebind.test']) {
      expect([host, await viaHttp(egress, `http://${host}:${target.port}/`)]).toEqual([host, served]);
      expect([host, await viaConnect(egress, `${host}:${target.port}`)]).toEqual([host, served]);
    }
    expect(target.hosts).toContain(`rebind.test:${target.port}`);
    expect(refusals).toEqual([]);
    // ::1 is not in the allowed range.
    expect(await viaConnect(egress, `[::1]:${target6?.port ?? target.port}`)).toEqual({
      status: 403,
      body: '',
    });
    expect(refusals).toEqual([expect.objectContaining({ host: '[::1]', reason: 'loopback (::1/128)' })]);
    expect(target6?.connections ?? 0).toBe(0);
  });

  it('applies host-name entries: an allowed name reaches what it resolves to, a denied one is not resolved', async () => {
    const allowing = await start({ allow: ['app.test'] });
    expect(await viaConnect(allowing, `app.test:${target.port}`)).toMatchObject({ status: 200 });
    expect(await viaConnect(allowing, `other.test:${target.port}`)).toEqual({ status: 403, body: '' });
    await allowing.close();
    const connections = target.connections;
    lookups.length = 0;
    refusals.length = 0;

    const denying = await start({ allowPrivate: true, deny: ['*.test'] });
    expect(await viaHttp(denying, `http://app.test:${target.port}/`)).toMatchObject({
      status: 403,
      body: expect.stringContaining('listed in EGRESS_DENY (*.test). See EGRESS_DENY.'),
    });
    expect(await viaConnect(denying, `app.test:${target.port}`)).toEqual({ status: 403, body: '' });
    expect(lookups).toEqual([]);
    expect(refusals).toEqual([
      expect.objectContaining({ host: 'app.test', reason: 'listed in EGRESS_DENY (*.test)' }),
      expect.objectContaining({ host: 'app.test', reason: 'listed in EGRESS_DENY (*.test)' }),
    ]);
    expect(target.connections).toBe(connections);
  });

  it('fails an unresolvable name with a 502, without reporting a refusal', async () => {
    const egress = await start();
    expect(await viaConnect(egress, `missing.invalid:${target.port}`)).toEqual({ status: 502, body: '' });
    expect(await viaHttp(egress, `http://missing.invalid:${target.port}/`)).toMatchObject({
      status: 502,
      body: expect.stringContaining('could not resolve the host of http://missing.invalid'),
    });
    expect(refusals).toEqual([]);
  });

  it('opens only the port of a port-scoped EGRESS_ALLOW entry, and says so for another port', async () => {
    const egress = await start({ allow: [`127.0.0.1:${target.port}`] });
    const served = { status: 200, body: 'hello from the target' };
    expect(await viaHttp(egress, `http://127.0.0.1:${target.port}/`)).toEqual(served);
    expect(await viaConnect(egress, `localhost:${target.port}`)).toEqual(served);
    const other = target.port === 65_535 ? target.port - 1 : target.port + 1;
    expect(await viaHttp(egress, `http://127.0.0.1:${other}/`)).toMatchObject({
      status: 403,
      body: expect.stringContaining(
        `loopback (127.0.0.0/8); EGRESS_ALLOW has 127.0.0.1:${target.port}, not port ${other}`,
      ),
    });
    expect(await viaConnect(egress, `127.0.0.1:${other}`)).toEqual({ status: 403, body: '' });
    expect(refusals.map((r) => r.port)).toEqual([other, other]);
  });

  it('reports to the listener set last', async () => {
    const egress = await start();
    const later: EgressRefusal[] = [];
    egress.setRefusalListener((refusal) => later.push(refusal));
    await viaConnect(egress, `127.0.0.1:${target.port}`);
    expect(refusals).toEqual([]);
    expect(later).toEqual([expect.objectContaining({ host: '127.0.0.1', reason: 'loopback (127.0.0.0/8)' })]);
  });

  it('close() cuts open tunnels and stops listening', async () => {
    const egress = await start({ allow: ['127.0.0.1'] });
    const tunnel = await new Promise<import('node:net').Socket>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port: new URL(egress.url).port,
        method: 'CONNECT',
        path: `127.0.0.1:${target.port}`,
        agent: false,
      });
      req.on('connect', (_res, socket) => resolve(socket));
      req.on('error', reject);
      req.end();
    });
    const closed = new Promise((resolve) => tunnel.on('close', resolve));
    tunnel.on('error', () => {});
    await egress.close();
    await closed;
    await expect(viaHttp(egress, `http://127.0.0.1:${target.port}/`)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});
