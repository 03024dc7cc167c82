import { describe, expect, it } from 'vitest';
import type { ResearchResult } from '../../src/research/provider.ts';
import { extractCompanyFacts, isNews } from '../../src/watches/facts.ts';

function result(sentences: string[]): ResearchResult {
  return {
    engine: 'embedded',
    sources: sentences.map((_, i) => ({ url: `https://s${i}.example/page`, title: `S${i}`, domain: `s${i}.example` })),
    findings: sentences.map((sentence, source) => ({ sentence, source })),
  };
}

const GLOBEX = { key: 'globex.com', name: 'Globex' };

describe('the facts a watch takes from its brief', () => {
  it('reads founded, headquarters, employees and pricing from sentences whose subject is the company, with their source', () => {
    const facts = extractCompanyFacts(
      GLOBEX,
      result([
        'Globex was founded in 2009, is headquartered in Chicago, Illinois and employs about 1,450 people.',
        'Globex pricing starts at $49 per seat per month on the Team plan.',
      ]),
    );
    expect(facts).toEqual({
      founded: { value: 2009, url: 'https://s0.example/page', sentence: expect.any(String) },
      headquarters: { value: 'Chicago, Illinois', url: 'https://s0.example/page', sentence: expect.any(String) },
      employees: { value: 1450, url: 'https://s0.example/page', sentence: expect.any(String) },
      pricing: { value: 'Globex pricing starts at $49 per seat per month on the Team plan.', url: 'https://s1.example/page', sentence: expect.any(String) },
    });
  });

  it('takes nothing from sentences about someone else, or that only mention the company', () => {
    const facts = extractCompanyFacts(
      GLOBEX,
      result([
        'Acme Analytics is the better fit for companies with 50 to 1,000 employees, while Globex suits enterprises with more than 2,000 employees.',
        'Globex is the best alternative for enterprises with more than 2,000 employees.',
        'Globex is hiring a Product Manager based in Chicago or New York.',
        'Globex acquired Tracelight, a 40-person company based in Copenhagen.',
        'Globexia was founded in 1999.',
        'Analysts say Globex was founded in 2011.',
      ]),
    );
    expect(facts).toEqual({});
  });

  it('keeps the first (highest ranked) sentence per fact, and refuses impossible years', () => {
    const facts = extractCompanyFacts(GLOBEX, result(['Globex was founded in 3020.', 'Globex has 1,450 employees.', 'Globex has 99 employees.']), new Date('2026-11-23'));
    expect(facts.founded).toBeUndefined();
    expect(facts.employees?.value).toBe(1450);
  });

  it('matches the company by its domain too', () => {
    expect(extractCompanyFacts(GLOBEX, result(['globex.com is based in Chicago.'])).headquarters?.value).toBe('Chicago');
  });

  it('does not replace a more precise stored text, nor an equal number', () => {
    expect(isNews('Chicago, Illinois, United States', 'Chicago, Illinois')).toBe(false);
    expect(isNews('Springfield', 'Chicago, Illinois')).toBe(true);
    expect(isNews(1450, 1450)).toBe(false);
    expect(isNews(undefined, 1450)).toBe(true);
  });
});
