import { ValidationError } from '../shared/DomainError.ts';
import { metadataFilterProblem } from './metadataRules.ts';
import type { MetadataFilter } from './SessionRepository.ts';

/** The one base Browserbase's metadata queries have. */
const BASE = 'user_metadata';

const SHAPE = `must look like ${BASE}['key']:'value' (more ['key'] steps reach nested keys)`;

/** Reads a query left to right; every `expect…` throws the `q` validation error when the text differs. */
class QueryReader {
  private at = 0;
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  get done(): boolean {
    this.skipSpaces();
    return this.at >= this.text.length;
  }

  peek(): string | undefined {
    this.skipSpaces();
    return this.text[this.at];
  }

  expect(token: string): void {
    this.skipSpaces();
    if (!this.text.startsWith(token, this.at)) throw ValidationError.field('q', SHAPE);
    this.at += token.length;
  }

  /** A string in single or double quotes; a backslash takes the next character as it is. */
  expectQuoted(): string {
    const quote = this.peek();
    if (quote !== "'" && quote !== '"') throw ValidationError.field('q', SHAPE);
    let result = '';
    for (let i = this.at + 1; i < this.text.length; i++) {
      const char = this.text[i]!;
      if (char === quote) {
        this.at = i + 1;
        return result;
      }
      if (char === '\\') i++;
      if (i >= this.text.length) break;
      result += this.text[i];
    }
    throw ValidationError.field('q', `has an unterminated quoted string; ${SHAPE}`);
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ') this.at++;
  }
}

/**
 * The metadata filter of a Browserbase session query (`GET /v1/sessions?q=…`, http-api.md §13):
 * `user_metadata['order']['status']:'shipped'` → `{ path: ['order', 'status'], value: 'shipped' }`.
 * Keys and value are in single or double quotes; inside, a backslash takes the next character as
 * it is (`'it\'s'`); spaces between the parts are ignored. Anything else — another base, no key,
 * no value, text left over — throws `validation_failed` on `q`.
 */
export function parseMetadataQuery(q: string): MetadataFilter {
  const reader = new QueryReader(q);
  reader.expect(BASE);
  const path: string[] = [];
  do {
    reader.expect('[');
    path.push(reader.expectQuoted());
    reader.expect(']');
  } while (reader.peek() === '[');
  reader.expect(':');
  const value = reader.expectQuoted();
  if (!reader.done) throw ValidationError.field('q', SHAPE);
  const filter = { path, value };
  const problem = metadataFilterProblem(filter);
  if (problem) throw ValidationError.field('q', problem);
  return filter;
}
