import { describe, expect, it } from 'vitest';
import { jsonTextProblem, TEXT_RULE_MESSAGES, textProblem } from './textRules.ts';

const char = (code: number) => String.fromCharCode(code);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const CONTROLS = [...range(0x00, 0x1f), ...range(0x7f, 0x9f)];

describe('textProblem', () => {
  it('refuses every C0 and C1 control character and DEL in a name, wherever it stands', () => {
    for (const code of CONTROLS) {
      for (const value of [char(code), `a${char(code)}`, `${char(code)}a`, `a${char(code)}b`]) {
        expect(textProblem(value, 'name'), `U+${code.toString(16)}`).toBe(TEXT_RULE_MESSAGES.name);
      }
    }
  });

  it('accepts the neighbours of the control ranges and everything above them', () => {
    for (const value of [' ', '~', '\u00a0', '\u00ff', '\u2028', '\ufeff', '😀', 'a\u0301']) {
      expect(textProblem(value, 'name')).toBeUndefined();
    }
  });

  it('lets free text hold tab, line feed and carriage return, and nothing else below U+0020', () => {
    expect(textProblem('line 1\r\n\tline 2\n', 'text')).toBeUndefined();
    for (const code of CONTROLS.filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d)) {
      expect(textProblem(`a${char(code)}`, 'text'), `U+${code.toString(16)}`).toBe(TEXT_RULE_MESSAGES.text);
    }
  });

  it('lets opaque values hold every control character but NUL', () => {
    for (const code of CONTROLS.filter((c) => c !== 0)) {
      expect(textProblem(`a${char(code)}`, 'opaque')).toBeUndefined();
    }
    expect(textProblem('a\u0000', 'opaque')).toBe(TEXT_RULE_MESSAGES.opaque);
  });

  it('refuses unpaired surrogates in every kind, and accepts paired ones', () => {
    for (const kind of ['name', 'text', 'opaque'] as const) {
      for (const value of ['\ud800', 'a\udfff', '\udc00\ud800', 'x\ud83d']) {
        expect(textProblem(value, kind)).toBe(TEXT_RULE_MESSAGES.surrogate);
      }
      expect(textProblem('\ud83d\ude00', kind)).toBeUndefined();
    }
  });
});

describe('jsonTextProblem', () => {
  it('finds NUL in nested strings and keys and says where', () => {
    expect(jsonTextProblem({ a: { b: ['ok', 'x\u0000'] } })).toBe(`${TEXT_RULE_MESSAGES.opaque} (at a.b[1])`);
    expect(jsonTextProblem({ a: { 'k\u0000': 1 } })).toBe(`${TEXT_RULE_MESSAGES.opaque} in a key (at a)`);
    expect(jsonTextProblem({ s: '\ud800' })).toBe(`${TEXT_RULE_MESSAGES.surrogate} (at s)`);
    expect(jsonTextProblem({ l: [{ x: 'ok' }, { y: '\u0000' }] })).toBe(
      `${TEXT_RULE_MESSAGES.opaque} (at l[1].y)`,
    );
    expect(jsonTextProblem(['\u0000'])).toBe(`${TEXT_RULE_MESSAGES.opaque} (at [0])`);
    expect(jsonTextProblem('\u0000')).toBe(TEXT_RULE_MESSAGES.opaque);
  });

  it('accepts other control characters, numbers, booleans and null', () => {
    expect(jsonTextProblem({ a: 'tab\tbell\u0007', n: 1, t: true, z: null, l: [[]] })).toBeUndefined();
  });

  it('walks very deep values without exhausting the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonTextProblem({ deep })).toMatch(/^must not contain NUL/);
  });
});
