import { describe, expect, it } from 'vitest';
import { PROJECT_SLUG_MAX_LENGTH, PROJECT_SLUG_PATTERN, slugify, suffixSlug } from './projectRules.ts';

describe('slugify', () => {
  it.each([
    ['My Project', 'my-project'],
    ['  Déjà vu!  ', 'deja-vu'],
    ['a--b__c', 'a-b-c'],
    ['!!!', 'project'],
    ['日本語', 'project'],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('cuts long names to the slug limit without a trailing hyphen', () => {
    const slug = slugify(`${'a'.repeat(63)} b`);
    expect(slug.length).toBeLessThanOrEqual(PROJECT_SLUG_MAX_LENGTH);
    expect(slug).toMatch(PROJECT_SLUG_PATTERN);
  });

  it('suffixes within the limit', () => {
    expect(suffixSlug('x'.repeat(64), 12)).toBe(`${'x'.repeat(61)}-12`);
    expect(suffixSlug('app', 2)).toBe('app-2');
  });
});
