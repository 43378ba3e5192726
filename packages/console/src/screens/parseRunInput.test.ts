import { describe, expect, it } from 'vitest';
import { parseRunInput, RUN_INPUT_MAX_BYTES } from './parseRunInput.ts';

describe('parseRunInput', () => {
  it('sends no input for an empty editor, and any JSON value as parsed', () => {
    expect(parseRunInput('')).toEqual({ ok: true, input: undefined });
    expect(parseRunInput('  \n ')).toEqual({ ok: true, input: undefined });
    expect(parseRunInput('{"url": "https://example.com/", "n": [1, 2]}')).toEqual({
      ok: true,
      input: { url: 'https://example.com/', n: [1, 2] },
    });
    expect(parseRunInput('"text"')).toEqual({ ok: true, input: 'text' });
    expect(parseRunInput('null')).toEqual({ ok: true, input: null });
    expect(parseRunInput('0')).toEqual({ ok: true, input: 0 });
  });

  it('refuses what is not JSON, saying so', () => {
    const parsed = parseRunInput("{ url: 'x' }");
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(/^Not valid JSON: /);
    expect(parseRunInput('{"a": 1} trailing').ok).toBe(false);
  });

  it('refuses more than 64 KiB of JSON once encoded, counting UTF-8 bytes', () => {
    const atLimit = JSON.stringify('x'.repeat(RUN_INPUT_MAX_BYTES - 2));
    expect(parseRunInput(atLimit)).toEqual({ ok: true, input: 'x'.repeat(RUN_INPUT_MAX_BYTES - 2) });
    expect(parseRunInput(JSON.stringify('x'.repeat(RUN_INPUT_MAX_BYTES - 1)))).toEqual({
      ok: false,
      message: 'Too large: 65 KiB of JSON, at most 64 KiB.',
    });
    // 'é' is one character and two bytes.
    expect(parseRunInput(JSON.stringify('é'.repeat(RUN_INPUT_MAX_BYTES / 2))).ok).toBe(false);
  });
});
