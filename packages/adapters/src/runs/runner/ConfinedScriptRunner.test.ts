import type { Logger } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { ConfinedScriptRunner } from './ConfinedScriptRunner.ts';

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (_details, message) => warnings.push(message), error() {} };
}

describe('ConfinedScriptRunner', () => {
  it('warns loudly at construction when runs are not confined (LOCAL_ISOLATION=off)', () => {
    const logger = recordingLogger();
    new ConfinedScriptRunner({ runsDir: '/nonexistent/runs', isolation: 'off', logger });
    expect(logger.warnings).toEqual([
      expect.stringMatching(/^LOCAL_ISOLATION=off: run scripts are NOT confined/),
    ]);
  });

  it('says nothing at construction otherwise', () => {
    const logger = recordingLogger();
    new ConfinedScriptRunner({ runsDir: '/nonexistent/runs', logger });
    expect(logger.warnings).toEqual([]);
  });
});
