import { describe, expect, it } from 'vitest';
import {
  checkProjectName,
  PROJECT_SLUG_MAX_LENGTH,
  PROJECT_SLUG_PATTERN,
  slugify,
  suffixSlug,
} from './projectRules.ts';

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

describe('checkProjectName', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a tab', 'a\tb'],
    ['a line feed', 'a\nb'],
    ['U+001F', 'a\u001fb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control (U+0085)', 'a\u0085b'],
    ['U+009F', 'a\u009fb'],
    ['an unpaired surrogate', 'a\udc00b'],
  ])('refuses %s with validation_failed naming the field', (_, name) => {
    expect(() => checkProjectName(name)).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        errors: [{ path: 'name', message: expect.stringMatching(/control characters|well-formed/) }],
      }),
    );
  });

  it('accepts the characters next to the control ranges, emoji and other scripts', () => {
    for (const name of ['a b', '~', '\u00a0x', 'Ünïcødé', '日本語', 'ok 🚀', 'it\'s "quoted" \\ ?']) {
      expect(() => checkProjectName(name)).not.toThrow();
    }
  });
});
