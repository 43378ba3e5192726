import { Checks } from '../shared/checks.ts';

/** Project name length bounds, after trimming. */
export const PROJECT_NAME_MIN_LENGTH = 1;
export const PROJECT_NAME_MAX_LENGTH = 100;
/** Slug length bounds. */
export const PROJECT_SLUG_MIN_LENGTH = 1;
export const PROJECT_SLUG_MAX_LENGTH = 64;
/** Lower-case letters and digits in groups joined by single hyphens. */
export const PROJECT_SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Projects one account holds by default, archived ones included (projects are free: this bounds them). */
export const PROJECTS_PER_USER_DEFAULT = 100;
/** What `sync` creates for a user who has no project. */
export const DEFAULT_PROJECT = { name: 'Default Project', slug: 'default' } as const;

/**
 * Throws `validation_failed` unless `name` (already trimmed) is an acceptable project name: within
 * the length bounds, no control characters.
 */
export function checkProjectName(name: string): void {
  new Checks()
    .length(name, 'name', PROJECT_NAME_MIN_LENGTH, PROJECT_NAME_MAX_LENGTH)
    .text(name, 'name', 'name')
    .throwIfAny();
}

/** Throws `validation_failed` unless `slug` is an acceptable slug. */
export function checkProjectSlug(slug: string): void {
  new Checks()
    .require(
      slug.length >= PROJECT_SLUG_MIN_LENGTH &&
        slug.length <= PROJECT_SLUG_MAX_LENGTH &&
        PROJECT_SLUG_PATTERN.test(slug),
      'slug',
      `must match ${PROJECT_SLUG_PATTERN.source} and be ${PROJECT_SLUG_MIN_LENGTH} to ${PROJECT_SLUG_MAX_LENGTH} characters`,
    )
    .throwIfAny();
}

/**
 * Derives a slug from a name: accents dropped, lower-cased, every run of other characters turned into
 * one hyphen, cut to the maximum length. A name with nothing usable gives `project`.
 */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, PROJECT_SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
  return slug || 'project';
}

/** `base` with a numeric suffix that keeps within the slug length: `my-app-2`. */
export function suffixSlug(base: string, n: number): string {
  const suffix = `-${n}`;
  return `${base.slice(0, PROJECT_SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, '')}${suffix}`;
}
