import { describe, expect, it } from 'vitest';
import { consoleBaseOf } from './consoleBase.ts';

describe('where the console and the API are, from the console script URL', () => {
  it('at the root', () => {
    expect(consoleBaseOf('http://127.0.0.1:3000/console/assets/index-Ab12.js')).toEqual({
      consolePath: '/console/',
      apiPrefix: '',
    });
  });

  it('under a mount prefix', () => {
    expect(consoleBaseOf('https://app.example.com/tools/browserdeck/console/assets/index-Ab12.js')).toEqual({
      consolePath: '/tools/browserdeck/console/',
      apiPrefix: '/tools/browserdeck',
    });
  });

  it('under the dev server, from a source module one folder down', () => {
    expect(consoleBaseOf('http://127.0.0.1:5173/console/src/consoleBase.ts')).toEqual({
      consolePath: '/console/',
      apiPrefix: '',
    });
  });
});
