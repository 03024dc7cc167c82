import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ResearchSource } from '../../src/research/provider.ts';
import { speakerOf, speakersOf } from '../../src/research/speakers.ts';
import { createOrganization } from '../helpers/fixtures.ts';
import { importMarket } from '../helpers/market.ts';

const source = (url: string): ResearchSource => ({ url, title: 't', domain: new URL(url).hostname });
const SOURCES = [
  source('https://globex.com/pricing'),
  source('https://blog.globex.com/launch'),
  source('https://acme.com/compare'),
  source('https://initech.io/notes'),
  source('https://reviewhub.example/globex'),
];

describe('who says it', () => {
  it('reads the subject companies with their names, and which cited domains are vendors', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const speakers = await speakersOf(env.DB, org.id, ['globex.com'], SOURCES, 'initech.io');
    expect(speakers).toEqual({ subjects: [{ domain: 'globex.com', name: 'Globex' }], vendors: ['acme.com', 'initech.io'] });
    expect(SOURCES.map((s) => speakerOf(s.domain, speakers))).toEqual([
      { kind: 'subject', subject: 'globex.com' },
      { kind: 'subject', subject: 'globex.com' },
      { kind: 'vendor' },
      { kind: 'vendor' },
      { kind: 'third-party' },
    ]);
  });

  it("knows only the organization's own companies", async () => {
    const withMarket = await createOrganization();
    await importMarket(withMarket.key);
    const other = await createOrganization();
    expect(await speakersOf(env.DB, other.id, ['globex.com'], SOURCES)).toEqual({ subjects: [], vendors: [] });
  });
});
