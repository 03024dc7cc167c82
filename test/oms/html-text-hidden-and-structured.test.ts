import { describe, expect, it } from 'vitest';
import {
  extractPageText,
  MAX_DROPPED_ELEMENTS,
  MAX_JSON_LD_BLOCKS,
  MAX_JSON_LD_CHARS,
  MAX_JSON_LD_VALUES,
  MAX_OFFERS_PER_PRODUCT,
  MAX_STRUCTURED_CHARS,
  MAX_STRUCTURED_ITEMS,
  PageUnreadable,
} from '../../src/oms/html-text.ts';

const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
const lines = (text: string) => text.split('\n\n');

describe('hidden tab panels', () => {
  it('reads a hidden role="tabpanel" and an aria-hidden one, beside the visible panel', async () => {
    const page = await extractPageText(`<h1>Pricing</h1>
      <div role="tablist"><button role="tab">Monthly</button><button role="tab">Annual</button></div>
      <div role="tabpanel"><p>Team: $49 per month.</p></div>
      <div role="tabpanel" hidden><p>Team: $39 per month, billed annually.</p></div>
      <section role="TabPanel" aria-hidden="true"><p>Enterprise: talk to sales.</p></section>`);
    expect(lines(page.text)).toEqual(['Pricing', 'Team: $49 per month.', 'Team: $39 per month, billed annually.', 'Enterprise: talk to sales.']);
  });

  it('reads a hidden panel that a tab names by aria-controls, led by the tab’s label', async () => {
    const page = await extractPageText(`<div role="tablist">
        <button role="tab" aria-controls="monthly" aria-selected="true">Monthly</button>
        <button role="tab" aria-controls="yearly"><span>Yearly</span> &amp; save</button>
      </div>
      <div id="monthly"><p>Fleet: 1,450 USD per month.</p></div>
      <div id="yearly" hidden><p>Fleet: 1,250 USD per month.</p></div>`);
    expect(lines(page.text)).toEqual(['Fleet: 1,450 USD per month.', 'Yearly & save', 'Fleet: 1,250 USD per month.']);
  });

  it('reads a hidden panel labelled by a tab (aria-labelledby), and labels a role="tabpanel" its tab names', async () => {
    const page = await extractPageText(`<ul role="tablist"><li><a role="tab" id="tab-a" href="#a">Starter</a></li><li><a role="tab" id="tab-b" aria-controls="b" href="#b">Scale &lt;10k&gt;</a></li></ul>
      <div aria-labelledby="tab-a" hidden>Starter is free.</div>
      <div role="tabpanel" id="b" hidden>Scale is $99.</div>`);
    expect(lines(page.text)).toEqual(['Starter', 'Scale <10k>', 'Starter', 'Starter is free.', 'Scale <10k>', 'Scale is $99.']);
  });

  it('still drops a hidden modal, a hidden cookie banner and aria-hidden icons, also inside a read panel', async () => {
    const page = await extractPageText(`<p>Visible.</p>
      <div class="modal" hidden role="dialog"><p>Sign up for our newsletter!</p></div>
      <div id="cookies" aria-hidden="true"><p>We use cookies.</p></div>
      <button role="tab" aria-controls="annual">Annual</button>
      <div role="tabpanel" hidden><span aria-hidden="true">★</span><p>Annual price.</p><div hidden>Tooltip.</div></div>
      <div hidden><div role="tabpanel">A panel inside a hidden modal.</div></div>
      <template id="annual"><p>Template.</p></template>`);
    expect(lines(page.text)).toEqual(['Visible.', 'Annual price.']);
  });

  it('does not keep a hidden element that only a non-tab names (aria-controls of a plain button)', async () => {
    const page = await extractPageText('<button aria-controls="menu">Menu</button><a aria-controls="dialog" href="#">Open</a><div id="menu" hidden>Menu items.</div><div id="dialog" hidden>Dialog.</div><p>Body.</p>');
    expect(page.text).toBe('Open\n\nBody.');
  });

  it('reads hidden="until-found" content (find-in-page reveals it) and closed <details>', async () => {
    const page = await extractPageText(`<div hidden="until-found"><p>Found by search.</p></div>
      <details><summary>Is there a free trial?</summary><p>Yes, 14 days.</p></details>
      <details open><summary>Open one</summary>Shown.</details>`);
    expect(lines(page.text)).toEqual(['Found by search.', 'Is there a free trial?', 'Yes, 14 days.', 'Open one', 'Shown.']);
  });

  it('reads a hidden tab panel holding 100,000 elements in one pass, with no call per element', async () => {
    // A call per element would pass MAX_DROPPED_ELEMENTS and throw PageUnreadable.
    const page = await extractPageText(`<button role="tab" aria-controls="p">Annual</button><div id="p" hidden>${'<div><span>a</span><b>b</b></div>'.repeat(100_000)}</div>`);
    expect(lines(page.text)).toHaveLength(100_001);
    expect(lines(page.text)[0]).toBe('Annual');
  });

  it('stays bounded by MAX_DROPPED_ELEMENTS: a panel of 100,000 hidden elements, 100,000 tabs or a tab of 100,000 text nodes is refused', async () => {
    await expect(extractPageText(`<div role="tabpanel" hidden>${'<i hidden>x</i>'.repeat(100_000)}</div>`)).rejects.toThrow(PageUnreadable);
    await expect(extractPageText(`${'<a role="tab" aria-controls="p">t</a>'.repeat(100_000)}<div id="p" hidden>x</div>`)).rejects.toThrow(PageUnreadable);
    await expect(extractPageText(`<a role="tab">${'<b>x</b>'.repeat(100_000)}</a>`)).rejects.toThrow(PageUnreadable);
    // A tab costs a call, and its text two (the text, then the end of the text node): 5,000 tabs stay within.
    const tabs = `${'<a role="tab">t</a>'.repeat(MAX_DROPPED_ELEMENTS / 4)}`;
    expect((await extractPageText(`${tabs}<p>End.</p>`)).text.endsWith('End.')).toBe(true);
  });

  it('keeps a tab label short and never reads a tab’s label as markup', async () => {
    const page = await extractPageText(`<button role="tab" aria-controls="p">${'Long '.repeat(1_000)}</button><div id="p" hidden>Body.</div><button role="tab" aria-controls="q">&lt;img src=x onerror=alert(1)&gt;</button><div id="q" hidden>Q.</div>`);
    const [label, body, evil, q] = lines(page.text);
    expect(label!.length).toBeLessThanOrEqual(100);
    expect(body).toBe('Body.');
    expect(evil).toBe('<img src=x onerror=alert(1)>');
    expect(q).toBe('Q.');
  });
});

describe('JSON-LD', () => {
  it('writes a Product’s offers as price lines after the page text, and returns them as structured data', async () => {
    const page = await extractPageText(`<title>Pricing</title><p>Plans for every fleet.</p>${ld({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Fleet plan',
      offers: [
        { '@type': 'Offer', price: 1450, priceCurrency: 'USD', priceSpecification: { '@type': 'UnitPriceSpecification', price: 1450, priceCurrency: 'USD', unitText: 'month' } },
        { '@type': 'Offer', name: 'Annual', priceCurrency: 'EUR', priceSpecification: { '@type': 'UnitPriceSpecification', price: '14000', referenceQuantity: { '@type': 'QuantitativeValue', value: 1, unitCode: 'ANN' } } },
        { '@type': 'Offer', name: 'Quarterly', price: '4000.00', priceCurrency: 'USD', priceSpecification: { billingDuration: 'P3M' } },
        { '@type': 'AggregateOffer', lowPrice: 10, highPrice: 50, priceCurrency: 'USD' },
        { '@type': 'Offer', name: 'Per seat', price: 9, priceCurrency: 'USD', priceSpecification: { unitText: 'per user per month' } },
        { '@type': 'Offer', name: 'No price' },
      ],
    })}`);
    expect(lines(page.text)).toEqual([
      'Plans for every fleet.',
      'Fleet plan: 1450 USD per month.',
      'Fleet plan, Annual: 14000 EUR per year.',
      'Fleet plan, Quarterly: 4000.00 USD per 3 month.',
      'Fleet plan: 10 to 50 USD.',
      'Fleet plan, Per seat: 9 USD per user per month.',
    ]);
    expect(page.title).toBe('Pricing');
    expect(page.structured?.products).toEqual([
      {
        name: 'Fleet plan',
        offers: [
          { price: '1450', currency: 'USD', unit: 'month' },
          { name: 'Annual', price: '14000', currency: 'EUR', unit: 'year' },
          { name: 'Quarterly', price: '4000.00', currency: 'USD', unit: '3 month' },
          { lowPrice: '10', highPrice: '50', currency: 'USD' },
          { name: 'Per seat', price: '9', currency: 'USD', unit: 'per user per month' },
        ],
      },
    ]);
  });

  it('writes one line per price specification of an offer (monthly and yearly billing)', async () => {
    const page = await extractPageText(ld({
      '@type': 'SoftwareApplication',
      name: 'Globex',
      offers: { '@type': 'Offer', priceCurrency: 'USD', priceSpecification: [{ price: 45, unitText: 'MONTH' }, { price: 450, billingDuration: 'P1Y' }, { unitText: 'DAY' }] },
    }));
    expect(lines(page.text)).toEqual(['Globex: 45 USD per MONTH.', 'Globex: 450 USD per year.']);
  });

  it('reads the Organization: founding date, number of employees and address', async () => {
    const page = await extractPageText(`<p>About us.</p>${ld({
      '@type': 'Corporation',
      name: 'Acme',
      foundingDate: '2014-03-01',
      numberOfEmployees: { '@type': 'QuantitativeValue', minValue: 51, maxValue: 200 },
      address: { '@type': 'PostalAddress', addressLocality: 'Berlin', addressRegion: 'BE', addressCountry: { '@type': 'Country', name: 'DE' } },
      sameAs: ['https://www.linkedin.com/company/acme'],
    })}`);
    expect(lines(page.text)).toEqual(['About us.', 'Acme: founding date 2014-03-01; number of employees 51 to 200; address Berlin, BE, DE.']);
    expect(page.structured).toEqual({
      organization: { name: 'Acme', foundingDate: '2014-03-01', numberOfEmployees: '51 to 200', locality: 'Berlin', region: 'BE', country: 'DE' },
    });
  });

  it('reads JobPostings, with their hiring organization, locations, type and date', async () => {
    const page = await extractPageText(ld({
      '@type': 'JobPosting',
      title: 'Staff Engineer',
      datePosted: '2026-11-01T09:00:00Z',
      employmentType: ['FULL_TIME', 'CONTRACTOR'],
      jobLocationType: 'TELECOMMUTE',
      hiringOrganization: { '@type': 'Organization', name: 'Acme', sameAs: 'https://acme.example' },
      jobLocation: [
        { '@type': 'Place', address: { addressLocality: 'Berlin', addressCountry: 'DE' } },
        { '@type': 'Place', address: { addressLocality: 'Lisbon', addressCountry: 'PT' } },
      ],
    }));
    expect(page.text).toBe('Job posting: Staff Engineer; hiring organization Acme; job location Berlin, DE / Lisbon, PT; job location type TELECOMMUTE; employment type FULL_TIME, CONTRACTOR; date posted 2026-11-01.');
    expect(page.structured).toEqual({
      jobPostings: [{ title: 'Staff Engineer', hiringOrganization: 'Acme', locations: ['Berlin, DE', 'Lisbon, PT'], locationType: 'TELECOMMUTE', employmentType: 'FULL_TIME, CONTRACTOR', datePosted: '2026-11-01' }],
    });
    // The hiring organization belongs to the posting, not to the page.
    expect(page.structured?.organization).toBeUndefined();
  });

  it('follows @graph, arrays of blocks and nested nodes (a Product in an ItemList), and reads typed URIs', async () => {
    const page = await extractPageText(ld({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'Acme', publisher: { '@type': ['Organization', 'Thing'], name: 'Acme Inc.', foundingDate: '2014' } },
        { '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', item: { '@type': 'schema:Product', name: 'Widget', offers: { price: 5, priceCurrency: 'USD' } } }] },
        { '@type': 'https://schema.org/JobPosting', title: 'Designer' },
      ],
    }) + ld([{ '@type': 'Organization', name: 'Second org, ignored', foundingDate: '1999' }]));
    expect(lines(page.text)).toEqual(['Widget: 5 USD.', 'Acme Inc.: founding date 2014.', 'Job posting: Designer.']);
  });

  it('cleans every string like page text (markup, entities, control and zero-width characters, whitespace) and bounds it', async () => {
    const page = await extractPageText(ld({
      '@type': 'Product',
      name: `  Fleet\u0000\u200b &amp; <b>Co</b>\n\tplan  `,
      offers: { price: '1\u0007450', priceCurrency: 'U\u00adSD', name: 'x'.repeat(5_000) },
    }));
    const offer = page.structured?.products?.[0]?.offers[0];
    expect(page.structured?.products?.[0]?.name).toBe('Fleet & Co plan');
    expect(offer?.price).toBe('1450');
    expect(offer?.currency).toBe('USD');
    expect(offer?.name).toHaveLength(MAX_STRUCTURED_CHARS);
  });

  it('skips invalid JSON, and blocks that are not objects, and reads the valid blocks around them', async () => {
    const page = await extractPageText(`<script type="application/ld+json">{"@type": "Product", "name": "Broken",</script>
      <script type="application/ld+json">null</script><script type="application/ld+json">"text"</script><script type="application/ld+json"></script>
      <script type="application/ld+json">{"@type": "Product", "name": 42, "offers": {"price": "NaN?", "priceCurrency": 7}}</script>
      <script type="Application/LD+JSON; charset=utf-8">{"@type": "Product", "name": "Fine", "offers": {"price": 3}}</script><p>Text.</p>`);
    expect(lines(page.text)).toEqual(['Text.', '42: NaN? 7.', 'Fine: 3.']);
  });

  it('gives nothing structured (and the same text as before) for a page without JSON-LD of these types', async () => {
    expect(await extractPageText(`<p>Text.</p>${ld({ '@type': 'BreadcrumbList', itemListElement: [] })}${ld({ '@type': 'Product' })}<script>var x = {"@type": "Product", "name": "Not JSON-LD", "offers": {"price": 1}}</script>`)).toEqual({ text: 'Text.' });
  });

  it(`reads at most ${MAX_JSON_LD_BLOCKS} of 1,000 JSON-LD blocks`, async () => {
    const blocks = Array.from({ length: 1_000 }, (_, i) => ld({ '@type': 'JobPosting', title: `Job ${i}` })).join('');
    const page = await extractPageText(`<p>Careers.</p>${blocks}`);
    expect(page.structured?.jobPostings?.map((job) => job.title)).toEqual(Array.from({ length: MAX_JSON_LD_BLOCKS }, (_, i) => `Job ${i}`));
    expect(lines(page.text)).toHaveLength(1 + MAX_JSON_LD_BLOCKS);
  });

  it('skips a 5 MiB JSON-LD block whole, and reads a block just within the bound', async () => {
    const padding = (chars: number) => ' '.repeat(chars);
    const product = JSON.stringify({ '@type': 'Product', name: 'Big', offers: { price: 1 } });
    const huge = `<script type="application/ld+json">${product}${padding(5 * 1024 * 1024)}</script>`;
    const fits = `<script type="application/ld+json">${padding(MAX_JSON_LD_CHARS - product.length)}${product}</script>`;
    const over = `<script type="application/ld+json">${padding(MAX_JSON_LD_CHARS - product.length + 1)}${product}</script>`;
    expect(await extractPageText(`<p>Text.</p>${huge}`)).toEqual({ text: 'Text.' });
    expect((await extractPageText(`<p>Text.</p>${fits}`)).text).toBe('Text.\n\nBig: 1.');
    expect(await extractPageText(`<p>Text.</p>${over}`)).toEqual({ text: 'Text.' });
  });

  it('survives deeply nested JSON: 50,000 levels of arrays, and a Product nested past the depth followed', async () => {
    const deepArrays = `<script type="application/ld+json">${'['.repeat(50_000)}${']'.repeat(50_000)}</script>`;
    expect(await extractPageText(`<p>Text.</p>${deepArrays}`)).toEqual({ text: 'Text.' });
    const unclosed = `<script type="application/ld+json">${'{"a":'.repeat(20_000)}</script>`;
    expect(await extractPageText(`<p>Text.</p>${unclosed}`)).toEqual({ text: 'Text.' });
    let nested: unknown = { '@type': 'Product', name: 'Deep', offers: { price: 1 } };
    for (let i = 0; i < 100; i++) nested = { '@type': 'Thing', child: nested };
    expect(await extractPageText(`<p>Text.</p>${ld(nested)}`)).toEqual({ text: 'Text.' });
    let shallow: unknown = { '@type': 'Product', name: 'Shallow', offers: { price: 1 } };
    for (let i = 0; i < 5; i++) shallow = { child: shallow };
    expect((await extractPageText(ld(shallow))).text).toBe('Shallow: 1.');
  });

  it('bounds the walk and the lists kept: 40,000 values, a hundred products of 30 offers', async () => {
    // 80,000 characters: within MAX_JSON_LD_CHARS, past MAX_JSON_LD_VALUES values to visit.
    const wide = (zeros: number) => ld({ '@graph': [...Array.from({ length: zeros }, () => 0), { '@type': 'Product', name: 'Late', offers: { price: 1 } }] });
    expect(await extractPageText(`<p>Text.</p>${wide(MAX_JSON_LD_VALUES * 2)}`)).toEqual({ text: 'Text.' });
    expect((await extractPageText(`<p>Text.</p>${wide(MAX_JSON_LD_VALUES - 10)}`)).text).toBe('Text.\n\nLate: 1.');
    const products = ld(Array.from({ length: 100 }, (_, i) => ({ '@type': 'Product', name: `P${i}`, offers: Array.from({ length: 30 }, (_, j) => ({ price: j })) })));
    const page = await extractPageText(products);
    expect(page.structured?.products).toHaveLength(MAX_STRUCTURED_ITEMS);
    expect(page.structured?.products?.[0]?.offers).toHaveLength(MAX_OFFERS_PER_PRODUCT);
    expect(lines(page.text)).toHaveLength(MAX_STRUCTURED_ITEMS * MAX_OFFERS_PER_PRODUCT);
  });

  it('reads JSON-LD as written inside a script (no entity decoding of the JSON, no </script> inside)', async () => {
    const page = await extractPageText('<script type="application/ld+json">{"@type":"Product","name":"A &amp; B","offers":{"price":"<10"}}</script>');
    expect(page.text).toBe('A & B: <10.');
  });
});
