import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, CHUNK_WRITES, importObjects } from '../../src/oms/import.ts';
import { splitPassages } from '../../src/research/text.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { recordingD1 } from '../helpers/recording-d1.ts';
import { contextFor, ndjson, rowsOf } from './import-helpers.ts';

/** D1's limit on one string or row: a bound parameter over it makes the whole batch fail. */
const D1_MAX_STRING_BYTES = 2_000_000;

describe('the D1 work of one import', () => {
  it('binds no parameter over D1\'s 2 MB, even for a source whose passages repeat a long key and title', async () => {
    const org = await createOrganization();
    // 2,000 'é' percent-encode to a 12 KB key, and each of ~330 passages carries the key and the title.
    const key = `https://acme.com/${'é'.repeat(2_000)}`;
    const content = 'Acme ships weekly releases with new dashboards for product teams everywhere. '.repeat(2_590);
    const source = { type: 'source', key, properties: { title: 'ア'.repeat(500), content } };
    const { db, work } = recordingD1(env.DB);
    const result = await importObjects(contextFor(org, db), ndjson(source));

    expect(result).toMatchObject({ imported: 1, failed: 0 });
    expect(work.largestParameterBytes).toBeLessThanOrEqual(D1_MAX_STRING_BYTES);
    expect(await rowsOf(org.id)).toMatchObject({ objects: 1, passages: splitPassages(content.trim()).length });
  });

  it(`sends at most ${CHUNK_WRITES} writes or ${CHUNK_BYTES / 1024} KiB of new data per transaction`, async () => {
    const org = await createOrganization();
    const companies = Array.from({ length: 1_200 }, (_, i) => ({ type: 'company', key: `c${i}.com`, properties: { name: `C ${i}` } }));
    const { db, work } = recordingD1(env.DB);
    const result = await importObjects(contextFor(org, db), ndjson(...companies));
    expect(result).toMatchObject({ imported: 1_200, failed: 0 });
    // 1,200 writes in chunks of 500: three chunks, each one read and one write batch.
    expect(work.batches).toBe(6);
    expect(await rowsOf(org.id)).toMatchObject({ objects: 1_200 });
  });
});
