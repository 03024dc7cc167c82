/** A page answer the shared copy keeps: a body, or gone. `fetchedAt`: when the site last answered for it (a 200, or a 304 confirming it). */
export type SharedCopy =
  | {
      kind: 'page';
      url: string;
      body: Uint8Array;
      contentType: string;
      robotsTag?: string;
      etag?: string;
      lastModified?: string;
      fetchedAt: number;
      /** The reader (organization) whose request the site last answered for it. */
      madeBy?: string;
    }
  | { kind: 'gone'; url: string; status: 404 | 410; fetchedAt: number; madeBy?: string };

/**
 * The shared copy of one site's recent pages, in its SiteHostGate's own SQLite (see shared-page.ts
 * for what enters it). Tables:
 *
 *   shared_pages         one row per request key (sharedKey: what was asked and the URL): the
 *                        answer's kind (`page` or `gone`), final URL, status, Content-Type,
 *                        X-Robots-Tag, ETag, Last-Modified, body size, `fetched_at` (ms: when
 *                        the site last answered for it, a 200 or a 304 confirming it) and
 *                        `made_by` (the organization whose read it answered: a copy never answers
 *                        its own organization's next read, which revalidates).
 *   shared_page_chunks   the body of each `page` row in pieces of CHUNK_BYTES, in order (`seq` from
 *                        0): a SQLite row holds at most 2 MB, and a read fetches bodies up to 10 MiB.
 *
 * Written only by SiteHostGate. Bounded per site: at most MAX_SHARED_PAGES rows and
 * MAX_SHARED_BYTES of bodies, the copies fetched longest ago evicted first; a body over
 * MAX_SHARED_BODY_BYTES is never kept (shared-page.ts).
 */

/**
 * Pages kept per site: twice the largest budget (500), so that a read of the largest budget, with
 * its robots.txt, sitemaps and feed paths, never evicts its own pages. At 500, a re-read in the same
 * order found each copy evicted just before it asked for it, and fetched it whole (or twice, when a
 * 304 confirmed a copy evicted meanwhile).
 */
export const MAX_SHARED_PAGES = 1_000;
/** Body bytes kept per site. */
export const MAX_SHARED_BYTES = 64 * 1024 * 1024;
/** One body piece: 1 MiB, well inside SQLite's 2 MB row with its key. */
const CHUNK_BYTES = 1024 * 1024;

interface PageRow extends Record<string, SqlStorageValue> {
  url: string;
  kind: string;
  status: number;
  content_type: string | null;
  robots_tag: string | null;
  etag: string | null;
  last_modified: string | null;
  bytes: number;
  fetched_at: number;
  made_by: string | null;
}

export class SharedPageStore {
  constructor(private readonly storage: DurableObjectStorage) {
    storage.sql.exec(`CREATE TABLE IF NOT EXISTS shared_pages (
      key TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('page', 'gone')),
      status INTEGER NOT NULL,
      content_type TEXT,
      robots_tag TEXT,
      etag TEXT,
      last_modified TEXT,
      bytes INTEGER NOT NULL,
      fetched_at INTEGER NOT NULL,
      made_by TEXT
    )`);
    storage.sql.exec('CREATE INDEX IF NOT EXISTS shared_pages_by_age ON shared_pages (fetched_at)');
    storage.sql.exec('CREATE TABLE IF NOT EXISTS shared_page_chunks (key TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (key, seq))');
  }

  /** The copy kept under `key`, if any. */
  get(key: string): SharedCopy | undefined {
    const row = this.storage.sql.exec<PageRow>('SELECT url, kind, status, content_type, robots_tag, etag, last_modified, bytes, fetched_at, made_by FROM shared_pages WHERE key = ?', key).toArray()[0];
    if (!row) return undefined;
    const by = row.made_by === null ? {} : { madeBy: row.made_by };
    if (row.kind === 'gone') return { kind: 'gone', url: row.url, status: row.status === 410 ? 410 : 404, fetchedAt: row.fetched_at, ...by };
    const body = new Uint8Array(row.bytes);
    let offset = 0;
    for (const chunk of this.storage.sql.exec<{ data: ArrayBuffer }>('SELECT data FROM shared_page_chunks WHERE key = ? ORDER BY seq', key)) {
      body.set(new Uint8Array(chunk.data), offset);
      offset += chunk.data.byteLength;
    }
    // A body that lost a piece is no copy at all.
    if (offset !== row.bytes) {
      this.delete(key);
      return undefined;
    }
    return {
      kind: 'page',
      url: row.url,
      body,
      contentType: row.content_type ?? '',
      ...(row.robots_tag === null ? {} : { robotsTag: row.robots_tag }),
      ...(row.etag === null ? {} : { etag: row.etag }),
      ...(row.last_modified === null ? {} : { lastModified: row.last_modified }),
      fetchedAt: row.fetched_at,
      ...by,
    };
  }

  /** Keeps `copy` under `key` (replacing what was there), then evicts the oldest copies past the bounds. */
  put(key: string, copy: SharedCopy): void {
    this.storage.transactionSync(() => {
      this.delete(key);
      const page = copy.kind === 'page' ? copy : undefined;
      this.storage.sql.exec(
        'INSERT INTO shared_pages (key, url, kind, status, content_type, robots_tag, etag, last_modified, bytes, fetched_at, made_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        key,
        copy.url,
        copy.kind,
        copy.kind === 'gone' ? copy.status : 200,
        page?.contentType ?? null,
        page?.robotsTag ?? null,
        page?.etag ?? null,
        page?.lastModified ?? null,
        page?.body.byteLength ?? 0,
        copy.fetchedAt,
        copy.madeBy ?? null,
      );
      if (page) {
        for (let seq = 0, offset = 0; offset < page.body.byteLength; seq++, offset += CHUNK_BYTES) {
          this.storage.sql.exec('INSERT INTO shared_page_chunks (key, seq, data) VALUES (?, ?, ?)', key, seq, page.body.slice(offset, offset + CHUNK_BYTES));
        }
      }
      this.evict();
    });
  }

  /** The site confirmed the copy (304 to its validators) for `madeBy`'s request: it counts as fetched at `at`, by it. */
  touch(key: string, at: number, madeBy?: string): void {
    this.storage.sql.exec('UPDATE shared_pages SET fetched_at = ?, made_by = ? WHERE key = ?', at, madeBy ?? null, key);
  }

  delete(key: string): void {
    this.storage.sql.exec('DELETE FROM shared_page_chunks WHERE key = ?', key);
    this.storage.sql.exec('DELETE FROM shared_pages WHERE key = ?', key);
  }

  /** Deletes every copy fetched before `cutoff`; the oldest `fetched_at` left, if any. */
  deleteFetchedBefore(cutoff: number): number | null {
    this.storage.transactionSync(() => {
      this.storage.sql.exec('DELETE FROM shared_page_chunks WHERE key IN (SELECT key FROM shared_pages WHERE fetched_at < ?)', cutoff);
      this.storage.sql.exec('DELETE FROM shared_pages WHERE fetched_at < ?', cutoff);
    });
    const oldest = this.storage.sql.exec<{ oldest: number | null }>('SELECT MIN(fetched_at) AS oldest FROM shared_pages').one().oldest;
    return oldest;
  }

  /** How many copies and body bytes the site keeps. */
  size(): { pages: number; bytes: number } {
    const row = this.storage.sql.exec<{ pages: number; bytes: number | null }>('SELECT COUNT(*) AS pages, SUM(bytes) AS bytes FROM shared_pages').one();
    return { pages: row.pages, bytes: row.bytes ?? 0 };
  }

  /** Oldest first, until at most MAX_SHARED_PAGES copies and MAX_SHARED_BYTES remain. */
  private evict(): void {
    let { pages, bytes } = this.size();
    if (pages <= MAX_SHARED_PAGES && bytes <= MAX_SHARED_BYTES) return;
    // Read whole before deleting: at most MAX_SHARED_PAGES + 1 small rows.
    const oldest = this.storage.sql.exec<{ key: string; bytes: number }>('SELECT key, bytes FROM shared_pages ORDER BY fetched_at, key').toArray();
    for (const row of oldest) {
      if (pages <= MAX_SHARED_PAGES && bytes <= MAX_SHARED_BYTES) break;
      this.delete(row.key);
      pages -= 1;
      bytes -= row.bytes;
    }
  }
}
