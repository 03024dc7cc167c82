import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ResearchSource } from '../../src/research/provider.ts';
import { speakerOf, speakersIn, topicSpeakers } from '../../src/research/speakers.ts';
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
    const speakers = await topicSpeakers(env.DB, org.id, 'Globex pricing changes', SOURCES, { ownDomain: 'initech.io' });
    expect(speakers).toEqual({ subjects: [{ domain: 'globex.com', name: 'Globex' }], vendors: ['acme.com', 'initech.io'], named: ['globex.com'] });
    expect(SOURCES.map((s) => speakerOf(s.domain, speakers))).toEqual([
      { kind: 'subject', subject: 'globex.com' },
      { kind: 'subject', subject: 'globex.com' },
      { kind: 'vendor' },
      { kind: 'vendor' },
      { kind: 'third-party' },
    ]);
  });

  it("knows only the organization's own companies; a named company's own site is its own even unstored", async () => {
    const withMarket = await createOrganization();
    await importMarket(withMarket.key);
    const other = await createOrganization();
    // No company object in `other`: nothing is linked, acme.com is no known vendor, yet globex.com,
    // the site of the company the topic names, speaks for it (named as the topic writes it).
    const speakers = await topicSpeakers(env.DB, other.id, 'GloBex pricing changes', SOURCES);
    expect(speakers).toEqual({ subjects: [{ domain: 'globex.com', name: 'GloBex' }], vendors: [], named: [] });
    expect(speakerOf('blog.globex.com', speakers)).toEqual({ kind: 'subject', subject: 'globex.com' });
    expect(speakerOf('reviewhub.example', speakers)).toEqual({ kind: 'third-party' });
  });

  it('takes an unstored company\'s own site by its whole name or a long first word, never by a short or lower-case word', () => {
    const cited = [source('https://harvestlane.com/story'), source('https://acme.com/pricing'), source('https://pricing.com/x'), source('https://ab.io/x')];
    expect(speakersIn([], 'Harvest Lane spoilage results', cited).subjects).toEqual([{ domain: 'harvestlane.com', name: 'Harvest Lane' }]);
    expect(speakersIn([], 'Acme Analytics pricing', cited).subjects).toEqual([{ domain: 'acme.com', name: 'Acme Analytics' }]);
    // "pricing" is not a name (lower case); "Ab" is too short to stand for ab.io.
    expect(speakersIn([], 'Ab Testing pricing', cited).subjects).toEqual([]);
  });

  it('names companies by domain or name, and takes a given subject whether or not the topic names it', async () => {
    const org = await createOrganization();
    await importMarket(org.key);
    const byDomain = await topicSpeakers(env.DB, org.id, 'what does acme.com charge', SOURCES);
    expect(byDomain.named).toEqual(['acme.com']);
    expect(byDomain.subjects).toEqual([{ domain: 'acme.com', name: 'Acme Analytics' }]);
    expect(byDomain.vendors).toEqual(['globex.com']);
    const given = await topicSpeakers(env.DB, org.id, 'pricing changes', SOURCES, { given: ['globex.com'] });
    expect(given).toEqual({ subjects: [{ domain: 'globex.com', name: 'Globex' }], vendors: ['acme.com'], named: [] });
  });

  it('names a company by its name in any ASCII case, by its domain, and never by an empty name', () => {
    const companies = [{ key: 'globex.com', name: 'Globex' }, { key: 'blank.io', name: '' }, { key: 'acme.com' }];
    expect(speakersIn(companies, 'GLOBEX and ACME.COM pricing', []).named).toEqual(['globex.com', 'acme.com']);
    expect(speakersIn(companies, 'pricing', []).named).toEqual([]);
  });
});
