import { type DomainError, UnavailableError } from '@browserdeck/domain';
import { ConnectionException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { toDatabaseError } from './toDatabaseError.ts';

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('toDatabaseError', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a refused dual-stack connection', new AggregateError([withCode('refused', 'ECONNREFUSED')], '')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'a server shutting down (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
    ],
    ['a server starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300')],
    ['a SQLite file locked past the busy timeout', withCode('database is locked', 'SQLITE_BUSY')],
    ['MikroORM connection exception', new ConnectionException(new Error('unable to open database file'))],
    ['a wrapped cause', new Error('query failed', { cause: withCode('refused', 'ECONNREFUSED') })],
  ])('maps %s to database_unavailable', (_, error) => {
    const mapped = toDatabaseError(error);
    expect(mapped).toBeInstanceOf(UnavailableError);
    expect(mapped).toMatchObject({
      code: 'database_unavailable',
      message: 'The database is not answering; try again shortly.',
    });
    expect((mapped as DomainError).cause).toBe(error);
  });

  it.each([
    ['a unique violation', new UniqueConstraintViolationException(withCode('duplicate key', '23505'))],
    ['a syntax error', withCode('syntax error at or near "selec"', '42601')],
    ['a plain bug', new TypeError('x is undefined')],
    ['a non-error', 'boom'],
    ['nothing', undefined],
  ])('leaves %s alone', (_, error) => {
    expect(toDatabaseError(error)).toBeUndefined();
  });
});
