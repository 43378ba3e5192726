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
      LOCAL_MAX_SESSIONS: 4,
      LOCAL_WARM_BROWSERS: 1,
      ACCESS_TOKEN_TTL_SEC: 900,
      REFRESH_TOKEN_TTL_SEC: 2_592_000,
      RECONCILE_INTERVAL_SEC: 15,
      LOG_LEVEL: 'info',
      CORS_ORIGINS: [],
      authRateLimits: {
        perAddress: { limit: 60, windowSec: 60 },
        signInPerEmail: { limit: 10, windowSec: 60 },
        signUpPerEmail: { limit: 10, windowSec: 60 },
      },
    });
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
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
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
