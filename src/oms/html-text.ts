import { messageOf } from '../ground/errors.ts';
import { rewriteWith, type RewriterRegistry } from '../ground/reused-rewriter.ts';
/**
 * The readable text of a web page, for a `source` object: its title and its content as lines of
 * plain text, extracted with Workers' own streaming `HTMLRewriter` (lol-html) and one pass over
 * what it leaves (extractPageText). No DOM is built, so a page costs time and memory in proportion
 * to its size, which the fetch bounds (fetch-source.ts).
 *
 * - Dropped whole, with everything inside: `script`, `style`, `noscript`, `template`, `svg`, `math`,
 *   `nav`, `iframe`, `object`, `canvas`, `select`, `datalist`, `button`, `textarea` (and the other
 *   elements whose content is not markup), and any element marked `hidden` or `aria-hidden="true"`
 *   (modals, cookie banners, off-screen copies: not what the page says). Comments are dropped too.
 * - But the panels of a tab widget are read even when hidden: a pricing page keeps its annual prices
 *   in a panel shown only when its tab is clicked. A hidden element is a panel when it has
 *   `role="tabpanel"`, or when a `role="tab"` seen before it names it (its `id` in the tab's
 *   `aria-controls`, or the tab's `id` in its `aria-labelledby`). Such a panel, and any
 *   `role="tabpanel"` a tab names, starts with the tab's label as a line of its own (`Annual`), so
 *   its prices say which they are (a tab is often a `button`, whose text is dropped). A tab after
 *   its panel is not seen in time (one pass). `hidden="until-found"` (revealed by find-in-page) is
 *   content too. Closed `<details>` are read: they carry no `hidden`.
 * - Every block (headings, paragraphs, list items, table rows, `div`, `br`, ...) becomes its own line,
 *   and lines are separated by a blank line, so a heading never runs into the paragraph after it and
 *   passages split between blocks (src/research/text.ts ends a sentence at a blank line). Table cells
 *   on one row are joined by a space.
 * - Character references are decoded (`&amp;`, `&#8364;`, `&#x20AC;`, the common named ones);
 *   whitespace runs collapse to one space; control and zero-width characters are removed.
 * - The title is the document's `<title>`, else `og:title`, else the first `h1`. The publication
 *   date is read from `article:published_time`, `datePublished` or `date` meta tags when one holds
 *   an ISO 8601 date.
 * - JSON-LD (`<script type="application/ld+json">`) is parsed for what a go-to-market team needs:
 *   products and their prices, the organization, job postings. They are returned as `structured`
 *   and written as lines after the page's text, built only from the data's own values joined by
 *   schema.org's field names (see structuredLines):
 *     `Fleet, Annual: 1450 USD per month.`  (Product or SoftwareApplication, one line per price)
 *     `Fleet: 10 to 50 USD.`  (an AggregateOffer)
 *     `Acme: founding date 2014; number of employees 51 to 200; address Berlin, BE, DE.`
 *     `Job posting: Staff Engineer; hiring organization Acme; job location Berlin, DE; employment type FULL_TIME; date posted 2026-11-01.`
 *   Bounded: MAX_JSON_LD_BLOCKS blocks of at most MAX_JSON_LD_CHARS each (a longer one is skipped,
 *   not cut: cut JSON does not parse), nesting followed MAX_JSON_LD_DEPTH levels, MAX_JSON_LD_VALUES
 *   values visited per page, every string cleaned as page text and cut at MAX_STRUCTURED_CHARS.
 *   Invalid JSON is skipped. Nodes referenced only by `@id` are not looked up.
 */

export interface PageText {
  /** The page title, decoded and collapsed; undefined when the page names none. */
  title?: string;
  /** Lines of readable text separated by blank lines; empty when the page has none. */
  text: string;
  /** YYYY-MM-DD from the page's publication meta tags, when one holds a valid date. */
  publishedAt?: string;
  /** What the page's JSON-LD says of products, the organization and job postings; undefined when none of it. */
  structured?: StructuredData;
}

/** One price of an offer; at least one of `price`, `lowPrice`, `highPrice` is set. Values as the page writes them. */
export interface StructuredOffer {
  /** The offer's own name (`Annual`), when it has one. */
  name?: string;
  price?: string;
  lowPrice?: string;
  highPrice?: string;
  /** `priceCurrency` as written (`USD`). */
  currency?: string;
  /** What the price is per (`month`), from the price specification's unitText, reference quantity or billing duration. */
  unit?: string;
}

/** A Product (or SoftwareApplication, WebApplication, MobileApplication, Service) and its prices, at most MAX_OFFERS_PER_PRODUCT. */
export interface StructuredProduct {
  name: string;
  offers: StructuredOffer[];
}

/** The first Organization (or Corporation, LocalBusiness, ...) the page describes. */
export interface StructuredOrganization {
  name: string;
  /** `foundingDate` as YYYY, YYYY-MM or YYYY-MM-DD. */
  foundingDate?: string;
  /** `numberOfEmployees`: a number, or a range (`51 to 200`). */
  numberOfEmployees?: string;
  locality?: string;
  region?: string;
  country?: string;
}

/** A JobPosting. */
export interface StructuredJobPosting {
  title: string;
  hiringOrganization?: string;
  /** Each `jobLocation`'s address (`Berlin, DE`), at most 5. */
  locations: string[];
  /** `jobLocationType` as written (`TELECOMMUTE` for remote work). */
  locationType?: string;
  /** `employmentType`, several joined by `, ` (`FULL_TIME, CONTRACTOR`). */
  employmentType?: string;
  /** `datePosted` as YYYY-MM-DD. */
  datePosted?: string;
}

/** The JSON-LD facts of one page; each list at most MAX_STRUCTURED_ITEMS long, absent when empty. */
export interface StructuredData {
  products?: StructuredProduct[];
  organization?: StructuredOrganization;
  jobPostings?: StructuredJobPosting[];
}

// Also the elements whose content HTML does not parse as markup (textarea, xmp, noembed, noframes,
// plaintext), so that what is left holds no `<` that is text inside an element.
const DROPPED = [
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'nav', 'iframe', 'object', 'canvas', 'select', 'datalist', 'button',
  'textarea', 'xmp', 'noembed', 'noframes', 'plaintext',
];

const DROPPED_TAGS = new Set(DROPPED);

// A hidden tab panel is never matched (no call); a hidden panel a tab names is matched and kept (TabRegistry.labelPanel).
const NOT_A_PANEL = ':not([role="tabpanel" i])';
const DROPPED_SELECTOR = [...DROPPED, `[hidden]${NOT_A_PANEL}:not([hidden="until-found" i])`, `[aria-hidden="true"]${NOT_A_PANEL}`].join(', ');

const JSON_LD_SELECTOR = 'script[type^="application/ld+json" i]';

/** Elements whose start and end break a line (td and th: a space). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hgroup', 'hr', 'html',
  'legend', 'li', 'main', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul',
]);

const DATE_META = [
  'meta[property="article:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[name="datePublished"]',
  'meta[name="date"]',
  'meta[name="dc.date"]',
  'meta[name="DC.date"]',
];
const DATE_META_SELECTOR = DATE_META.join(', ');

/**
 * The most dropped elements (and title and meta tags, tabs, tab panels and text chunks of tabs) one
 * page may have. Each is a call from the parser into JavaScript, so this bounds the CPU a page can
 * cost; ordinary pages have hundreds. (A JSON-LD script is one dropped element; its text comes in
 * about one call per script and per chunk of the input, so it needs no count of its own.)
 */
export const MAX_DROPPED_ELEMENTS = 20_000;

/** Tabs remembered per page (to find and label their panels); later tabs are counted but not remembered. */
const MAX_TABS = 500;
/** Characters of a tab's label kept (`Annual billing`): a label is a few words. */
const MAX_TAB_LABEL_CHARS = 100;
/** Characters of an `id`, `aria-controls` or `aria-labelledby` read: real ones are short. */
const MAX_ID_CHARS = 200;

/** JSON-LD blocks read per page; the rest are dropped unread, as every script is. */
export const MAX_JSON_LD_BLOCKS = 10;
/** Characters of one JSON-LD block read; a longer block is skipped whole (real ones are a few KiB). */
export const MAX_JSON_LD_CHARS = 100 * 1024;
/** Levels of nesting followed into a block (a price in a spec in an offer of a Product in a @graph is 5). */
export const MAX_JSON_LD_DEPTH = 12;
/** JSON values visited in all of a page's blocks: bounds the walk of 100 KiB of tiny arrays. */
export const MAX_JSON_LD_VALUES = 20_000;
/** Products, and job postings, kept from one page. */
export const MAX_STRUCTURED_ITEMS = 20;
/** Prices kept of one product (a pricing page has a few plans, each billed one or two ways). */
export const MAX_OFFERS_PER_PRODUCT = 10;
/** Characters kept of one string from JSON-LD, once cleaned. */
export const MAX_STRUCTURED_CHARS = 200;

/** A page the extractor will not read: too many elements to drop, or markup the parser gives up on. */
export class PageUnreadable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageUnreadable';
  }
}

/** Options of extractPageText. */
export interface PageTextOptions {
  /**
   * Adds more handlers to the parse (readHtmlPage: the page's links, src/sites/links.ts), after
   * this module's own. They are called for every element they select, also inside the elements
   * left out of the text (a link in a `nav` or a `hidden` element is still seen). They must not
   * change the document (remove, replace or rewrite): what the parse leaves is the text.
   */
  also?: (registry: RewriterRegistry) => RewriterRegistry;
}

const TOO_COMPLEX = `the page has too much markup to read (over ${MAX_DROPPED_ELEMENTS.toLocaleString('en-US')} scripts, styles and other elements to leave out)`;

/**
 * Extracts the title, readable text and publication date of an HTML document (already decoded to a
 * string). HTMLRewriter does the part that needs an HTML parser: it removes the dropped elements
 * with everything inside them (natively: one call per dropped element, none for their content, so
 * a `</p>` in a script string or a tag in a comment never counts) and reads the title and meta
 * tags. What is left is text and the tags of ordinary elements, which become line breaks (blocks),
 * spaces (cells) or nothing, in one pass over the string: a page costs the same whether it has ten
 * tags or a hundred thousand. Throws PageUnreadable past MAX_DROPPED_ELEMENTS, or when the parser
 * gives up on the markup.
 */
export async function extractPageText(html: string, options: PageTextOptions = {}): Promise<PageText> {
  let calls = 0;
  const count = () => {
    if (++calls > MAX_DROPPED_ELEMENTS) throw new PageUnreadable(TOO_COMPLEX);
  };
  let svgDepth = 0;
  // The first <title> outside an svg; its text arrives in chunks, entities still encoded.
  let titleState: 'none' | 'open' | 'done' = 'none';
  let titleText = '';
  let ogTitle: string | undefined;
  let publishedAt: string | undefined;
  const tabs = new TabRegistry();
  const jsonLd = new JsonLdBlocks();

  let readable: string;
  try {
    const register = (registry: RewriterRegistry) => {
      registry
        .on(DROPPED_SELECTOR, {
          element(element) {
            count();
            if (!DROPPED_TAGS.has(element.tagName) && tabs.labelPanel(element)) return;
            element.remove();
            // Handlers still run inside a removed element: an svg's <title> is not the page's.
            if (element.tagName === 'svg' && whenEnded(element, () => svgDepth--)) svgDepth++;
          },
        })
        .on('[role="tab" i]', {
          element(element) {
            count();
            tabs.open(element);
          },
          text(chunk) {
            count();
            tabs.label(chunk.text);
          },
        })
        .on('[role="tabpanel" i]', {
          element(element) {
            count();
            tabs.labelPanel(element);
          },
        })
        .on(JSON_LD_SELECTOR, {
          text(chunk) {
            jsonLd.add(chunk.text, chunk.lastInTextNode);
          },
        })
        .on('title', {
          element(element) {
            count();
            element.remove();
            if (titleState === 'open') titleState = 'done';
            else if (titleState === 'none' && svgDepth === 0) titleState = 'open';
          },
          text(chunk) {
            if (titleState === 'open') titleText += chunk.text;
          },
        })
        .on('meta[property="og:title"]', {
          element(element) {
            count();
            ogTitle ??= clean(element.getAttribute('content') ?? '') || undefined;
          },
        })
        .on(DATE_META_SELECTOR, {
          element(element) {
            count();
            publishedAt ??= isoDate(element.getAttribute('content'));
          },
        });
      options.also?.(registry);
    };
    readable = await rewriteWith(register, new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }), (output) => output.text());
  } catch (error) {
    // A handler's exception reaches the caller through the rewriter's stream, as the same object or a copy of its message.
    if (error instanceof PageUnreadable || String(error).includes(TOO_COMPLEX)) throw new PageUnreadable(TOO_COMPLEX);
    // lol-html's own limits (e.g. "Parser error: The memory limit has been exceeded." for 400,000 unclosed tags).
    const message = messageOf(error);
    if (message.startsWith('Parser error')) throw new PageUnreadable(`the page could not be read as HTML (${message.slice(0, 200)})`);
    throw error;
  }

  // One pass over what is left: block tags become line breaks, cells spaces, other markup nothing.
  // The first h1's content is found on the way (a fallback title).
  let h1Start: number | undefined;
  let h1End: number | undefined;
  const text = readable
    .replace(MARKUP, (match: string, name: string | undefined, offset: number) => {
      const tag = name?.toLowerCase();
      if (tag === 'h1') {
        if (match[1] !== '/') h1Start ??= offset + match.length;
        else if (h1Start !== undefined) h1End ??= offset;
      }
      return tag && BLOCKS.has(tag) ? '\n\n' : tag === 'td' || tag === 'th' ? ' ' : '';
    })
    .split('\n\n')
    .map(clean)
    .filter(Boolean)
    .join('\n\n');
  const firstH1 = h1Start !== undefined && h1End !== undefined && h1End - h1Start <= 2_000 ? readable.slice(h1Start, h1End) : undefined;
  const heading = (clean(titleText) || undefined) ?? ogTitle ?? (firstH1 ? clean(firstH1.replace(MARKUP, '')) || undefined : undefined);
  const structured = structuredDataOf(jsonLd.blocks);
  const withFacts = structured ? [text, ...structuredLines(structured)].filter(Boolean).join('\n\n') : text;
  return { ...(heading ? { title: heading } : {}), text: withFacts, ...(publishedAt ? { publishedAt } : {}), ...(structured ? { structured } : {}) };
}

/** A tab of a tab widget, as far as its label has been read. */
interface Tab {
  label: string;
}

/**
 * The tabs seen so far, by their own `id` and by the ids their `aria-controls` names, so that a panel
 * after them is found (and labelled) however the page links the two. At most MAX_TABS are kept.
 */
class TabRegistry {
  private readonly byId = new Map<string, Tab>();
  private readonly byPanelId = new Map<string, Tab>();
  private current: Tab | undefined;
  private kept = 0;

  /** Remembers a `role="tab"` element; its text (label) follows in `label` calls. */
  open(element: Element): void {
    if (this.kept >= MAX_TABS) {
      this.current = undefined;
      return;
    }
    this.kept += 1;
    const tab: Tab = { label: '' };
    this.current = tab;
    const id = idOf(element.getAttribute('id'));
    if (id) this.byId.set(id, tab);
    for (const panelId of idsOf(element.getAttribute('aria-controls'))) this.byPanelId.set(panelId, tab);
  }

  /** A chunk of the current tab's text (entities still encoded), kept up to MAX_TAB_LABEL_CHARS. */
  label(text: string): void {
    if (this.current && this.current.label.length < MAX_TAB_LABEL_CHARS) this.current.label += text.slice(0, MAX_TAB_LABEL_CHARS);
  }

  /**
   * Whether `element` is a panel a tab names; if so, its tab's label is put at its start as a line
   * of its own (escaped: the label is text, and its entities are decoded with the rest).
   */
  labelPanel(element: Element): boolean {
    const tab = this.tabOf(element);
    if (!tab) return false;
    const label = tab.label.slice(0, MAX_TAB_LABEL_CHARS).replace(/</g, '&lt;');
    if (clean(label)) element.prepend(`<p>${label}</p>`, { html: true });
    return true;
  }

  private tabOf(element: Element): Tab | undefined {
    if (this.kept === 0) return undefined;
    const id = idOf(element.getAttribute('id'));
    const byControls = id ? this.byPanelId.get(id) : undefined;
    if (byControls) return byControls;
    for (const tabId of idsOf(element.getAttribute('aria-labelledby'))) {
      const tab = this.byId.get(tabId);
      if (tab) return tab;
    }
    return undefined;
  }
}

/** An `id` attribute, when it is one of a sensible length. */
function idOf(value: string | null): string | undefined {
  const id = value?.trim();
  return id && id.length <= MAX_ID_CHARS ? id : undefined;
}

/** The ids of an id list (`aria-controls`, `aria-labelledby`): at most 10, each of a sensible length. */
function idsOf(value: string | null): string[] {
  if (!value) return [];
  return value.slice(0, MAX_ID_CHARS * 2).trim().split(/\s+/).slice(0, 10).filter((id) => id && id.length <= MAX_ID_CHARS);
}

/**
 * The text of the page's first MAX_JSON_LD_BLOCKS JSON-LD scripts, as it arrives in chunks; a block
 * longer than MAX_JSON_LD_CHARS is let go as soon as it passes the bound (never held whole).
 */
class JsonLdBlocks {
  readonly blocks: string[] = [];
  private seen = 0;
  private current = '';
  private tooLong = false;

  add(text: string, last: boolean): void {
    if (this.seen >= MAX_JSON_LD_BLOCKS) return;
    if (!this.tooLong) {
      if (this.current.length + text.length > MAX_JSON_LD_CHARS) {
        this.tooLong = true;
        this.current = '';
      } else {
        this.current += text;
      }
    }
    if (!last) return;
    this.seen += 1;
    if (!this.tooLong && this.current.trim()) this.blocks.push(this.current);
    this.current = '';
    this.tooLong = false;
  }
}

type JsonObject = { readonly [key: string]: unknown };

const PRODUCT_TYPES = new Set(['product', 'productgroup', 'productmodel', 'individualproduct', 'softwareapplication', 'webapplication', 'mobileapplication', 'service']);
const ORGANIZATION_TYPES = new Set(['organization', 'corporation', 'localbusiness', 'onlinebusiness', 'onlinestore', 'ngo', 'educationalorganization', 'newsmediaorganization']);

/** What the walk of a page's blocks has found so far, and how many more values it may visit. */
interface Findings {
  products: StructuredProduct[];
  organization?: StructuredOrganization;
  jobPostings: StructuredJobPosting[];
  budget: number;
}

/**
 * The products, organization and job postings of a page's JSON-LD blocks, or undefined when they
 * hold none. A block that is not valid JSON (or nests deeper than JSON.parse goes) is skipped. The
 * walk follows arrays (`@graph` among them) and the properties of other nodes (a Product in an
 * ItemList, an Organization as a WebSite's publisher), MAX_JSON_LD_DEPTH levels deep at most; a
 * node it reads as a product, organization or job posting is not walked further (a job posting's
 * hiring organization is its own, not the page's).
 */
function structuredDataOf(blocks: readonly string[]): StructuredData | undefined {
  const found: Findings = { products: [], jobPostings: [], budget: MAX_JSON_LD_VALUES };
  for (const block of blocks) {
    let data: unknown;
    try {
      data = JSON.parse(block);
    } catch {
      continue;
    }
    walk(data, 0, found);
  }
  if (!found.products.length && !found.organization && !found.jobPostings.length) return undefined;
  return {
    ...(found.products.length ? { products: found.products } : {}),
    ...(found.organization ? { organization: found.organization } : {}),
    ...(found.jobPostings.length ? { jobPostings: found.jobPostings } : {}),
  };
}

function walk(value: unknown, depth: number, found: Findings): void {
  if (depth > MAX_JSON_LD_DEPTH || found.budget <= 0) return;
  found.budget -= 1;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (found.budget <= 0) return;
      walk(item, depth + 1, found);
    }
    return;
  }
  if (!isObject(value)) return;
  const types = typesOf(value['@type']);
  if (types.some((type) => PRODUCT_TYPES.has(type))) {
    const product = productOf(value);
    if (product && found.products.length < MAX_STRUCTURED_ITEMS) found.products.push(product);
    return;
  }
  if (types.includes('jobposting')) {
    const posting = jobPostingOf(value);
    if (posting && found.jobPostings.length < MAX_STRUCTURED_ITEMS) found.jobPostings.push(posting);
    return;
  }
  if (types.some((type) => ORGANIZATION_TYPES.has(type))) {
    found.organization ??= organizationOf(value);
    return;
  }
  for (const key in value) {
    if (found.budget <= 0) return;
    walk(value[key], depth + 1, found);
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `@type` as lowercased local names (`https://schema.org/Product`, `schema:Product` -> `product`), at most 10. */
function typesOf(type: unknown): string[] {
  const names = Array.isArray(type) ? type.slice(0, 10) : [type];
  return names.filter((name): name is string => typeof name === 'string').map((name) => name.slice(0, 200).replace(/^.*[/#:]/, '').toLowerCase());
}

/** A value that may be one item or a list of them, as a list of objects (at most `max`). */
function objectsOf(value: unknown, max: number): JsonObject[] {
  return (Array.isArray(value) ? value.slice(0, max) : [value]).filter(isObject);
}

/**
 * A string or number from JSON-LD as page text: markup left out, cleaned like page text, cut at
 * MAX_STRUCTURED_CHARS; the first of a list, and `{"@value": ...}`, are read too. Undefined when empty.
 */
function textOf(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : isObject(value) && '@value' in value ? value['@value'] : value;
  if (typeof first === 'number') return Number.isFinite(first) ? String(first) : undefined;
  if (typeof first !== 'string') return undefined;
  const text = clean(first.slice(0, MAX_STRUCTURED_CHARS * 4).replace(MARKUP, ' ')).slice(0, MAX_STRUCTURED_CHARS).trim();
  return text || undefined;
}

/** A name: the value itself when a string, else its `name` (`{"@type": "Organization", "name": "Acme"}`). */
function nameOf(value: unknown): string | undefined {
  return isObject(value) && !('@value' in value) ? textOf(value.name) : textOf(value);
}

function productOf(node: JsonObject): StructuredProduct | undefined {
  const name = textOf(node.name);
  if (!name) return undefined;
  const offers = objectsOf(node.offers, MAX_OFFERS_PER_PRODUCT).flatMap(pricesOf);
  return { name, offers: dedupe(offers, (offer) => JSON.stringify(offer)).slice(0, MAX_OFFERS_PER_PRODUCT) };
}

/**
 * The prices of an Offer or AggregateOffer: one per price specification that states a price (a plan
 * billed monthly or yearly), else the offer's own price or range, with the unit of its specification.
 */
function pricesOf(offer: JsonObject): StructuredOffer[] {
  const name = textOf(offer.name);
  const currency = textOf(offer.priceCurrency);
  const specs = objectsOf(offer.priceSpecification, 5);
  const specified = specs
    .map((spec) => priceOf(name, textOf(spec.priceCurrency) ?? currency, unitOf(spec), spec))
    .filter((price): price is StructuredOffer => price !== undefined);
  if (specified.length) return specified;
  const own = priceOf(name, currency, specs[0] ? unitOf(specs[0]) : undefined, offer);
  return own ? [own] : [];
}

function priceOf(name: string | undefined, currency: string | undefined, unit: string | undefined, node: JsonObject): StructuredOffer | undefined {
  const price = textOf(node.price);
  const lowPrice = price ? undefined : textOf(node.lowPrice ?? node.minPrice);
  const highPrice = price ? undefined : textOf(node.highPrice ?? node.maxPrice);
  if (!price && !lowPrice && !highPrice) return undefined;
  return { ...(name ? { name } : {}), ...(price ? { price } : {}), ...(lowPrice ? { lowPrice } : {}), ...(highPrice ? { highPrice } : {}), ...(currency ? { currency } : {}), ...(unit ? { unit } : {}) };
}

/** UN/CEFACT codes of `unitCode` for billing periods, as schema.org's examples use them. */
const UNIT_CODES: Record<string, string> = { ANN: 'year', MON: 'month', WEE: 'week', DAY: 'day', HUR: 'hour' };
const ISO_UNITS: Record<string, string> = { Y: 'year', M: 'month', W: 'week', D: 'day' };

/**
 * What a price specification's price is per: its `unitText` (`MONTH`, `user per month`), else its
 * `referenceQuantity` (`{"value": 1, "unitCode": "MON"}` -> `month`), else its `billingDuration`
 * (`P1Y` -> `year`, `P3M` -> `3 month`).
 */
function unitOf(spec: JsonObject): string | undefined {
  const text = textOf(spec.unitText);
  if (text) return text;
  const quantity = isObject(spec.referenceQuantity) ? spec.referenceQuantity : undefined;
  const quantityUnit = quantity ? (textOf(quantity.unitText) ?? UNIT_CODES[String(quantity.unitCode).toUpperCase()]) : undefined;
  if (quantity && quantityUnit) return counted(textOf(quantity.value), quantityUnit);
  const duration = typeof spec.billingDuration === 'string' ? /^P(\d{1,4})([YMWD])$/i.exec(spec.billingDuration.trim()) : null;
  return duration ? counted(duration[1], ISO_UNITS[duration[2]!.toUpperCase()]!) : undefined;
}

/** `month` for one, `3 month` for three (the unit as a unit, not a plural). */
function counted(count: string | undefined, unit: string): string {
  return count === undefined || Number(count) === 1 ? unit : `${count} ${unit}`;
}

function organizationOf(node: JsonObject): StructuredOrganization | undefined {
  const name = textOf(node.name) ?? textOf(node.legalName);
  if (!name) return undefined;
  const foundingDate = typeof node.foundingDate === 'string' ? /^\d{4}(?:-\d{2}(?:-\d{2})?)?(?=$|T|\s)/.exec(node.foundingDate.trim())?.[0] : undefined;
  const numberOfEmployees = amountOf(node.numberOfEmployees);
  return { name, ...(foundingDate ? { foundingDate } : {}), ...(numberOfEmployees ? { numberOfEmployees } : {}), ...placeOf(node.address) };
}

/** A number, or a QuantitativeValue: its `value`, else `minValue to maxValue` (`from` or `up to` when one is missing). */
function amountOf(value: unknown): string | undefined {
  if (!isObject(value)) return textOf(value);
  const exact = textOf(value.value);
  if (exact) return exact;
  return range(textOf(value.minValue), textOf(value.maxValue));
}

function range(low: string | undefined, high: string | undefined): string | undefined {
  if (low && high) return low === high ? low : `${low} to ${high}`;
  return low ? `from ${low}` : high ? `up to ${high}` : undefined;
}

/** A PostalAddress's locality, region and country (the country may be a Country node); a plain string is its locality. */
function placeOf(address: unknown): Pick<StructuredOrganization, 'locality' | 'region' | 'country'> {
  const first = Array.isArray(address) ? address[0] : address;
  if (!isObject(first)) {
    const locality = textOf(first);
    return locality ? { locality } : {};
  }
  const locality = textOf(first.addressLocality);
  const region = textOf(first.addressRegion);
  const country = nameOf(first.addressCountry);
  return { ...(locality ? { locality } : {}), ...(region ? { region } : {}), ...(country ? { country } : {}) };
}

function placeText(place: Pick<StructuredOrganization, 'locality' | 'region' | 'country'>): string | undefined {
  return [place.locality, place.region, place.country].filter(Boolean).join(', ') || undefined;
}

function jobPostingOf(node: JsonObject): StructuredJobPosting | undefined {
  const title = textOf(node.title) ?? textOf(node.name);
  if (!title) return undefined;
  const hiringOrganization = nameOf(node.hiringOrganization);
  const locations = dedupe(
    objectsOf(node.jobLocation, 5).map((place) => placeText(placeOf(place.address))).filter((text): text is string => text !== undefined),
    (text) => text,
  );
  const locationType = textOf(node.jobLocationType);
  const types = (Array.isArray(node.employmentType) ? node.employmentType.slice(0, 5) : [node.employmentType]).map(textOf).filter(Boolean);
  const employmentType = types.length ? types.join(', ') : undefined;
  const datePosted = typeof node.datePosted === 'string' ? isoDate(node.datePosted.slice(0, 100)) : undefined;
  return {
    title,
    ...(hiringOrganization ? { hiringOrganization } : {}),
    locations,
    ...(locationType ? { locationType } : {}),
    ...(employmentType ? { employmentType } : {}),
    ...(datePosted ? { datePosted } : {}),
  };
}

function dedupe<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The structured facts as lines of text, each a sentence made of the data's values and schema.org's
 * field names, nothing else: a price `<product>[, <offer>]: <price | low to high | from low | up to
 * high>[ <currency>][ per <unit>].`; the organization `<name>: founding date <date>; number of
 * employees <n>; address <place>.` (a line only when it says more than the name); a job posting
 * `Job posting: <title>; hiring organization <name>; job location <place> / <place>; job location
 * type <type>; employment type <type>; date posted <date>.` (parts missing from the data left out).
 */
function structuredLines(data: StructuredData): string[] {
  const lines: string[] = [];
  for (const product of data.products ?? []) {
    for (const offer of product.offers) lines.push(priceLine(product.name, offer));
  }
  const organization = data.organization;
  if (organization) {
    const facts = sentence([
      ['founding date', organization.foundingDate],
      ['number of employees', organization.numberOfEmployees],
      ['address', placeText(organization)],
    ]);
    if (facts) lines.push(`${organization.name}: ${facts}`);
  }
  for (const posting of data.jobPostings ?? []) {
    const facts = sentence([
      ['hiring organization', posting.hiringOrganization],
      ['job location', posting.locations.join(' / ') || undefined],
      ['job location type', posting.locationType],
      ['employment type', posting.employmentType],
      ['date posted', posting.datePosted],
    ]);
    lines.push(`Job posting: ${posting.title}${facts ? `; ${facts}` : '.'}`);
  }
  return dedupe(lines, (line) => line);
}

function priceLine(product: string, offer: StructuredOffer): string {
  const label = offer.name && offer.name !== product ? `${product}, ${offer.name}` : product;
  const amount = offer.price ?? range(offer.lowPrice, offer.highPrice);
  const currency = offer.currency ? ` ${offer.currency}` : '';
  const unit = !offer.unit ? '' : /^(per\b|\/)/i.test(offer.unit) ? ` ${offer.unit}` : ` per ${offer.unit}`;
  return `${label}: ${amount}${currency}${unit}.`;
}

/** `label value; label value.` of the parts that have a value; empty when none has. */
function sentence(parts: ReadonlyArray<readonly [string, string | undefined]>): string {
  const present = parts.filter(([, value]) => value).map(([label, value]) => `${label} ${value}`);
  return present.length ? `${present.join('; ')}.` : '';
}

/**
 * Markup left once the dropped elements are gone: comments, doctypes and other `<!...>`, processing
 * instructions, and start and end tags (attribute values in quotes may hold `>`), the tag name
 * captured. A `<` that starts none of these is text, as in HTML. Every branch that starts matches
 * (what is left open runs to the end, as a browser reads it), so nothing is scanned twice: the pass
 * is linear in the page's length whatever the page holds.
 */
const MARKUP = /<!--[\s\S]*?(?:-->|$)|<![^>]*(?:>|$)|<\?[^>]*(?:>|$)|<\/?([a-zA-Z][^\s/>]*)(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^'">])*(?:>|$)/g;

/** Runs `onEnd` when the element ends (its end tag, or an ancestor's); false for a void element, which has no end. */
function whenEnded(element: Element, onEnd: () => void): boolean {
  try {
    element.onEndTag(onEnd);
    return true;
  } catch {
    return false;
  }
}

// Controls (but tab and line breaks, which collapse as whitespace), soft hyphens, zero-width
// characters and byte-order marks: invisible in a browser, noise in a quote.
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\u00ad\u200b-\u200d\u2060\ufeff]/g;

/** Decoded, invisible characters removed, whitespace collapsed, trimmed. */
export function clean(raw: string): string {
  return decodeEntities(raw).replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/;

/** YYYY-MM-DD when `value` starts with a real calendar date, else undefined. */
function isoDate(value: string | null): string | undefined {
  const match = value ? ISO_DATE.exec(value.trim()) : null;
  if (!match) return undefined;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  const text = `${y}-${m}-${d}`;
  return date.toISOString().slice(0, 10) === text && Number(y) >= 1900 ? text : undefined;
}

/** Named character references decoded; others (there are over 2,000) are left as written. */
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  ndash: '\u2013', mdash: '\u2014', minus: '\u2212', hellip: '\u2026', bull: '\u2022', middot: '\u00b7',
  lsquo: '\u2018', rsquo: '\u2019', sbquo: '\u201a', ldquo: '\u201c', rdquo: '\u201d', bdquo: '\u201e', laquo: '\u00ab', raquo: '\u00bb',
  lsaquo: '\u2039', rsaquo: '\u203a', prime: '\u2032', Prime: '\u2033',
  copy: '\u00a9', reg: '\u00ae', trade: '\u2122', deg: '\u00b0', plusmn: '\u00b1', times: '\u00d7', divide: '\u00f7',
  euro: '\u20ac', pound: '\u00a3', yen: '\u00a5', cent: '\u00a2', curren: '\u00a4', sect: '\u00a7', para: '\u00b6', dagger: '\u2020',
  frac14: '\u00bc', frac12: '\u00bd', frac34: '\u00be', sup1: '\u00b9', sup2: '\u00b2', sup3: '\u00b3', micro: '\u00b5', permil: '\u2030',
  larr: '\u2190', rarr: '\u2192', uarr: '\u2191', darr: '\u2193', harr: '\u2194', check: '\u2713', star: '\u2606',
  iexcl: '\u00a1', iquest: '\u00bf', shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', lrm: '\u200e', rlm: '\u200f',
  Agrave: 'À', Aacute: 'Á', Acirc: 'Â', Atilde: 'Ã', Auml: 'Ä', Aring: 'Å', AElig: 'Æ', Ccedil: 'Ç', Egrave: 'È', Eacute: 'É',
  Ecirc: 'Ê', Euml: 'Ë', Igrave: 'Ì', Iacute: 'Í', Icirc: 'Î', Iuml: 'Ï', Ntilde: 'Ñ', Ograve: 'Ò', Oacute: 'Ó', Ocirc: 'Ô',
  Otilde: 'Õ', Ouml: 'Ö', Oslash: 'Ø', Ugrave: 'Ù', Uacute: 'Ú', Ucirc: 'Û', Uuml: 'Ü', Yacute: 'Ý', szlig: 'ß',
  agrave: 'à', aacute: 'á', acirc: 'â', atilde: 'ã', auml: 'ä', aring: 'å', aelig: 'æ', ccedil: 'ç', egrave: 'è', eacute: 'é',
  ecirc: 'ê', euml: 'ë', igrave: 'ì', iacute: 'í', icirc: 'î', iuml: 'ï', ntilde: 'ñ', ograve: 'ò', oacute: 'ó', ocirc: 'ô',
  otilde: 'õ', ouml: 'ö', oslash: 'ø', ugrave: 'ù', uacute: 'ú', ucirc: 'û', uuml: 'ü', yacute: 'ý', yuml: 'ÿ',
  OElig: 'Œ', oelig: 'œ', Scaron: 'Š', scaron: 'š', Zcaron: 'Ž', zcaron: 'ž',
};

/** What HTML makes of numeric references 0x80-0x9F (windows-1252), per the HTML standard. */
const WINDOWS_1252: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6, 0x89: 0x2030,
  0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022,
  0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

/**
 * Decodes character references: decimal and hex (a semicolon optional, as browsers read them; 0,
 * surrogates and values past U+10FFFF become U+FFFD) and the named ones in NAMED (with their
 * semicolon). Anything else is left as written.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (match, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) {
      const value = match.endsWith(';') ? NAMED[name] : undefined;
      return value ?? match;
    }
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    const mapped = WINDOWS_1252[code] ?? code;
    if (mapped === 0 || mapped > 0x10ffff || (mapped >= 0xd800 && mapped <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(mapped);
  });
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i;

/**
 * The encoding a page body is read in, as TextDecoder names it (`utf-8`, `windows-1252`, ...): a
 * byte-order mark's, else the Content-Type's charset, else (HTML) a `<meta charset>` in its first
 * 1024 bytes, else UTF-8; UTF-8 too for a label the runtime does not know (the page is read rather
 * than refused). One answer for a page's text (decodeBody) and its links (src/sites/links.ts).
 */
export function textEncodingOf(body: Uint8Array, contentType: string, html: boolean): string {
  let label = /;\s*charset\s*=\s*["']?([A-Za-z0-9._:-]+)/i.exec(contentType)?.[1];
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) label = 'utf-8';
  else if (body[0] === 0xfe && body[1] === 0xff) label = 'utf-16be';
  else if (body[0] === 0xff && body[1] === 0xfe) label = 'utf-16le';
  else if (!label && html) label = META_CHARSET.exec(new TextDecoder('latin1').decode(body.subarray(0, 1024)))?.[1];
  try {
    return new TextDecoder(label ?? 'utf-8').encoding;
  } catch {
    return 'utf-8';
  }
}

/** The body as text, in textEncodingOf's encoding (a byte-order mark dropped; bytes that do not decode become U+FFFD). */
export function decodeBody(body: Uint8Array, contentType: string, html: boolean): string {
  return new TextDecoder(textEncodingOf(body, contentType, html)).decode(body);
}
