import { describe, expect, it } from 'vitest';
import { ValidationError } from '../shared/DomainError.ts';
import { parseMetadataQuery } from './metadataQuery.ts';
import { METADATA_FILTER_MAX_LENGTH } from './metadataRules.ts';

describe('parseMetadataQuery', () => {
  it.each([
    [`user_metadata['env']:'staging'`, ['env'], 'staging'],
    [`user_metadata["env"]:"staging"`, ['env'], 'staging'],
    [`user_metadata['order']['status']:'shipped'`, ['order', 'status'], 'shipped'],
    [`user_metadata["a"]['b']["c"]:'deep'`, ['a', 'b', 'c'], 'deep'],
    [`  user_metadata [ 'env' ] : 'staging'  `, ['env'], 'staging'],
    [`user_metadata['stagehand']:'true'`, ['stagehand'], 'true'],
    [`user_metadata['count']:'5'`, ['count'], '5'],
    [`user_metadata['']:''`, [''], ''],
    [`user_metadata['it\\'s']:'a "quoted" \\\\ value'`, ["it's"], 'a "quoted" \\ value'],
    [`user_metadata["say \\"hi\\""]:"don't"`, ['say "hi"'], "don't"],
    [`user_metadata['a.b[0]']:'x:y]['`, ['a.b[0]'], 'x:y]['],
    [`user_metadata['é ✓ 🚀']:'line\nbreak'`, ['é ✓ 🚀'], 'line\nbreak'],
    [`user_metadata['k']:'\\n'`, ['k'], 'n'],
  ])('reads %s', (q, path, value) => {
    expect(parseMetadataQuery(q)).toEqual({ path, value });
  });

  it.each([
    ``,
    `   `,
    `env:'staging'`,
    `metadata['env']:'staging'`,
    `User_Metadata['env']:'staging'`,
    `user_metadata:'staging'`,
    `user_metadata['env']`,
    `user_metadata['env']:`,
    `user_metadata['env']:staging`,
    `user_metadata[env]:'staging'`,
    `user_metadata.env:'staging'`,
    `user_metadata['env':'staging'`,
    `user_metadata['env']'x']:'staging'`,
    `user_metadata['env"]:'staging'`,
    `user_metadata['env']:'staging`,
    `user_metadata['env']:'staging\\'`,
    `user_metadata['env']:'staging' extra`,
    `user_metadata['env']:'a' AND user_metadata['b']:'c'`,
    `user_metadata['env']='staging'`,
    `user_metadata['env']:'staging':'x'`,
  ])('refuses %j with validation_failed on q', (q) => {
    let error: unknown;
    try {
      parseMetadataQuery(q);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'q' }] });
    expect((error as ValidationError).message).toMatch(/^q: .*user_metadata\['key'\]:'value'/);
  });

  it('refuses keys or values no stored metadata could hold, and overlong ones', () => {
    for (const q of [
      `user_metadata['a\u0000b']:'x'`,
      `user_metadata['a']:'\ud800'`,
      `user_metadata['a']:'${'x'.repeat(METADATA_FILTER_MAX_LENGTH)}'`,
    ]) {
      expect(() => parseMetadataQuery(q), q.slice(0, 30)).toThrow(ValidationError);
      try {
        parseMetadataQuery(q);
      } catch (error) {
        expect(error).toMatchObject({ errors: [{ path: 'q' }] });
      }
    }
    expect(
      parseMetadataQuery(`user_metadata['a']:'${'x'.repeat(METADATA_FILTER_MAX_LENGTH - 1)}'`).value,
    ).toHaveLength(METADATA_FILTER_MAX_LENGTH - 1);
  });
});
