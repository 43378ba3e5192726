/**
 * Marked sections of docs/benchmarks.md: a scenario's section sits between `<!-- bench:NAME -->`
 * and `<!-- /bench:NAME -->`, so a partial run can replace it and leave every other line alone.
 */

const open = (name: string) => `<!-- bench:${name} -->`;
const close = (name: string) => `<!-- /bench:${name} -->`;

/** `markdown` between its markers. */
export function markedSection(name: string, markdown: string): string {
  return `${open(name)}\n${markdown.trimEnd()}\n${close(name)}`;
}

/**
 * `doc` with each section of `sections` (name → marked markdown) put in place of its marked
 * predecessor; a section not there yet goes before the first of `before` (headings or markers) that
 * `doc` contains, else at the end.
 */
export function replaceMarkedSections(
  doc: string,
  sections: Record<string, string>,
  before: string[],
): string {
  let out = doc;
  for (const [name, section] of Object.entries(sections)) {
    const start = out.indexOf(open(name));
    const end = out.indexOf(close(name), start);
    if (start >= 0 && end >= 0) {
      out = out.slice(0, start) + section + out.slice(end + close(name).length);
      continue;
    }
    const at = before.map((b) => out.indexOf(b)).find((i) => i >= 0);
    out =
      at === undefined
        ? `${out.trimEnd()}\n\n${section}\n`
        : `${out.slice(0, at)}${section}\n\n${out.slice(at)}`;
  }
  return out;
}
