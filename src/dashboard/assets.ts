import { Hono } from 'hono';
import type { DashboardEnv } from './env.ts';
import { RUN_PROGRESS_JS } from './run-progress-script.ts';

/**
 * The dashboard's only stylesheet and script, served by the Worker itself (no build step). The
 * CSP allows scripts and styles from this origin only, so neither needs a nonce or hash; pages
 * link them with a content-derived version (`?v=`), so they can be cached for long.
 */

const CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --bg: #fff; --line: #d0d7de; --accent: #0b5cad; --error: #b3261e; --ok: #1a7f37; --warn-bg: #fff8c5; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
* { box-sizing: border-box; }
body { margin: 0; line-height: 1.5; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid #f5a623; outline-offset: 2px; }
.skip-link { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem 1rem; }
.skip-link:focus { left: 1rem; }
.site-header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem 2rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; font-size: 1.2rem; text-decoration: none; color: var(--fg); }
.site-header nav ul { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; margin: 0; padding: 0; }
.site-header nav a[aria-current="page"] { font-weight: 700; text-decoration: none; border-bottom: 2px solid var(--accent); }
.account { margin-left: auto; display: flex; align-items: center; gap: 1rem; color: var(--muted); }
.account form { margin: 0; }
.banner { background: var(--warn-bg); border: 1px solid #d4a72c; border-radius: 4px; padding: .5rem 1rem; margin: 0 0 1rem; }
.banner p { margin: 0; }
main { max-width: 60rem; padding: 1.5rem; }
main:focus { outline: none; }
h1 { font-size: 1.6rem; margin-top: 0; }
h2 { font-size: 1.2rem; margin-top: 2rem; }
.site-footer { padding: 1rem 1.5rem; color: var(--muted); border-top: 1px solid var(--line); }
.field { margin: 0 0 1rem; }
.field label { display: block; font-weight: 600; }
.field input[type=text], .field input[type=email], .field input[type=password], .field textarea { width: 100%; max-width: 36rem; padding: .45rem .5rem; border: 1px solid #8c959f; border-radius: 4px; font: inherit; }
.field-error input, .field-error textarea { border-color: var(--error); border-width: 2px; }
.hint { margin: .1rem 0 .25rem; color: var(--muted); font-size: .9rem; }
.error { margin: .1rem 0 .25rem; color: var(--error); font-weight: 600; }
fieldset { border: 1px solid var(--line); border-radius: 4px; margin: 0 0 1rem; max-width: 36rem; }
button, .button { display: inline-block; padding: .45rem 1rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; font: inherit; cursor: pointer; text-decoration: none; }
button.secondary, .button.secondary { background: var(--bg); color: var(--accent); }
button.danger { background: var(--error); border-color: var(--error); }
.link-button { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
.alert { padding: .75rem 1rem; border-radius: 4px; margin: 0 0 1rem; }
.alert-error { border: 2px solid var(--error); color: var(--error); }
.alert-ok { border: 2px solid var(--ok); }
.secret { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.secret code { font-size: 1rem; padding: .5rem; background: #f6f8fa; border: 1px solid var(--line); border-radius: 4px; word-break: break-all; }
pre { white-space: pre-wrap; word-break: break-all; background: #f6f8fa; padding: .5rem; border-radius: 4px; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
caption { color: var(--muted); }
.badge { display: inline-block; padding: 0 .4rem; border: 1px solid var(--line); border-radius: 999px; font-size: .85rem; background: #f6f8fa; white-space: nowrap; }
table.price-change { width: auto; margin: .25rem 0; font-size: .9rem; }
table.price-change caption { text-align: left; font-weight: 600; color: var(--fg); }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.actions { display: flex; gap: .5rem; flex-wrap: wrap; }
.muted { color: var(--muted); }
button.danger, .button.danger { background: var(--error); border-color: var(--error); color: #fff; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
progress, meter { width: 8rem; vertical-align: middle; }
.spend { white-space: nowrap; }
.markdown { border-top: 1px solid var(--line); padding-top: .5rem; overflow-wrap: anywhere; }
.markdown table { font-size: .95rem; }
.markdown blockquote, .card blockquote { margin: 0 0 1rem; padding: .25rem 1rem; border-left: 4px solid var(--line); color: var(--muted); }
.card { border: 1px solid var(--line); border-radius: 4px; padding: 0 1rem 1rem; margin: 0 0 1rem; }
.card h2 { margin-top: 1rem; }
.card form { margin: 0; }
.diff del { background: #ffebe9; text-decoration: line-through; }
.diff ins, .diff-line ins { background: #dafbe1; text-decoration: none; }
.diff del, .diff ins { overflow-wrap: anywhere; }
.tabs ul { display: flex; gap: 1.5rem; list-style: none; margin: 0 0 1rem; padding: 0; border-bottom: 1px solid var(--line); }
.tabs a { display: inline-block; padding: .25rem 0; }
.tabs a[aria-current="page"] { font-weight: 700; text-decoration: none; border-bottom: 3px solid var(--accent); }
.search { max-width: 36rem; margin-bottom: 1rem; }
.search select, .inline-form select, .field input[type=search] { padding: .4rem .5rem; border: 1px solid #8c959f; border-radius: 4px; font: inherit; }
.field input[type=search] { width: 100%; }
.inline-form { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin-bottom: 1rem; }
.value { white-space: pre-wrap; overflow-wrap: anywhere; }
ul.plain { list-style: none; margin: 0; padding: 0; }
.chart svg { max-width: 100%; height: auto; }
.run-progress progress { width: 16rem; }
`;

const JS = `
// Copy buttons: <button data-copy="id-of-element"> copies that element's text.
document.addEventListener('click', function (event) {
  var button = event.target.closest('button[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    button.textContent = 'Copied';
  });
});
// A refused form: move focus to its message so it is read out.
document.addEventListener('DOMContentLoaded', function () {
  var errors = document.getElementById('form-errors');
  if (errors) errors.focus();
});
`;

const ASSETS: Record<string, { body: string; type: string }> = {
  'dashboard.css': { body: CSS, type: 'text/css; charset=utf-8' },
  'dashboard.js': { body: JS + RUN_PROGRESS_JS, type: 'text/javascript; charset=utf-8' },
};

/** FNV-1a of the text, as 8 hex digits: changes whenever the file does. */
function version(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

const VERSIONS = Object.fromEntries(Object.entries(ASSETS).map(([name, asset]) => [name, version(asset.body)]));

/** The URL a page links an asset by. */
export function assetUrl(name: keyof typeof ASSETS & string): string {
  return `/dashboard/assets/${name}?v=${VERSIONS[name]}`;
}

export const assets = new Hono<DashboardEnv>();

assets.get('/:name', (c) => {
  const asset = ASSETS[c.req.param('name')];
  if (!asset) return c.notFound();
  return c.body(asset.body, 200, { 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=86400' });
});
