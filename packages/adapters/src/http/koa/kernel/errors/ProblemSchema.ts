import { z } from 'zod';
import { PROBLEM_CODES } from './problemCodes.ts';

/** One field that failed validation (a problem's `errors`); named `FieldError` in the OpenAPI document. */
export const FieldErrorSchema = z
  .object({
    path: z.string().meta({ description: 'Dotted field path; "" is the whole input.' }),
    message: z.string(),
  })
  .meta({ id: 'FieldError' });

/**
 * RFC 9457 problem details, the body of every error `writeProblem` answers (http-api.md §2); named
 * `Problem` in the OpenAPI document, whose error responses all refer to it.
 */
export const ProblemSchema = z
  .object({
    type: z.string().meta({ description: 'URI reference of the error code in /docs.' }),
    title: z.string(),
    status: z.int(),
    detail: z.string().meta({ description: 'For people; never carries secrets, SQL or stack traces.' }),
    code: z.enum(PROBLEM_CODES).meta({ description: 'Stable, machine-readable error code.' }),
    requestId: z.string().meta({ description: 'The X-Request-Id of the request.' }),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (application/problem+json).' });
