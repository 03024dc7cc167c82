import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.ts';
import type { WatchView } from '../../src/ground/schemas/watch.ts';
import { clientAddress, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { recordingNamespace } from '../helpers/recording-namespace.ts';
import { executionContext } from '../helpers/recording-sessions.ts';
import { GLOBEX_WATCH } from './helpers.ts';

/**
 * A watch's object is created with the location hint of its organization's region: the options of
 * the namespace's `getByName` that creates it are recorded on the real WATCHES binding.
 */

async function createRecorded(regions: string[]) {
  const org = await createOrganization({ profile: { ...FINISHED_PROFILE, icp: { ...FINISHED_PROFILE.icp, regions } } });
  const { namespace, gets } = recordingNamespace(env.WATCHES);
  const { ctx, settled } = executionContext();
  const request = new Request('https://recon.test/api/v1/oms/watches', {
    method: 'POST',
    headers: { Authorization: `Bearer ${org.key}`, 'Content-Type': 'application/json', 'CF-Connecting-IP': clientAddress() },
    body: JSON.stringify(GLOBEX_WATCH),
  });
  const response = await worker.fetch(request, { ...env, WATCHES: namespace } as Env, ctx);
  await settled();
  expect(response.status, await response.clone().text()).toBe(201);
  const { id } = await response.json<WatchView>();
  return gets.filter((get) => get.object === id);
}

describe('where a watch is created', () => {
  it('an organization selling in APAC gets its watch created with the hint apac', async () => {
    expect(await createRecorded(['Asia-Pacific'])).toEqual([{ method: 'getByName', object: expect.stringMatching(/^wch_/), options: { locationHint: 'apac' } }]);
  });

  it('an organization whose regions name no known place gets no hint', async () => {
    const gets = await createRecorded(['Global']);
    expect(gets).toHaveLength(1);
    expect(gets[0]!.options?.locationHint).toBeUndefined();
  });
});
