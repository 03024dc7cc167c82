import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { getProfile, putProfile } from '../operations/profile.ts';
import { SalesProfileInput } from '../ground/schemas/profile.ts';
import type { AppEnv } from '../env.ts';
import { readJsonObject } from './json-body.ts';
import { documentedBody, errors, json, KEYED } from './openapi-parts.ts';

export const profile = new OpenAPIHono<AppEnv>();

const ProfileView = z
  .object({
    profile: SalesProfileInput,
    complete: z.boolean().describe('True once onboarding is finished and commands run.'),
    missing: z.array(z.string()).describe('Fields still needed to finish onboarding, e.g. "icp.regions".'),
    updatedAt: z.string().nullable(),
  })
  .openapi('ProfileView');

profile.openapi(
  createRoute({
    method: 'get',
    path: '/',
    operationId: 'getProfile',
    summary: "The organization's sales profile and whether onboarding is finished",
    'x-required-scope': 'commands',
    responses: { 200: json('The profile', ProfileView), ...errors(...KEYED) },
  }),
  async (c) => c.json(await getProfile(c.var.core), 200),
);

profile.openapi(
  createRoute({
    method: 'put',
    path: '/',
    operationId: 'putProfile',
    summary: 'Replace the sales profile',
    description: 'Takes the whole profile and replaces the stored one. Commands run once companyName, domain, offering and every icp list are set; the answer lists what is still missing.',
    'x-required-scope': 'commands',
    request: {
      body: documentedBody(profile, 'SalesProfile', SalesProfileInput, {
        required: true,
        example: {
          companyName: 'Acme Analytics',
          domain: 'acme.com',
          offering: 'Product analytics for B2B SaaS teams',
          icp: { industries: ['SaaS'], companySizes: ['51-200'], regions: ['North America'], personas: ['VP Product'] },
        },
      }),
    },
    responses: { 200: json('The stored profile', ProfileView), ...errors(400, ...KEYED, 413) },
  }),
  async (c) => c.json(await putProfile(c.var.core, await readJsonObject(c)), 200),
);
