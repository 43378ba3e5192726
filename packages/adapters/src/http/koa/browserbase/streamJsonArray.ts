import { Readable } from 'node:stream';

/**
 * A JSON array written as it is read, one page at a time: `first` is already in hand (so a failure
 * to read it is still an ordinary error answer), and `rest` yields the pages after it. No more than
 * one page is held in memory at once, however long the array.
 */
export function streamJsonArray<T>(first: readonly T[], rest: AsyncIterable<readonly T[]>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    let separator = '[';
    for await (const page of prepend(first, rest)) {
      for (const item of page) {
        yield `${separator}${JSON.stringify(item)}`;
        separator = ',';
      }
    }
    yield separator === '[' ? '[]' : ']';
  }
  return Readable.from(chunks(), { objectMode: false });
}

async function* prepend<T>(first: T, rest: AsyncIterable<T>): AsyncGenerator<T> {
  yield first;
  yield* rest;
}
