import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE_RANGE, unsupportedNodeMessage } from './unsupportedNodeMessage.ts';

describe('unsupportedNodeMessage', () => {
  it('states the range of the published package.json engines', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(manifest.engines.node).toBe(SUPPORTED_NODE_RANGE);
  });

  it.each(['v20.20.2', '18.20.8', '22.16.0', '22.0.0', 'v22.16.99'])(
    'refuses Node %s, naming it, the range and the fix',
    (running) => {
      const message = unsupportedNodeMessage('@browserdeck/adapters', running, '>=22.17.0', '/usr/bin/node');
      expect(message).toContain(
        `@browserdeck/adapters needs Node >=22.17.0; this is Node ${running.replace(/^v/, '')} (/usr/bin/node).`,
      );
      expect(message).toContain('nvm install 24');
      expect(message).toContain('`npm start` and `npm test` already use the pinned Node 24');
    },
  );

  it.each(['22.17.0', 'v22.17.1', '22.18.0', '23.0.0', '24.21.0', '30.0.0-pre'])(
    'accepts Node %s',
    (running) => {
      expect(unsupportedNodeMessage('@browserdeck/adapters', running, '>=22.17.0')).toBeUndefined();
    },
  );

  it('reads ranges with fewer parts: >=22.17 and >=24', () => {
    expect(unsupportedNodeMessage('x', '22.16.9', '>=22.17')).toBeDefined();
    expect(unsupportedNodeMessage('x', '22.17.0', '>=22.17')).toBeUndefined();
    expect(unsupportedNodeMessage('x', '23.11.0', '>=24')).toBeDefined();
    expect(unsupportedNodeMessage('x', '24.0.0', '>=24')).toBeUndefined();
  });

  it('leaves ranges it cannot read to npm rather than refusing', () => {
    expect(unsupportedNodeMessage('x', '20.0.0', '^22 || ^24')).toBeUndefined();
  });

  it('accepts the Node running this test, which is inside the range', () => {
    expect(unsupportedNodeMessage('x', process.version)).toBeUndefined();
  });
});
