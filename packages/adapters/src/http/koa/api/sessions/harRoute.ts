import type { HarDocument } from '@browserdeck/domain';
import type { z } from 'zod';
import { SessionHarQuery, SessionHarSchema } from './sessionSchemas.ts';

/** What both dialects' `…/har` routes declare alike (SPEC §18): the query, the answer, the errors. */
export const HAR_ROUTE = {
  method: 'GET',
  role: 'viewer',
  query: SessionHarQuery,
  responses: { 200: { description: 'The HAR document.', schema: SessionHarSchema } },
  errors: ['not_found', 'not_implemented'],
} as const;

/**
 * The answer of a `…/har` route. The provider's capture builds HAR 1.2 (the domain types its `log`
 * loosely, as a provider's document); the response schema is its contract.
 */
export async function answerHar(
  har: Promise<HarDocument>,
): Promise<{ status: 200; body: z.infer<typeof SessionHarSchema> }> {
  return { status: 200, body: (await har) as z.infer<typeof SessionHarSchema> };
}
