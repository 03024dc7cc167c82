import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeCell, escapeInline, escapeUrl } from '../../src/research/markdown-escape.ts';
import { plainText } from '../helpers/markdown-text.ts';
import { call, createOrganization, FINISHED_PROFILE } from '../helpers/fixtures.ts';

const SCRIPT = '<script>alert(1)</script>';
const JS_LINK = '[x](javascript:alert(1))';

/** A source whose title and text carry raw HTML, a javascript: link and a line that would be a heading. */
const HOSTILE_LINES = [
  { type: 'company', key: 'acme.com', properties: { name: 'Acme Analytics' } },
  { type: 'company', key: 'evil.example', properties: { name: `Evil ${SCRIPT}\n# Owned ${JS_LINK}` } },
  {
    type: 'source',
    key: 'https://evil.example/review',
    properties: {
      title: `Acme Analytics pricing review ${SCRIPT}\n# Owned ${JS_LINK}`,
      publishedAt: '2026-05-01',
      content:
        `Acme Analytics pricing is fair ${SCRIPT} for small teams today. ` +
        `Acme Analytics pricing plans are listed ${JS_LINK} for every buyer.\n# Owned by the Acme Analytics pricing team, say reviewers. ` +
        'Acme Analytics vs Evil is a common pricing comparison <img src=x onerror=alert(1)> among buyers [3] this year.',
    },
  },
  {
    type: 'source',
    key: `https://evil.example/pricing${JS_LINK}`,
    properties: { title: 'Pricing', publishedAt: '2026-04-01', content: 'Acme Analytics pricing starts at $19 per seat per month for small teams.' },
  },
];

async function hostileOrg() {
  const org = await createOrganization({ profile: { ...FINISHED_PROFILE, competitors: [] } });
  const body = HOSTILE_LINES.map((line) => JSON.stringify(line)).join('\n');
  const response = await call('/api/v1/oms/objects/import', { key: org.key, method: 'POST', rawBody: body, headers: { 'Content-Type': 'application/x-ndjson' } });
  expect(await response.json()).toMatchObject({ failed: 0 });
  return org;
}

/**
 * Markdown that CommonMark reads as we wrote it: no raw HTML or autolink, no link or image (every
 * unescaped bracket is one of our `[n]` citations) and no heading but `expected`.
 */
function expectInert(markdown: string, headings: string[]): void {
  expect(markdown).not.toMatch(/<[A-Za-z/!?]/);
  const brackets = markdown.replace(/\\[!-/:-@[-`{-~]/g, '').match(/\[[^\]\n]*\]?/g) ?? [];
  for (const bracket of brackets) expect(bracket).toMatch(/^\[\d+\]$/);
  expect(markdown.match(/^ {0,3}#{1,6}(?:[ \t].*)?$/gm)).toEqual(headings);
}

describe('source text in briefs and reports', () => {
  it('research quotes a source with <script>, a javascript: link and "\\n# Owned" inertly, and readably', async () => {
    const org = await hostileOrg();
    const response = await call('/api/v1/commands/research', { key: org.key, body: { topic: 'Acme Analytics pricing', tier: 'base' } });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    // evil.example is a known company other than the one the topic names: its pages speak as another vendor.
    expectInert(markdown, ['# Research brief: Acme Analytics pricing', '## Summary', '## Key findings', '### From other vendors', '## Sources']);
    // The text is still there for the reader, on one line, where it was quoted.
    expect(markdown).toContain('Acme Analytics pricing is fair &lt;script>alert(1)&lt;/script> for small teams today.');
    expect(markdown).toContain('listed \\[x\\](javascript:alert(1)) for every buyer. # Owned by the Acme Analytics pricing team');
    expect(markdown).toContain('among buyers \\[3\\] this year.');
    expect(markdown).toContain(
      'Acme Analytics pricing review &lt;script>alert(1)&lt;/script> # Owned \\[x\\](javascript:alert(1)), evil.example, 2026-05-01, https://evil.example/review',
    );
    expect(markdown).toContain('Pricing, evil.example, 2026-04-01, https://evil.example/pricing%5Bx%5D%28javascript:alert%281%29%29');
  });

  it('research names a hostile company inertly when it groups findings under it', async () => {
    const org = await hostileOrg();
    const markdown = await (await call('/api/v1/commands/research', { key: org.key, body: { topic: 'evil.example pricing', tier: 'base' } })).text();
    const heading = `### From Evil &lt;script>alert(1)&lt;/script> # Owned \\[x\\](javascript:alert(1)) itself (evil.example)`;
    expectInert(markdown, ['# Research brief: evil.example pricing', '## Summary', '## Key findings', heading, '## Sources']);
  });

  it('competitors shows hostile names and evidence inertly in its table', async () => {
    const org = await hostileOrg();
    const response = await call('/api/v1/commands/competitors', { key: org.key, body: {} });
    expect(response.status).toBe(200);
    const markdown = await response.text();
    expectInert(markdown, ['# Competitors of Acme Analytics', '## Sources']);
    const row = markdown.split('\n').find((line) => line.startsWith('| 1 |'))!;
    expect(row).toContain('| Evil &lt;script>alert(1)&lt;/script> # Owned \\[x\\](javascript:alert(1)) | evil.example |');
    expect(row.split(/(?<!\\)\|/)).toHaveLength(10);
  });

  it('gtm-audit reports quote findings and list sources inertly', async () => {
    const org = await hostileOrg();
    // Evil's own pages are the evidence about Evil, hostile name, title and text included.
    const start = await call('/api/v1/commands/gtm-audit', { key: org.key, body: { company: 'evil.example', focus: ['competition'] } });
    const id = start.headers.get('X-Run-Id')!;
    const stub = env.RUNS.get(env.RUNS.idFromString(id));
    for (let i = 0; i < 20 && (await stub.read())?.status === 'running'; i++) await runDurableObjectAlarm(stub);
    const markdown = await (await call(`/api/v1/runs/gtm-audit/${id}`, { key: org.key })).text();
    expect(markdown).toContain('Evidence:');
    const title = '# GTM audit: Evil &lt;script>alert(1)&lt;/script> # Owned \\[x\\](javascript:alert(1))';
    expectInert(markdown, [title, '## Scorecard', '## Competition', '## Recommendations', '## Method', '## Sources']);
    expect(markdown).toContain('- Met: A head-to-head comparison. "Acme Analytics vs Evil is a common pricing comparison &lt;img src=x onerror=alert(1)> among buyers \\[3\\] this year." [1]');
    expect(markdown).toContain('Acme Analytics pricing review &lt;script>alert(1)&lt;/script> # Owned');
  });
});

const fragment = fc.oneof(
  fc.constantFrom(SCRIPT, JS_LINK, '\n# Owned', '![i](javascript:x)', '<https://x.y>', '<!-- c -->', '&lt;', '&#x3c;', '\\', '\\[', '[1]', '[a]: javascript:x',
    '# ', '> ', '- ', '1. ', '2) ', '---', '```', '~~~', '*', '_', '`', '|', '\r\n', '\u2028', '\t', '\u0000'),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ maxLength: 6 }),
);
const hostile = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));
const BLOCK_START = /^(?:#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|(?:[-*_]\s*){3}|```|~~~|\d{1,9}[.)](?:\s|$)|<[A-Za-z/!?])/;

describe('the escaping of untrusted text', () => {
  it('gives one line with no raw HTML, link or block, whatever the text', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const escaped = escapeInline(text);
        expect(escaped).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}]/u);
        expect(escaped).not.toMatch(/<[A-Za-z/!?]/);
        const unescaped = escaped.replace(/\\[!-/:-@[-`{-~]/g, '');
        expect(unescaped).not.toMatch(/[[\]]/);
        expect(escaped).not.toMatch(BLOCK_START);
        expect(escapeCell(text).replace(/\\[!-/:-@[-`{-~]/g, '')).not.toContain('|');
      }),
      { numRuns: 500 },
    );
  });

  it('shows the reader the text as written, only with its line breaks collapsed', () => {
    const oneLine = hostile.map((text) => text.replace(/[\s\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim());
    fc.assert(
      fc.property(oneLine, (text) => {
        expect(plainText(escapeInline(text))).toBe(text);
        expect(plainText(escapeCell(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
    expect(escapeInline('Plans cost $45 per seat (billed yearly), *not* monthly: 20% off & more.')).toBe(
      'Plans cost $45 per seat (billed yearly), *not* monthly: 20% off & more.',
    );
  });

  it('keeps a URL one plain URL', () => {
    expect(escapeUrl('https://evil.example/[x](javascript:alert(1))')).toBe('https://evil.example/%5Bx%5D%28javascript:alert%281%29%29');
    expect(escapeUrl('https://acme.com/pricing?plan=team')).toBe('https://acme.com/pricing?plan=team');
  });
});
