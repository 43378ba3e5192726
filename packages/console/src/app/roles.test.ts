import { describe, expect, it } from 'vitest';
import { GRANTABLE_ROLES, PROJECT_ROLES, roleAllows } from './roles.ts';

describe('project roles (docs/teams.md)', () => {
  it('orders viewer < developer < admin < owner, and nobody without a role', () => {
    expect(PROJECT_ROLES).toEqual(['viewer', 'developer', 'admin', 'owner']);
    expect(roleAllows('viewer', 'viewer')).toBe(true);
    expect(roleAllows('viewer', 'developer')).toBe(false);
    expect(roleAllows('developer', 'developer')).toBe(true);
    expect(roleAllows('developer', 'admin')).toBe(false);
    expect(roleAllows('admin', 'admin')).toBe(true);
    expect(roleAllows('admin', 'owner')).toBe(false);
    expect(roleAllows('owner', 'owner')).toBe(true);
    expect(roleAllows(undefined, 'viewer')).toBe(false);
  });

  it('grants every role but owner, which passes by transfer', () => {
    expect(GRANTABLE_ROLES).toEqual(['viewer', 'developer', 'admin']);
  });
});
