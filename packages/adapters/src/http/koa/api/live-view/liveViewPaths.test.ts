import { describe, expect, it } from 'vitest';
import { liveViewPageUrl } from './liveViewPaths.ts';

const ID = '0190b000-0000-7000-8000-0000000000a1';

describe('liveViewPageUrl', () => {
  it('puts the page under the public URL’s path, with the token first', () => {
    expect(liveViewPageUrl('http://127.0.0.1:3000', ID, 'a.b')).toBe(
      `http://127.0.0.1:3000/v1/live/${ID}?token=a.b`,
    );
    expect(liveViewPageUrl('https://app.example.com/browserdeck/', ID, 'a_b-c.d')).toBe(
      `https://app.example.com/browserdeck/v1/live/${ID}?token=a_b-c.d`,
    );
  });
});
