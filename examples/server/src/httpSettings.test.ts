import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import {
  httpSettings,
  isLoopbackHost,
  METRICS_WITHHELD_MESSAGE,
  warnIfMetricsWithheld,
} from './httpSettings.ts';

const TOKEN = 'metrics-token-0123456789';

/** The warn lines `warnIfMetricsWithheld` writes for `env`. */
function startupWarnings(env: Record<string, string>): Array<{ level: number; msg: string; host: string }> {
  const lines: Array<{ level: number; msg: string; host: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  warnIfMetricsWithheld(loadConfig(env), logger);
  return lines;
}

describe('httpSettings: /metrics on a public address', () => {
  it.each(['127.0.0.1', '127.1.2.3', '::1', 'localhost', '::ffff:127.0.0.1'])(
    'serves /metrics on the API address as before on loopback (HOST=%s), with no start-up line',
    (HOST) => {
      expect(isLoopbackHost(HOST)).toBe(true);
      expect(httpSettings(loadConfig({ HOST })).metricsEndpoint).toEqual({
        token: undefined,
        separate: false,
      });
      expect(startupWarnings({ HOST })).toEqual([]);
    },
  );

  it.each(['0.0.0.0', '::', '192.168.1.20', 'fd00::5', 'browserdeck.lan'])(
    'withholds /metrics beyond loopback (HOST=%s) without METRICS_TOKEN or METRICS_LISTEN, and says how to enable it',
    (HOST) => {
      expect(isLoopbackHost(HOST)).toBe(false);
      expect(httpSettings(loadConfig({ HOST })).metricsEndpoint).toEqual({
        token: undefined,
        separate: true,
      });
      const [line, ...rest] = startupWarnings({ HOST });
      expect(rest).toEqual([]);
      expect(line).toMatchObject({ level: 40, host: HOST, msg: METRICS_WITHHELD_MESSAGE });
      expect(line?.msg).toMatch(/METRICS_TOKEN/);
      expect(line?.msg).toMatch(/METRICS_LISTEN/);
    },
  );

  it('withholds it on loopback behind a trusted proxy (TRUST_PROXY set), which makes the address public', () => {
    for (const TRUST_PROXY of ['1', 'true', 'loopback']) {
      const env = { HOST: '127.0.0.1', TRUST_PROXY };
      expect(httpSettings(loadConfig(env)).metricsEndpoint).toEqual({ token: undefined, separate: true });
      expect(startupWarnings(env)).toEqual([
        expect.objectContaining({ level: 40, msg: METRICS_WITHHELD_MESSAGE }),
      ]);
    }
    const withToken = { HOST: '127.0.0.1', TRUST_PROXY: '1', METRICS_TOKEN: TOKEN };
    expect(httpSettings(loadConfig(withToken)).metricsEndpoint).toEqual({ token: TOKEN, separate: false });
    expect(startupWarnings({ HOST: '127.0.0.1', TRUST_PROXY: 'false' })).toEqual([]);
  });

  it('serves it beyond loopback behind METRICS_TOKEN, or on METRICS_LISTEN only, with no start-up line', () => {
    const withToken = { HOST: '0.0.0.0', METRICS_TOKEN: TOKEN };
    expect(httpSettings(loadConfig(withToken)).metricsEndpoint).toEqual({ token: TOKEN, separate: false });
    expect(startupWarnings(withToken)).toEqual([]);
    const elsewhere = { HOST: '0.0.0.0', METRICS_LISTEN: '127.0.0.1:9464' };
    expect(httpSettings(loadConfig(elsewhere)).metricsEndpoint).toEqual({ token: undefined, separate: true });
    expect(startupWarnings(elsewhere)).toEqual([]);
  });
});

describe('httpSettings: TRUST_PROXY and PUBLIC_URL', () => {
  it('passes TRUST_PROXY on, off by default', () => {
    expect(httpSettings(loadConfig({})).trustProxy).toBe(false);
    expect(httpSettings(loadConfig({ TRUST_PROXY: '1' })).trustProxy).toBe(1);
    expect(httpSettings(loadConfig({ TRUST_PROXY: '10.0.0.0/8' })).trustProxy).toBe('10.0.0.0/8');
  });

  it('takes a trusted proxy’s scheme and host for handed-out URLs only while PUBLIC_URL is unset', () => {
    expect(httpSettings(loadConfig({ TRUST_PROXY: 'true' })).publicUrlFromProxy).toBe(true);
    const configured = loadConfig({ TRUST_PROXY: 'true', PUBLIC_URL: 'https://deck.example.com' });
    expect(httpSettings(configured).publicUrlFromProxy).toBe(false);
  });
});
