import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index.ts';
import { clientAddress, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';
import { recordingNamespace, type ObjectGet } from '../helpers/recording-namespace.ts';
import { executionContext } from '../helpers/recording-sessions.ts';

/**
 * A run's object is created with the location hint of its organization's region (the first of the
 * profile's icp.regions that maps): the options of the namespace's `get` that creates it are
 * recorded on the real RUNS binding.
 */

async function organizationIn(regions: string[]) {
  return createOrganization({ profile: { ...FINISHED_PROFILE, icp: { ...FINISHED_PROFILE.icp, regions } } });
}

/** Starts `command` through the REST door with RUNS recorded; the run's id and the gets of its object. */
async function startRecorded(key: string, command: 'gtm-audit' | 'audit'): Promise<{ id: string; gets: ObjectGet[] }> {
  const { namespace, gets } = recordingNamespace(env.RUNS);
  const { ctx, settled } = executionContext();
  const request = new Request(`https://recon.test/api/v1/commands/${command}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'CF-Connecting-IP': clientAddress() },
    body: '{}',
  });
  const response = await worker.fetch(request, { ...env, RUNS: namespace } as Env, ctx);
  await settled();
  expect(response.status, await response.clone().text()).toBe(202);
  const id = response.headers.get('X-Run-Id')!;
  return { id, gets: gets.filter((get) => get.object === id) };
}

describe('where a run is created', () => {
  it.each(['gtm-audit', 'audit'] as const)('a %s of an organization selling in EMEA first is created with the hint weur', async (command) => {
    const org = await organizationIn(['EMEA', 'North America']);
    const { gets } = await startRecorded(org.key, command);
    expect(gets).toEqual([{ method: 'get', object: expect.any(String), options: { locationHint: 'weur' } }]);
  });

  it('an organization whose regions name no known place gets no hint', async () => {
    const org = await organizationIn(['Worldwide']);
    const { gets } = await startRecorded(org.key, 'gtm-audit');
    expect(gets).toHaveLength(1);
    expect(gets[0]!.options?.locationHint).toBeUndefined();
  });
});
