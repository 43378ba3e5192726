import { describe, expect, it } from 'vitest';
import { publicUrlsFor } from './PublicUrls.ts';

const CONNECT = 'ws://0.0.0.0:3000/deck/v1/local/sessions/abc/connect?signingKey=k1';
const WEBDRIVER = 'http://0.0.0.0:3000/deck/v1/local/sessions/abc/webdriver/k1';

describe('publicUrlsFor', () => {
  it('without a forwarded origin, is the configured URL and hands URLs out as they are', () => {
    const urls = publicUrlsFor('http://0.0.0.0:3000/deck');
    expect(urls.base).toBe('http://0.0.0.0:3000/deck');
    expect(urls.handOut(CONNECT)).toBe(CONNECT);
  });

  it('moves URLs under the configured one onto the forwarded origin, path and query kept', () => {
    const urls = publicUrlsFor('http://0.0.0.0:3000/deck', { protocol: 'https', host: 'deck.example.com' });
    expect(urls.base).toBe('https://deck.example.com/deck');
    expect(urls.handOut(CONNECT)).toBe(
      'wss://deck.example.com/deck/v1/local/sessions/abc/connect?signingKey=k1',
    );
    expect(urls.handOut(WEBDRIVER)).toBe('https://deck.example.com/deck/v1/local/sessions/abc/webdriver/k1');
    const plain = publicUrlsFor('http://0.0.0.0:3000/deck', { protocol: 'http', host: 'lan.example:8080' });
    expect(plain.handOut(CONNECT)).toBe(
      'ws://lan.example:8080/deck/v1/local/sessions/abc/connect?signingKey=k1',
    );
  });

  it('leaves any other URL alone: a provider’s own, another port, outside the prefix, not a URL', () => {
    const urls = publicUrlsFor('http://0.0.0.0:3000/deck', { protocol: 'https', host: 'deck.example.com' });
    for (const url of [
      'wss://connect.browserbase.com/?signingKey=x',
      'ws://0.0.0.0:4000/deck/v1/x',
      'wss://0.0.0.0:3000/deck/v1/x',
      'ws://0.0.0.0:3000/other/v1/x',
      'ws://0.0.0.0:3000/decking/v1/x',
      'ftp://0.0.0.0:3000/deck/x',
      'not a url',
    ])
      expect(urls.handOut(url), url).toBe(url);
  });
});
