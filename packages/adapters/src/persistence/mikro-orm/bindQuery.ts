import { isRaw, JsonProperty, type Platform, Utils } from '@mikro-orm/core';

/** A statement with placeholders and the values bound to them, in order. */
export interface BoundQuery {
  sql: string;
  parameters: unknown[];
}

/** How the driver writes the `n`-th placeholder (1-based): `?` for SQLite, `$n` for PostgreSQL. */
export type Placeholder = (n: number) => string;

/**
 * `sql` with its `?` parameters, read exactly as MikroORM's `platform.formatQuery` reads them (`??`
 * an identifier, `\?` a literal question mark, raw fragments expanded), but with every string bound
 * to a placeholder instead of spliced into the text: plain strings, each string of an array
 * (`in (?)`), and JSON values as their text. Numbers, booleans, dates and null are still written
 * inline the platform's way (they cannot carry text), and identifiers stay quoted inline. So no
 * value a client sends ever becomes SQL text: a NUL (which ends the statement text for SQLite and
 * the wire protocol for PostgreSQL), quotes, backslashes and question marks reach the database as
 * data. See docs/adr/0002-persistence.md, "Parameters are bound".
 */
export function bindQuery(
  platform: Platform,
  sql: string,
  params: readonly unknown[],
  placeholder: Placeholder,
): BoundQuery {
  const parameters: unknown[] = [];
  const bind = (value: unknown): string => {
    parameters.push(value);
    return placeholder(parameters.length);
  };
  const literal = (value: unknown): string => {
    if (isRaw(value)) return format(value.sql, value.params);
    if (typeof value === 'string') return bind(value);
    if (Array.isArray(value)) return value.map(literal).join(', ');
    if (Utils.isPlainObject(value) || (value as { [JsonProperty]?: unknown } | null)?.[JsonProperty]) {
      return bind(JSON.stringify(value));
    }
    return String(platform.quoteValue(value));
  };
  // The same walk as Platform.formatQuery (MikroORM 7.2), so placeholders and values pair up alike.
  const format = (text: string, values: readonly unknown[]): string => {
    if (values.length === 0) return text;
    let j = 0;
    let pos = 0;
    let out = '';
    if (text.startsWith('?')) {
      if (text[1] === '?') {
        out += platform.quoteIdentifier(values[j++] as string);
        pos = 2;
      } else {
        out += literal(values[j++]);
        pos = 1;
      }
    }
    while (pos < text.length) {
      const idx = text.indexOf('?', pos + 1);
      if (idx === -1) {
        out += text.substring(pos);
        break;
      }
      if (text.substring(idx - 1, idx + 1) === '\\?') {
        out += `${text.substring(pos, idx - 1)}?`;
        pos = idx + 1;
      } else if (text.substring(idx, idx + 2) === '??') {
        out += text.substring(pos, idx) + platform.quoteIdentifier(values[j++] as string);
        pos = idx + 2;
      } else {
        out += text.substring(pos, idx) + literal(values[j++]);
        pos = idx + 1;
      }
    }
    return out;
  };
  return { sql: format(sql, params), parameters };
}
