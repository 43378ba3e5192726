import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './parseDatabaseUrl.ts';

describe('parseDatabaseUrl', () => {
  it.each([
    ['postgres://u:p@db:5432/app', { dialect: 'postgresql', url: 'postgres://u:p@db:5432/app' }],
    ['postgresql://db/app', { dialect: 'postgresql', url: 'postgresql://db/app' }],
    ['sqlite:./data/browserdeck.db', { dialect: 'sqlite', path: './data/browserdeck.db' }],
    ['sqlite:///var/lib/bd.db', { dialect: 'sqlite', path: '/var/lib/bd.db' }],
    ['file:data/bd.sqlite', { dialect: 'sqlite', path: 'data/bd.sqlite' }],
    ['sqlite::memory:', { dialect: 'sqlite', path: ':memory:' }],
    ['./data/bd.db', { dialect: 'sqlite', path: './data/bd.db' }],
    ['/abs/bd.db', { dialect: 'sqlite', path: '/abs/bd.db' }],
  ])('reads %s', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it('refuses a SQLite URL without a file', () => {
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/names no file/);
  });
});
