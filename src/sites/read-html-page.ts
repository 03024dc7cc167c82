import { isHtmlType, readPageText, type FetchedPage } from '../oms/fetch-source.ts';
import { DEFAULT_MAX_BYTES, extractLinks, linkCollector, type ExtractedLinks, type ExtractLinksOptions } from './links.ts';

/**
 * A page's text and its links from one parse: what readPageText (src/oms/fetch-source.ts) and
 * extractLinks (links.ts) give for the same body, with one HTMLRewriter pass over the body in
 * memory instead of two, and none of extractLinks's stream reading.
 *
 * What it guarantees, for a body of at most `maxBytes` (DEFAULT_MAX_BYTES, 2 MiB: the most a page
 * fetch reads, SOURCE_FETCH.maxBodyBytes, so every page a site read fetches):
 * - `text` is what readPageText returns for the body, or `{ thrown }`, what it throws (PageUnreadable).
 * - `links` is what extractLinks returns for a Response of the body with this Content-Type: the same
 *   links, canonical, feeds, robots, site name and base (the handlers are extractLinks's own, and they
 *   run inside the elements the text leaves out too: a `nav`, a `hidden` element), in the same
 *   charset (textEncodingOf for both), `bytesRead` the whole body and `truncatedBytes` false.
 * - When the parse stops part-way (a page with too much markup for its text, or markup lol-html gives
 *   up on), the page is read again as readPageText and extractLinks read it, each on its own, so
 *   that `text` is readPageText's error (or text) and `links` what extractLinks finds, with its
 *   `parseError`. Such pages are rare; they cost the two parses they cost before.
 *
 * A longer body is read in two parses, kept honest: the text of the whole body (as readPageText
 * reads it) and the links of its first `maxBytes` bytes (as extractLinks reads them: `truncatedBytes`
 * true). A body that is not HTML (isHtmlType: `text/plain`, ...) is read as plain text, and has no
 * links (no base but the page's URL, no robots meta tags; `bytesRead` 0): it is not parsed as HTML.
 */
export interface HtmlPageRead {
  links: ExtractedLinks;
  /** readPageText's result, or `{ thrown }`: the error it throws for this body (PageUnreadable). */
  text: FetchedPage | { thrown: unknown };
}

/** Reads the page `body` (of `contentType`, fetched from `url`) for its text and its links, in one parse (see HtmlPageRead). */
export async function readHtmlPage(body: Uint8Array, contentType: string, url: string, options: ExtractLinksOptions = {}): Promise<HtmlPageRead> {
  const collector = linkCollector(options);
  // Checked as extractLinks checks it (a RangeError), though only a longer body reads it.
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError(`maxBytes is an integer of 1 or more; got ${String(options.maxBytes)}`);

  if (!isHtmlType(contentType)) {
    return { links: collector.result(url, { bytesRead: 0, truncatedBytes: false }), text: await settled(readPageText(body, contentType, url)) };
  }
  if (body.byteLength <= maxBytes) {
    try {
      const text = await readPageText(body, contentType, url, { also: collector.on });
      return { links: collector.result(url, { bytesRead: body.byteLength, truncatedBytes: false }), text };
    } catch {
      // The parse stopped part-way: read again below, as each reader alone reads it.
    }
  }
  const links = await extractLinks(new Response(body, { headers: { 'content-type': contentType } }), url, options);
  return { links, text: await settled(readPageText(body, contentType, url)) };
}

async function settled(read: Promise<FetchedPage>): Promise<FetchedPage | { thrown: unknown }> {
  try {
    return await read;
  } catch (thrown) {
    return { thrown };
  }
}
