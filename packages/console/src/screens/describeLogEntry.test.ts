import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../api/types.ts';
import { describeLogEntry } from './describeLogEntry.ts';

const entry = (fields: Partial<LogEntry>): LogEntry => ({ timestamp: 1, method: 'X', pageId: 0, ...fields });

describe('describeLogEntry', () => {
  it('shows a request’s method and URL from the CDP params, as the local provider records them', () => {
    const sent = entry({
      method: 'Network.requestWillBeSent',
      request: {
        timestamp: 1,
        params: { requestId: 'r1', request: { url: 'https://example.com/', method: 'GET' } },
      },
    });
    expect(describeLogEntry(sent)).toBe('GET https://example.com/');
  });

  it('shows a response’s status and URL from the CDP result', () => {
    const received = entry({
      method: 'Network.responseReceived',
      response: {
        timestamp: 1,
        result: { requestId: 'r1', response: { url: 'https://example.com/a', status: 404 } },
      },
    });
    expect(describeLogEntry(received)).toBe('404 https://example.com/a');
  });

  it('reads Browserbase’s entries, whose requests also carry an empty command result', () => {
    const sent = entry({
      method: 'Network.requestWillBeSent',
      request: { params: { request: { url: 'https://example.com/', method: 'POST' } }, rawBody: '' },
      response: { result: {}, rawBody: '{"id":17,"result":{}}' },
    });
    expect(describeLogEntry(sent)).toBe('POST https://example.com/');
    const navigate = entry({
      method: 'Page.navigate',
      request: { params: { url: 'https://example.com/next' }, rawBody: '' },
      response: { result: { frameId: 'F1' }, rawBody: '' },
    });
    expect(describeLogEntry(navigate)).toBe('https://example.com/next');
  });

  it('shows a failed load’s error, and nothing for events without a URL or status', () => {
    const failed = entry({
      method: 'Network.loadingFailed',
      request: { params: { requestId: 'r1', errorText: 'net::ERR_ACCESS_DENIED' } },
    });
    expect(describeLogEntry(failed)).toBe('net::ERR_ACCESS_DENIED');
    const consoleCall = entry({
      method: 'Runtime.consoleAPICalled',
      request: { params: { type: 'log', args: [{ type: 'string', value: 'hi' }] } },
    });
    expect(describeLogEntry(consoleCall)).toBe('');
    expect(describeLogEntry(entry({ request: { params: { request: 'not an object' } } }))).toBe('');
  });
});
