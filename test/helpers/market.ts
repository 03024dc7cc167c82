import { call } from './fixtures.ts';

/** A small market for tests: Acme, its rivals, and sources about pricing, customers and competition. */
export const MARKET_LINES = [
  { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } },
  { type: 'company', key: 'globex.com', properties: { name: 'Globex' } },
  {
    type: 'source',
    key: 'https://acme.com/pricing',
    properties: {
      title: 'Acme Analytics pricing',
      publishedAt: '2026-04-02',
      content:
        'Acme Analytics offers three plans. The Starter plan costs $19 per seat per month and includes five dashboards. ' +
        'The Team plan costs $49 per seat per month and adds unlimited dashboards. Enterprise pricing is quoted per contract. ' +
        'Every plan includes a 14-day free trial.',
    },
  },
  {
    type: 'source',
    key: 'https://acme.com/customers',
    properties: {
      title: 'Acme Analytics customers',
      publishedAt: '2026-05-20',
      content:
        'Acme Analytics serves SaaS companies with 51-200 employees in North America. Product teams at 400 customers use Acme Analytics every day. ' +
        'A VP Product at Northwind said Acme Analytics cut reporting time by 40 percent.',
    },
  },
  {
    type: 'source',
    key: 'https://reviewhub.example/acme-analytics',
    properties: {
      title: 'Acme Analytics review',
      publishedAt: '2026-06-10',
      content:
        'Reviewers at SaaS companies say Acme Analytics pricing is fair for small teams. One VP Product wrote that the Team plan paid for itself within a quarter. ' +
        'Several reviewers compared Acme Analytics with Globex and found Globex more expensive.',
    },
  },
  {
    type: 'source',
    key: 'https://globex.com/blog/launch',
    properties: {
      title: 'Globex launches Insights',
      publishedAt: '2026-03-15',
      content: 'Globex launched Insights, a product analytics suite for manufacturers. Globex Insights pricing starts at $99 per seat per month.',
    },
  },
];

/** Imports MARKET_LINES into the organization of `key`. */
export async function importMarket(key: string): Promise<void> {
  const body = MARKET_LINES.map((line) => JSON.stringify(line)).join('\n');
  const response = await call('/api/v1/oms/objects/import', { key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  if (response.status !== 200) throw new Error(`import failed: ${response.status} ${await response.text()}`);
}
