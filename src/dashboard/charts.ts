/**
 * Charts for dashboard pages, drawn on the server as SVG (no script, no third-party library, no
 * inline style: only presentation attributes, which the strict CSP allows). Every chart is an
 * image to assistive technology (`role="img"`) with an accessible name (`aria-label`, and a
 * `<title>` for a pointer's tooltip), and comes with a text equivalent the page shows beside it
 * (chartSentence). Every label is escaped: labels can come from imported data.
 *
 * Used by the runs page (a report's scorecard) and the watches page (a watch's spend after each
 * execution against its cap, the cap drawn as a marker line): bars of a value against a maximum.
 */

/** One bar: its label and value; null draws no bar and shows `missing` instead of a number. */
export interface Bar {
  label: string;
  value: number | null;
}

export interface BarChartOptions {
  /** The chart's accessible name, e.g. "Scores of the GTM audit of acme.com, out of 100". */
  title: string;
  /** The value of a full bar (a score's 100, a watch's cap); values are clamped to 0..max. */
  max: number;
  /** How a value is written beside its bar and in the text equivalent (default: the number, then `/max`). */
  format?: (value: number) => string;
  /** What a bar without a value says (default "no value"). */
  missing?: string;
  /**
   * A limit drawn across every row as a vertical line, labelled above the bars (a watch's cap):
   * its value (clamped to 0..max) and its label, e.g. "cap $0.009". The text equivalent names it.
   */
  marker?: { value: number; label: string };
}

/** The most bars a chart draws (a scorecard has at most a dozen); past it, the rest is left out and the sentence says so. */
export const MAX_BARS = 50;
/** The most characters of a label the SVG shows (the text equivalent has them all). */
export const MAX_LABEL_CHARS = 28;

const ROW = 28;
const BAR = 18;
const LABEL_WIDTH = 200;
const BAR_WIDTH = 300;
const VALUE_WIDTH = 140;
const WIDTH = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH;
/** The band above the rows that holds a marker's label. */
const MARKER_BAND = 22;

/** Text escaped for SVG (XML) content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function usable(value: number | null): value is number {
  return value !== null && Number.isFinite(value);
}

function clip(label: string): string {
  const chars = [...label];
  return chars.length > MAX_LABEL_CHARS ? `${chars.slice(0, MAX_LABEL_CHARS - 1).join('')}…` : label;
}

function valueText(value: number | null, options: BarChartOptions): string {
  if (!usable(value)) return options.missing ?? 'no value';
  return options.format ? options.format(value) : `${value}/${options.max}`;
}

/**
 * The text equivalent of a chart: one sentence naming every bar and its value, e.g.
 * "Positioning: 50/100; Pricing: no evidence found." (plain text; the page escapes it).
 */
export function chartSentence(bars: readonly Bar[], options: BarChartOptions): string {
  const shown = bars.slice(0, MAX_BARS);
  const rest = bars.length - shown.length;
  const parts = shown.map((bar) => `${bar.label}: ${valueText(bar.value, options)}`);
  const marker = options.marker ? ` (${options.marker.label})` : '';
  return `${parts.join('; ')}${rest > 0 ? `; and ${rest} more not drawn` : ''}${marker}.`;
}

/** The marker: a line across the rows at its value against `max`, its label above them. */
function markerLine(marker: { value: number; label: string }, max: number, top: number, rowsHeight: number): string {
  const value = Number.isFinite(marker.value) ? Math.min(Math.max(marker.value, 0), max) : max;
  const x = LABEL_WIDTH + Math.round((value / max) * BAR_WIDTH);
  return (
    `<g class="marker">` +
    `<line x1="${x}" y1="${top}" x2="${x}" y2="${top + rowsHeight + 4}" stroke="#b42318" stroke-width="2" stroke-dasharray="4 3"/>` +
    `<text x="${x}" y="${top - 6}" text-anchor="end" fill="#b42318">${escapeXml(clip(marker.label))}</text>` +
    `</g>`
  );
}

/**
 * A horizontal bar chart as an SVG string: a row per bar (label, bar against `max`, value). Safe
 * to put in a page as HTML: every text is escaped. Show chartSentence(bars, options) beside it.
 */
export function barChart(bars: readonly Bar[], options: BarChartOptions): string {
  const shown = bars.slice(0, MAX_BARS);
  const max = options.max > 0 && Number.isFinite(options.max) ? options.max : 1;
  const top = options.marker ? MARKER_BAND : 0;
  const rowsHeight = Math.max(shown.length, 1) * ROW;
  const height = top + rowsHeight + 8;
  const title = escapeXml(options.title);
  const rows = shown.map((bar, i) => {
    const y = top + 4 + i * ROW;
    const middle = y + ROW / 2;
    const width = usable(bar.value) ? Math.round((Math.min(Math.max(bar.value, 0), max) / max) * BAR_WIDTH) : 0;
    const value = escapeXml(valueText(bar.value, options));
    return (
      `<g>` +
      `<text x="${LABEL_WIDTH - 8}" y="${middle}" text-anchor="end" dominant-baseline="middle" fill="#1b1f24">${escapeXml(clip(bar.label))}</text>` +
      `<rect x="${LABEL_WIDTH}" y="${y + (ROW - BAR) / 2}" width="${BAR_WIDTH}" height="${BAR}" fill="#eaeef2"/>` +
      (width > 0 ? `<rect class="bar" x="${LABEL_WIDTH}" y="${y + (ROW - BAR) / 2}" width="${width}" height="${BAR}" fill="#0b5cad"/>` : '') +
      `<text x="${LABEL_WIDTH + BAR_WIDTH + 8}" y="${middle}" dominant-baseline="middle" fill="#1b1f24">${value}</text>` +
      `</g>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${title}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-size="14" font-family="system-ui, sans-serif">` +
    `<title>${title}</title>` +
    rows.join('') +
    (options.marker ? markerLine(options.marker, max, top, rowsHeight) : '') +
    `</svg>`
  );
}
