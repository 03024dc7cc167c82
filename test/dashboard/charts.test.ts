import { describe, expect, it } from 'vitest';
import { barChart, chartSentence, MAX_BARS, MAX_LABEL_CHARS } from '../../src/dashboard/charts.ts';

const OPTIONS = { title: 'Scores of the GTM audit of acme.com, out of 100', max: 100, missing: 'no evidence found' };

describe('the SVG bar chart (charts.ts)', () => {
  it('is an image with an accessible name and a title, a row per bar, bars as long as their value against the maximum', () => {
    const svg = barChart(
      [
        { label: 'Pricing', value: 50 },
        { label: 'Positioning', value: 100 },
        { label: 'Content', value: null },
      ],
      OPTIONS,
    );
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" role="img" aria-label="Scores of the GTM audit of acme.com, out of 100" viewBox="0 0 640 92"/);
    expect(svg).toContain('<title>Scores of the GTM audit of acme.com, out of 100</title>');
    const bars = [...svg.matchAll(/<rect class="bar" [^>]*width="(\d+)"/g)].map((m) => Number(m[1]));
    expect(bars).toEqual([150, 300]);
    expect(svg).toContain('>50/100</text>');
    expect(svg).toContain('>no evidence found</text>');
    // No script, no style attribute or element, no link out: the strict CSP has nothing to refuse.
    expect(svg).not.toMatch(/<script|style=|<style|href=/i);
  });

  it('clamps values to 0..max and draws nothing for a value that is not a number', () => {
    const svg = barChart(
      [
        { label: 'over', value: 250 },
        { label: 'under', value: -5 },
        { label: 'nan', value: Number.NaN },
      ],
      { title: 'Spend', max: 200, format: (v) => `$${v}` },
    );
    expect([...svg.matchAll(/<rect class="bar" [^>]*width="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([300]);
    expect(svg).toContain('>$250</text>');
    expect(svg).toContain('>no value</text>');
  });

  it('escapes every label, value and the title, and shortens a long label in the picture only', () => {
    const hostile = `<script>alert("x")</script> & 'co'`;
    const bars = [{ label: hostile, value: 10 }];
    const svg = barChart(bars, { title: `Audit of ${hostile}`, max: 100, format: () => '<b>10</b>' });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('aria-label="Audit of &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"');
    expect(svg).toContain('&lt;b&gt;10&lt;/b&gt;</text>');
    const label = /text-anchor="end"[^>]*>([^<]*)<\/text>/.exec(svg)![1]!;
    expect(label).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;…');
    expect([...'<script>alert("x")</script>…'].length).toBe(MAX_LABEL_CHARS);
    // The text equivalent has the whole label (the page escapes it as any text).
    expect(chartSentence(bars, { title: '', max: 100 })).toBe(`${hostile}: 10/100.`);
  });

  it('lists every bar in its text equivalent, and draws at most MAX_BARS, saying how many were left out', () => {
    expect(chartSentence([{ label: 'Pricing', value: 67 }, { label: 'Content', value: null }], OPTIONS)).toBe('Pricing: 67/100; Content: no evidence found.');
    const many = Array.from({ length: MAX_BARS + 3 }, (_, i) => ({ label: `w${i}`, value: i }));
    expect(barChart(many, OPTIONS).match(/<g>/g)).toHaveLength(MAX_BARS);
    expect(chartSentence(many, OPTIONS)).toMatch(/; w49: 49\/100; and 3 more not drawn\.$/);
  });

  it('draws a marker (a cap) as a line across the rows at its value, its label escaped above them and named in the text equivalent', () => {
    const bars = [
      { label: 'first', value: 3000 },
      { label: 'second', value: 6000 },
    ];
    const options = { title: 'Spend against the cap', max: 12000, marker: { value: 12000, label: 'cap <$0.012>' } };
    const svg = barChart(bars, options);
    // The rows move down by the marker's band (22) and the chart grows by as much.
    expect(svg).toContain('viewBox="0 0 640 86"');
    expect([...svg.matchAll(/<rect class="bar" x="200" y="(\d+)" width="(\d+)"/g)].map((m) => [Number(m[1]), Number(m[2])])).toEqual([
      [31, 75],
      [59, 150],
    ]);
    expect(svg).toContain('<g class="marker"><line x1="500" y1="22" x2="500" y2="82" stroke="#b42318" stroke-width="2" stroke-dasharray="4 3"/><text x="500" y="16" text-anchor="end" fill="#b42318">cap &lt;$0.012&gt;</text></g></svg>');
    // A marker below the maximum sits where its value falls; one past it is clamped to the end of the track.
    expect(barChart(bars, { ...options, marker: { value: 6000, label: 'half' } })).toContain('<line x1="350" ');
    expect(barChart(bars, { ...options, marker: { value: 99999, label: 'over' } })).toContain('<line x1="500" ');
    expect(chartSentence(bars, { ...options, format: (v: number) => `${v}` })).toBe('first: 3000; second: 6000 (cap <$0.012>).');
    expect(barChart(bars, { title: 'no marker', max: 12000 })).not.toContain('class="marker"');
  });
});
