import type { FieldError } from '@browserdeck/domain';
import type { z } from 'zod';

/** A dotted field path: `metadata.name`, `tags.0`; the whole input is `''`. */
function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * zod issues as field errors. An unknown field (strict objects) becomes one error named after the field
 * itself, so a client that sent `timeout` reads `{ path: "timeout", message: "is not a known field" }`.
 */
export function toFieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue): FieldError[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: joinPath([...issue.path, key]),
        message: 'is not a known field',
      }));
    }
    if (issue.code === 'invalid_type' && issue.path.length === 0 && issue.input === undefined) {
      return [{ path: '', message: 'a JSON body is required' }];
    }
    return [{ path: joinPath(issue.path), message: issue.message }];
  });
}
