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
    // A union (`true` or an array of proxies) whose value is of one branch's type only: that
    // branch's own errors, which name the field at fault, rather than "not any of the branches".
    if (issue.code === 'invalid_union') {
      const fitting = issue.errors.filter(
        (branch) => !branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
      );
      const [only] = fitting;
      if (fitting.length === 1 && only && only.length > 0) {
        return toFieldErrors(only.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
      }
    }
    return [{ path: joinPath(issue.path), message: issue.message }];
  });
}
