import { Hono } from 'hono';
import { z } from 'zod';
import { getProfile, putProfile } from '../core/profile.ts';
import { SalesProfileInput } from '../core/schemas/profile.ts';
import type { AppEnv } from '../env.ts';
import { readJsonObject } from './json-body.ts';
import type { ApiOperation } from './openapi-types.ts';

export const profile = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await getProfile(c.var.core)))
  .put('/', async (c) => c.json(await putProfile(c.var.core, await readJsonObject(c))));

const ProfileView = z.object({
  profile: SalesProfileInput,
  complete: z.boolean().describe('True once onboarding is finished and commands run.'),
  missing: z.array(z.string()).describe('Fields still needed to finish onboarding, e.g. "icp.regions".'),
  updatedAt: z.string().nullable(),
});

export const profileOperations: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/profile',
    operationId: 'getProfile',
    summary: "The organization's sales profile and whether onboarding is finished",
    auth: 'key',
    scope: 'commands',
    responses: { 200: { description: 'The profile', contentType: 'application/json', schema: ProfileView } },
  },
  {
    method: 'put',
    path: '/api/v1/profile',
    operationId: 'putProfile',
    summary: 'Replace the sales profile; commands run once companyName, domain, offering and every ICP list are set',
    auth: 'key',
    scope: 'commands',
    requestBody: {
      schema: SalesProfileInput,
      example: {
        companyName: 'Acme Analytics',
        domain: 'acme.com',
        offering: 'Product analytics for B2B SaaS teams',
        icp: { industries: ['SaaS'], companySizes: ['51-200'], regions: ['North America'], personas: ['VP Product'] },
      },
    },
    responses: { 200: { description: 'The stored profile', contentType: 'application/json', schema: ProfileView } },
  },
];
