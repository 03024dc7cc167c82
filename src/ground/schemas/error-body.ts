import { ERROR_STATUS } from '../errors.ts';
import { z } from './openapi.ts';

/** The JSON body of every error, `{ error, message, details? }` with one code per status (the contract's decision); one component, referenced by every error response. */
export const ErrorBody = z
  .object({
    error: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS]).describe('The error code; one per HTTP status.'),
    message: z.string().describe('One sentence a person can act on.'),
    details: z
      .array(z.object({ path: z.string().describe('The offending field, dotted (`icp.industries.0`); empty for the whole body.'), message: z.string() }))
      .optional()
      .describe('For invalid_input: one entry per offending field.'),
    requestId: z.string().optional().describe('The X-Request-Id of the failed request; quote it when reporting a problem.'),
  })
  .openapi('Error');
