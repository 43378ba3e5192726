import { describe, expect, it } from 'vitest';
import { Project } from './Project.ts';

const T0 = new Date('2026-03-01T12:00:00.000Z');

describe('Project.restore', () => {
  it('rebuilds a created project from its state, methods included', () => {
    const created = Project.create({
      id: 'p-1',
      ownerId: 'u-1',
      name: 'Checkout',
      slug: 'checkout',
      now: T0,
    });
    created.archive(new Date('2026-03-02T00:00:00.000Z'));
    const restored = Project.restore({ ...created });
    expect(restored).toBeInstanceOf(Project);
    expect(restored).toEqual(created);
    restored.restore(new Date('2026-03-03T00:00:00.000Z'));
    expect(restored.archived).toBe(false);
  });

  it('takes the state as stored, without validating it again', () => {
    const restored = Project.restore({
      id: 'p-2',
      ownerId: 'u-1',
      name: '',
      slug: 'NOT A SLUG',
      archived: false,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(restored).toMatchObject({ name: '', slug: 'NOT A SLUG' });
  });
});
