import * as z from 'zod/mini';
import { CHOOSE_SIZE_ID, idOrText } from './fields.ts';

/*
 * The team buy's request bodies (browser-safe). Today's clients post the start with no body: a
 * product with one size needs none, and the domain names the sizes when a product has several.
 */

/** POST /api/products/{id}/teams: the size the team is for (issue 38). */
export const teamStartBody = z.object({ variantId: z.optional(z.nullable(idOrText(CHOOSE_SIZE_ID))) }, { error: 'Send the team as a JSON object.' });

export type TeamStartBody = z.output<typeof teamStartBody>;
