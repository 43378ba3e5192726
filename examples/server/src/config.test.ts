import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives the http-api.md §9 defaults for an empty environment', () => {
    const cfg = loadConfig({});
    expect(cfg).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      dataDir: resolve('./data'),
      databaseUrl: `sqlite:${resolve('./data/browserdeck.sqlite')}`,
      IDENTITY_PROVIDER: 'local',
      BROWSER_PROVIDER: 'local',
      LOCAL_WARM_BROWSERS: 1,
      ACCESS_TOKEN_TTL_SEC: 900,
      REFRESH_TOKEN_TTL_SEC: 2_592_000,
      RECONCILE_INTERVAL_SEC: 15,
      PROXY_BYTES_FLUSH_SEC: 5,
      LOG_LEVEL: 'info',
      CORS_ORIGINS: [],
      authRateLimits: {
        perAddress: { limit: 60, windowSec: 60 },
        signInPerEmail: { limit: 10, windowSec: 60 },
        signUpPerEmail: { limit: 10, windowSec: 60 },
      },
    });
    // Unset: sized to the host's cores and memory by the local provider.
    expect(cfg.LOCAL_MAX_SESSIONS).toBeUndefined();
    expect(loadConfig({ LOCAL_MAX_SESSIONS: '12' }).LOCAL_MAX_SESSIONS).toBe(12);
  });

  it('reads the auth rate limits (attempts a minute) and refuses a bad one, naming it', () => {
    const cfg = loadConfig({
      AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
      AUTH_RATE_LIMIT_SIGNIN_PER_EMAIL: '500',
      AUTH_RATE_LIMIT_SIGNUP_PER_EMAIL: '7',
    });
    expect(cfg.authRateLimits).toEqual({
      perAddress: { limit: 100_000, windowSec: 60 },
      signInPerEmail: { limit: 500, windowSec: 60 },
      signUpPerEmail: { limit: 7, windowSec: 60 },
    });
    for (const bad of ['0', '-1', 'lots', '2.5', '1000001']) {
      expect(() => loadConfig({ AUTH_RATE_LIMIT_SIGNIN_PER_EMAIL: bad })).toThrow(
        /AUTH_RATE_LIMIT_SIGNIN_PER_EMAIL/,
      );
    }
    expect(() => loadConfig({ AUTH_RATE_LIMIT_PER_ADDRESS: '0' })).toThrow(/AUTH_RATE_LIMIT_PER_ADDRESS/);
    expect(() => loadConfig({ AUTH_RATE_LIMIT_SIGNUP_PER_EMAIL: 'x' })).toThrow(
      /AUTH_RATE_LIMIT_SIGNUP_PER_EMAIL/,
    );
  });

  it('reads the per-account fair share, the old per-project name too, and refuses one above LOCAL_MAX_SESSIONS', () => {
    expect(loadConfig({}).localMaxSessionsPerOwner).toBeUndefined();
    expect(loadConfig({ LOCAL_MAX_SESSIONS_PER_OWNER: '3' }).localMaxSessionsPerOwner).toBe(3);
    expect(loadConfig({ LOCAL_MAX_SESSIONS_PER_PROJECT: '1' }).localMaxSessionsPerOwner).toBe(1);
    expect(
      loadConfig({ LOCAL_MAX_SESSIONS_PER_OWNER: '2', LOCAL_MAX_SESSIONS_PER_PROJECT: '1' })
        .localMaxSessionsPerOwner,
    ).toBe(2);
    expect(() => loadConfig({ LOCAL_MAX_SESSIONS: '4', LOCAL_MAX_SESSIONS_PER_OWNER: '5' })).toThrow(
      /LOCAL_MAX_SESSIONS_PER_OWNER: must be at most LOCAL_MAX_SESSIONS \(4\)/,
    );
    // Unset, LOCAL_MAX_SESSIONS is sized to the host by the provider, which lowers a larger share to it.
    const hostSized = loadConfig({ LOCAL_MAX_SESSIONS_PER_OWNER: '5' });
    expect([hostSized.LOCAL_MAX_SESSIONS, hostSized.localMaxSessionsPerOwner]).toEqual([undefined, 5]);
    expect(() => loadConfig({ LOCAL_MAX_SESSIONS_PER_OWNER: '0' })).toThrow(/LOCAL_MAX_SESSIONS_PER_OWNER/);
  });

  it('reads the log budgets in MiB within their bounds', () => {
    expect(loadConfig({})).toMatchObject({ LOCAL_SESSION_LOG_MAX_MB: 8, LOCAL_ENDED_LOGS_MAX_MB: 64 });
    expect(loadConfig({ LOCAL_SESSION_LOG_MAX_MB: '1', LOCAL_ENDED_LOGS_MAX_MB: '0' })).toMatchObject({
      LOCAL_SESSION_LOG_MAX_MB: 1,
      LOCAL_ENDED_LOGS_MAX_MB: 0,
    });
    for (const bad of ['0', '1025', 'big', '1.5'])
      expect(() => loadConfig({ LOCAL_SESSION_LOG_MAX_MB: bad })).toThrow(/LOCAL_SESSION_LOG_MAX_MB/);
    expect(() => loadConfig({ LOCAL_ENDED_LOGS_MAX_MB: '-1' })).toThrow(/LOCAL_ENDED_LOGS_MAX_MB/);
  });

  it('reads the session files’ limits: UPLOAD_MAX_MB, DOWNLOADS_RETENTION_SEC, DOWNLOADS_MAX_MB', () => {
    expect(loadConfig({})).toMatchObject({
      UPLOAD_MAX_MB: 50,
      DOWNLOADS_RETENTION_SEC: 3600,
      DOWNLOADS_MAX_MB: 1024,
    });
    expect(
      loadConfig({ UPLOAD_MAX_MB: '1', DOWNLOADS_RETENTION_SEC: '0', DOWNLOADS_MAX_MB: '0' }),
    ).toMatchObject({ UPLOAD_MAX_MB: 1, DOWNLOADS_RETENTION_SEC: 0, DOWNLOADS_MAX_MB: 0 });
    for (const [name, bad] of [
      ['UPLOAD_MAX_MB', '0'],
      ['UPLOAD_MAX_MB', '4097'],
      ['DOWNLOADS_RETENTION_SEC', '-1'],
      ['DOWNLOADS_MAX_MB', 'lots'],
    ] as const)
      expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
  });

  it('reads DOWNLOADS_MAX_MB_PER_OWNER (unset: the provider’s half of DOWNLOADS_MAX_MB), at most DOWNLOADS_MAX_MB', () => {
    expect(loadConfig({}).DOWNLOADS_MAX_MB_PER_OWNER).toBeUndefined();
    expect(loadConfig({ DOWNLOADS_MAX_MB_PER_OWNER: '256' }).DOWNLOADS_MAX_MB_PER_OWNER).toBe(256);
    expect(
      loadConfig({ DOWNLOADS_MAX_MB: '100', DOWNLOADS_MAX_MB_PER_OWNER: '100' }).DOWNLOADS_MAX_MB_PER_OWNER,
    ).toBe(100);
    expect(() => loadConfig({ DOWNLOADS_MAX_MB: '100', DOWNLOADS_MAX_MB_PER_OWNER: '101' })).toThrow(
      /DOWNLOADS_MAX_MB_PER_OWNER: must be at most DOWNLOADS_MAX_MB \(100\)/,
    );
    for (const bad of ['-1', 'half', '1.5'])
      expect(() => loadConfig({ DOWNLOADS_MAX_MB_PER_OWNER: bad })).toThrow(/DOWNLOADS_MAX_MB_PER_OWNER/);
  });

  it('reads the recording settings with their defaults and bounds, refusing bad ones by name', () => {
    const defaults = loadConfig({});
    expect([
      defaults.RECORD_SESSIONS,
      defaults.RECORDING_MAX_MB,
      defaults.RECORDINGS_MAX_GB,
      defaults.RECORDINGS_MAX_GB_PER_OWNER,
      defaults.RECORDINGS_RETENTION_DAYS,
      defaults.FFMPEG_PATH,
    ]).toEqual([true, 200, 20, undefined, 7, undefined]);
    const set = loadConfig({
      RECORD_SESSIONS: 'false',
      RECORDING_MAX_MB: '50',
      RECORDINGS_MAX_GB: '4',
      RECORDINGS_MAX_GB_PER_OWNER: '4',
      RECORDINGS_RETENTION_DAYS: '30',
      FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg',
    });
    expect([
      set.RECORD_SESSIONS,
      set.RECORDING_MAX_MB,
      set.RECORDINGS_MAX_GB,
      set.RECORDINGS_MAX_GB_PER_OWNER,
    ]).toEqual([false, 50, 4, 4]);
    expect(set.FFMPEG_PATH).toBe('/opt/ffmpeg/bin/ffmpeg');
    expect(() => loadConfig({ RECORDINGS_MAX_GB: '4', RECORDINGS_MAX_GB_PER_OWNER: '5' })).toThrow(
      /RECORDINGS_MAX_GB_PER_OWNER: must be at most RECORDINGS_MAX_GB \(4\)/,
    );
    for (const [name, bad] of [
      ['RECORD_SESSIONS', 'yes'],
      ['RECORDING_MAX_MB', '0'],
      ['RECORDINGS_MAX_GB', 'lots'],
      ['RECORDINGS_RETENTION_DAYS', '0'],
    ] as const)
      expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
  });

  it('reads RUN_RETENTION_DAYS (1 to 3650, default 30) and refuses a bad one, naming it', () => {
    expect(loadConfig({}).RUN_RETENTION_DAYS).toBe(30);
    expect(loadConfig({ RUN_RETENTION_DAYS: '1' }).RUN_RETENTION_DAYS).toBe(1);
    expect(loadConfig({ RUN_RETENTION_DAYS: '3650' }).RUN_RETENTION_DAYS).toBe(3650);
    for (const bad of ['0', '-1', '3651', 'month', '1.5'])
      expect(() => loadConfig({ RUN_RETENTION_DAYS: bad })).toThrow(/RUN_RETENTION_DAYS/);
  });

  it('reads PROXY_BYTES_FLUSH_SEC (1 to 3600 s, default 5) and refuses a bad one, naming it', () => {
    expect(loadConfig({}).PROXY_BYTES_FLUSH_SEC).toBe(5);
    expect(loadConfig({ PROXY_BYTES_FLUSH_SEC: '1' }).PROXY_BYTES_FLUSH_SEC).toBe(1);
    for (const bad of ['0', '3601', 'often', '2.5'])
      expect(() => loadConfig({ PROXY_BYTES_FLUSH_SEC: bad })).toThrow(/PROXY_BYTES_FLUSH_SEC/);
  });

  it('reads the run settings with their defaults, and refuses a bad one, naming it', () => {
    expect(loadConfig({})).toMatchObject({
      RUN_CONCURRENCY: 2,
      RUN_WORKER: true,
      RUN_MEMORY_MB: 256,
      RUN_MAX_LOG_BYTES: 8 * 1024 * 1024,
    });
    expect(
      loadConfig({
        RUN_CONCURRENCY: '8',
        RUN_WORKER: 'false',
        RUN_MEMORY_MB: '512',
        RUN_MAX_LOG_BYTES: '65536',
      }),
    ).toMatchObject({ RUN_CONCURRENCY: 8, RUN_WORKER: false, RUN_MEMORY_MB: 512, RUN_MAX_LOG_BYTES: 65_536 });
    for (const bad of ['0', '-1', 'two', '1.5'])
      expect(() => loadConfig({ RUN_CONCURRENCY: bad })).toThrow(/RUN_CONCURRENCY/);
    for (const bad of ['yes', '0', 'False'])
      expect(() => loadConfig({ RUN_WORKER: bad })).toThrow(/RUN_WORKER/);
    for (const bad of ['0', '63', 'lots'])
      expect(() => loadConfig({ RUN_MEMORY_MB: bad })).toThrow(/RUN_MEMORY_MB/);
    for (const bad of ['0', '1000', '8MiB'])
      expect(() => loadConfig({ RUN_MAX_LOG_BYTES: bad })).toThrow(/RUN_MAX_LOG_BYTES/);
  });

  it('reads the per-account run shares: active unset (half of RUN_CONCURRENCY), queued 100, waiters 16', () => {
    expect(loadConfig({})).toMatchObject({ RUN_MAX_QUEUED_PER_OWNER: 100, RUN_MAX_WAITERS_PER_OWNER: 16 });
    expect(loadConfig({}).RUN_MAX_ACTIVE_PER_OWNER).toBeUndefined();
    expect(
      loadConfig({
        RUN_MAX_ACTIVE_PER_OWNER: '3',
        RUN_MAX_QUEUED_PER_OWNER: '5',
        RUN_MAX_WAITERS_PER_OWNER: '2',
      }),
    ).toMatchObject({
      RUN_MAX_ACTIVE_PER_OWNER: 3,
      RUN_MAX_QUEUED_PER_OWNER: 5,
      RUN_MAX_WAITERS_PER_OWNER: 2,
    });
    for (const name of ['RUN_MAX_ACTIVE_PER_OWNER', 'RUN_MAX_QUEUED_PER_OWNER', 'RUN_MAX_WAITERS_PER_OWNER'])
      for (const bad of ['0', '-1', 'many', '1.5'])
        expect(() => loadConfig({ [name]: bad })).toThrow(new RegExp(name));
  });

  it('reads RUN_WARM_RUNNERS (0 to 64), unset by default (the composition then keeps RUN_CONCURRENCY ready)', () => {
    expect(loadConfig({}).RUN_WARM_RUNNERS).toBeUndefined();
    expect(loadConfig({ RUN_WARM_RUNNERS: '0' }).RUN_WARM_RUNNERS).toBe(0);
    expect(loadConfig({ RUN_WARM_RUNNERS: '64' }).RUN_WARM_RUNNERS).toBe(64);
    for (const bad of ['-1', '65', 'few', '1.5'])
      expect(() => loadConfig({ RUN_WARM_RUNNERS: bad })).toThrow(/RUN_WARM_RUNNERS/);
  });

  it('reads the per-browser limits: unset for the host-sized defaults, off or 0 for none, bounded', () => {
    const defaults = loadConfig({});
    for (const name of [
      'LOCAL_BROWSER_MEMORY_MB',
      'LOCAL_BROWSER_PIDS',
      'LOCAL_BROWSER_CPU_WEIGHT',
      'LOCAL_SESSION_DISK_MB',
    ] as const)
      expect(defaults[name]).toBeUndefined();
    expect(
      loadConfig({
        LOCAL_BROWSER_MEMORY_MB: '1024',
        LOCAL_BROWSER_PIDS: 'off',
        LOCAL_BROWSER_CPU_WEIGHT: '200',
        LOCAL_SESSION_DISK_MB: '0',
      }),
    ).toMatchObject({
      LOCAL_BROWSER_MEMORY_MB: 1024,
      LOCAL_BROWSER_PIDS: 0,
      LOCAL_BROWSER_CPU_WEIGHT: 200,
      LOCAL_SESSION_DISK_MB: 0,
    });
    for (const bad of ['64', 'lots', '1.5', '-1'])
      expect(() => loadConfig({ LOCAL_BROWSER_MEMORY_MB: bad })).toThrow(
        /LOCAL_BROWSER_MEMORY_MB: must be off/,
      );
    expect(() => loadConfig({ LOCAL_BROWSER_PIDS: '8' })).toThrow(/LOCAL_BROWSER_PIDS/);
    expect(() => loadConfig({ LOCAL_SESSION_DISK_MB: '8' })).toThrow(/LOCAL_SESSION_DISK_MB/);
  });

  it('reads every value it is given', () => {
    const cfg = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://deck.example.com/',
      DATABASE_URL: 'postgres://u:p@db:5432/deck',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      ACCESS_TOKEN_TTL_SEC: '60',
    });
    expect(cfg.PORT).toBe(8080);
    expect(cfg.publicUrl).toBe('https://deck.example.com');
    expect(cfg.databaseUrl).toBe('postgres://u:p@db:5432/deck');
    expect(cfg.CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(cfg.ACCESS_TOKEN_TTL_SEC).toBe(60);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ IDENTITY_PROVIDER: 'ldap' }, 'IDENTITY_PROVIDER'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ IDENTITY_PROVIDER: 'supabase' }, 'SUPABASE_URL'],
    [{ BROWSER_PROVIDER: 'browserbase', BROWSERBASE_API_KEY: 'k' }, 'BROWSERBASE_PROJECT_ID'],
    [{ BROWSER_PROVIDER: 'selenium-grid' }, 'SELENIUM_GRID_URL'],
    [{ BROWSER_PROVIDER: 'selenium-grid', SELENIUM_GRID_URL: 'ftp://grid' }, 'SELENIUM_GRID_URL'],
    [{ SELENIUM_GRID_URL: 'http://grid:4444', SELENIUM_GRID_HEADERS: '{"a":' }, 'SELENIUM_GRID_HEADERS'],
    [{ SELENIUM_GRID_URL: 'http://grid:4444', SELENIUM_GRID_HEADERS: '["x"]' }, 'SELENIUM_GRID_HEADERS'],
    [{ SELENIUM_GRID_URL: 'http://grid:4444', SELENIUM_GRID_HEADERS: '{"X-N":1}' }, 'SELENIUM_GRID_HEADERS'],
    [
      { SELENIUM_GRID_URL: 'http://grid:4444', SELENIUM_GRID_HEADERS: '{"bad name":"v"}' },
      'SELENIUM_GRID_HEADERS',
    ],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('reads the Selenium Grid provider: its URL and extra headers, whose values no refusal repeats', () => {
    const cfg = loadConfig({
      BROWSER_PROVIDER: 'selenium-grid',
      SELENIUM_GRID_URL: 'https://grid.example/wd/hub',
      SELENIUM_GRID_HEADERS: '{"Authorization":"Bearer s3cret","X-Team":"qa"}',
    });
    expect(cfg).toMatchObject({
      BROWSER_PROVIDER: 'selenium-grid',
      SELENIUM_GRID_URL: 'https://grid.example/wd/hub',
      SELENIUM_GRID_HEADERS: { Authorization: 'Bearer s3cret', 'X-Team': 'qa' },
    });
    expect(() => loadConfig({ SELENIUM_GRID_HEADERS: '{"Authorization": "Bearer s3cret"' })).toThrow(
      /SELENIUM_GRID_HEADERS: must be a JSON object/,
    );
    expect(() => loadConfig({ SELENIUM_GRID_HEADERS: '{"Authorization": 98765}' })).toThrow(
      /SELENIUM_GRID_HEADERS: must map header names to strings \("Authorization" does not\)$/,
    );
  });
});

describe('loadConfig: /metrics protection and the request cut-off', () => {
  it('leaves /metrics open and on the API address, and the cut-off at 30 s, by default', () => {
    const cfg = loadConfig({});
    expect(cfg.METRICS_TOKEN).toBeUndefined();
    expect(cfg.METRICS_LISTEN).toBeUndefined();
    expect(cfg.REQUEST_TIMEOUT_SEC).toBe(30);
  });

  it('reads METRICS_TOKEN, METRICS_LISTEN (IPv4, name, bracketed IPv6, port 0) and REQUEST_TIMEOUT_SEC', () => {
    const token = 'abcdefghijklmnop-._~+/0123==';
    expect(loadConfig({ METRICS_TOKEN: ` ${token} ` }).METRICS_TOKEN).toBe(token);
    expect(loadConfig({ METRICS_LISTEN: '127.0.0.1:9464' }).METRICS_LISTEN).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ METRICS_LISTEN: 'metrics.internal:9100' }).METRICS_LISTEN).toEqual({
      host: 'metrics.internal',
      port: 9100,
    });
    expect(loadConfig({ METRICS_LISTEN: '[::1]:0' }).METRICS_LISTEN).toEqual({ host: '::1', port: 0 });
    expect(loadConfig({ REQUEST_TIMEOUT_SEC: '5' }).REQUEST_TIMEOUT_SEC).toBe(5);
  });

  it.each([
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'has spaces in it, sixteen+' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: `${'x'.repeat(20)}"` }, 'METRICS_TOKEN'],
    [{ METRICS_LISTEN: '9464' }, 'METRICS_LISTEN'],
    [{ METRICS_LISTEN: '127.0.0.1' }, 'METRICS_LISTEN'],
    [{ METRICS_LISTEN: '127.0.0.1:65536' }, 'METRICS_LISTEN'],
    [{ METRICS_LISTEN: '::1:9464' }, 'METRICS_LISTEN'],
    [{ METRICS_LISTEN: 'http://127.0.0.1:9464' }, 'METRICS_LISTEN'],
    [{ METRICS_LISTEN: '127.0.0.1:3000' }, 'METRICS_LISTEN: must differ from HOST:PORT'],
    [{ REQUEST_TIMEOUT_SEC: '0' }, 'REQUEST_TIMEOUT_SEC'],
    [{ REQUEST_TIMEOUT_SEC: 'soon' }, 'REQUEST_TIMEOUT_SEC'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('loadConfig: TRUST_PROXY', () => {
  it('is false by default, and reads true, a hop count and a list of addresses, CIDRs and names', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' loopback, 10.0.0.0/8, fd00::/8, 192.0.2.7 ' }).TRUST_PROXY).toBe(
      'loopback, 10.0.0.0/8, fd00::/8, 192.0.2.7',
    );
  });

  it.each([
    ['0', 'hop count'],
    ['1.5', '"1.5"'],
    ['yes', '"yes"'],
    ['10.0.0.0/33', '"10.0.0.0/33"'],
    ['10.0.0.0/8,300.0.0.1', '"300.0.0.1"'],
    ['::1/129', '"::1/129"'],
    [',', 'at least one'],
  ])('refuses TRUST_PROXY=%j, naming it and %s', (value, detail) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
      /\n {2}TRUST_PROXY: must be false, true, a hop count/,
    );
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(detail);
  });
});
