import { describe, expect, it } from 'vitest';
import { LineSplitter } from './LineSplitter.ts';

function split(maxBytes: number, chunks: (string | Buffer)[], end = true): [string, boolean][] {
  const lines: [string, boolean][] = [];
  const splitter = new LineSplitter(maxBytes, (line, cut) => lines.push([line, cut]));
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  if (end) splitter.end();
  return lines;
}

describe('LineSplitter', () => {
  it('splits on newlines across chunks, dropping a trailing \\r, and hands on a last unterminated line at the end', () => {
    expect(split(100, ['one\ntw', 'o\r\nthr', 'ee'])).toEqual([
      ['one', false],
      ['two', false],
      ['three', false],
    ]);
    expect(split(100, ['a\n\nb\n'])).toEqual([
      ['a', false],
      ['', false],
      ['b', false],
    ]);
    expect(split(100, ['unfinished'], false)).toEqual([]);
  });

  it('hands on a long line as its first maxBytes + 1 bytes, at once, and skips the rest of it', () => {
    const lines: [string, boolean][] = [];
    const splitter = new LineSplitter(8, (line, cut) => lines.push([line, cut]));
    splitter.push(Buffer.from('0123456'));
    expect(lines).toEqual([]);
    splitter.push(Buffer.from('789abcdef'));
    // Handed on before the line ends, so nothing of it waits in memory.
    expect(lines).toEqual([['012345678', true]]);
    splitter.push(Buffer.from('more of the same line'));
    splitter.push(Buffer.from(' still\nnext\n'));
    expect(lines).toEqual([
      ['012345678', true],
      ['next', false],
    ]);
  });

  it('keeps a line of exactly maxBytes whole', () => {
    expect(split(4, ['abcd\nabcde\n'])).toEqual([
      ['abcd', false],
      ['abcde', true],
    ]);
  });

  it('decodes a character cut at the limit as a replacement character (capRunLogLine then cuts it off)', () => {
    const [[line, cut]] = split(4, ['ééé\n']) as [[string, boolean]];
    expect(cut).toBe(true);
    expect(line).toBe('éé\uFFFD');
  });
});
