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
 *                        `body`: the body itself when it fits one piece (most pages: one
 *                        statement per copy), else null and the body is in
 *   shared_page_chunks   pieces of CHUNK_BYTES, in order (`seq` from 0): a SQLite row holds at most
 *                        2 MB, and a read fetches bodies up to 10 MiB.
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
  body: ArrayBuffer | null;
}

export class SharedPageStore {
  /** How many copies and body bytes are kept, once counted (the store is their only writer). */
  #size: { pages: number; bytes: number } | undefined;

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
      made_by TEXT,
      body BLOB
    )`);
    // Gates made before bodies were kept inline have the table without the column.
    if (storage.sql.exec("SELECT 1 FROM pragma_table_info('shared_pages') WHERE name = 'body'").toArray().length === 0) {
      storage.sql.exec('ALTER TABLE shared_pages ADD COLUMN body BLOB');
    }
    storage.sql.exec('CREATE INDEX IF NOT EXISTS shared_pages_by_age ON shared_pages (fetched_at)');
    storage.sql.exec('CREATE TABLE IF NOT EXISTS shared_page_chunks (key TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (key, seq))');
  }

  /** The copy kept under `key`, if any. */
  get(key: string): SharedCopy | undefined {
    const row = this.storage.sql.exec<PageRow>('SELECT url, kind, status, content_type, robots_tag, etag, last_modified, bytes, fetched_at, made_by, body FROM shared_pages WHERE key = ?', key).toArray()[0];
    if (!row) return undefined;
    const by = row.made_by === null ? {} : { madeBy: row.made_by };
    if (row.kind === 'gone') return { kind: 'gone', url: row.url, status: row.status === 410 ? 410 : 404, fetchedAt: row.fetched_at, ...by };
    const body = row.body === null ? new Uint8Array(row.bytes) : new Uint8Array(row.body);
    let offset = row.body === null ? 0 : row.body.byteLength;
    if (row.body === null) for (const chunk of this.storage.sql.exec<{ data: ArrayBuffer }>('SELECT data FROM shared_page_chunks WHERE key = ? ORDER BY seq', key)) {
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
    const size = this.size();
    try {
      this.#write(key, copy, size);
    } catch (error) {
      this.#size = undefined; // rolled back: counted again
      throw error;
    }
  }

  #write(key: string, copy: SharedCopy, size: { pages: number; bytes: number }): void {
    this.#size = undefined;
    this.storage.transactionSync(() => {
      const page = copy.kind === 'page' ? copy : undefined;
      const inline = page !== undefined && page.body.byteLength <= CHUNK_BYTES ? page.body : null;
      const insert = (): boolean =>
        this.storage.sql
          .exec(
            `INSERT INTO shared_pages (key, url, kind, status, content_type, robots_tag, etag, last_modified, bytes, fetched_at, made_by, body)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING RETURNING 1 AS inserted`,
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
            inline,
          )
          .toArray().length > 0;
      // A new key takes one statement; a key already kept is deleted (its pieces too) and inserted again.
      let replaced: number | undefined;
      if (!insert()) {
        replaced = this.delete(key);
        insert();
      }
      if (page && inline === null) {
        for (let seq = 0, offset = 0; offset < page.body.byteLength; seq++, offset += CHUNK_BYTES) {
          this.storage.sql.exec('INSERT INTO shared_page_chunks (key, seq, data) VALUES (?, ?, ?)', key, seq, page.body.slice(offset, offset + CHUNK_BYTES));
        }
      }
      this.#size = {
        pages: size.pages + 1 - (replaced === undefined ? 0 : 1),
        bytes: size.bytes + (page?.body.byteLength ?? 0) - (replaced ?? 0),
      };
      this.evict();
    });
  }

  /** The site confirmed the copy (304 to its validators) for `madeBy`'s request: it counts as fetched at `at`, by it. False when no copy is kept under `key`. */
  touch(key: string, at: number, madeBy?: string): boolean {
    return this.storage.sql.exec('UPDATE shared_pages SET fetched_at = ?, made_by = ? WHERE key = ? RETURNING 1 AS touched', at, madeBy ?? null, key).toArray().length > 0;
  }

  /** Deletes the copy under `key`; its body's bytes, or undefined when there was none. */
  delete(key: string): number | undefined {
    const row = this.storage.sql.exec<{ chunked: number; bytes: number }>("DELETE FROM shared_pages WHERE key = ? RETURNING kind = 'page' AND body IS NULL AS chunked, bytes", key).toArray()[0];
    if (row === undefined) return undefined;
    if (row.chunked) this.storage.sql.exec('DELETE FROM shared_page_chunks WHERE key = ?', key);
    if (this.#size) this.#size = { pages: this.#size.pages - 1, bytes: this.#size.bytes - row.bytes };
    return row.bytes;
  }

  /** Deletes every copy fetched before `cutoff`; the oldest `fetched_at` left, if any. */
  deleteFetchedBefore(cutoff: number): number | null {
    this.#size = undefined;
    this.storage.transactionSync(() => {
      this.storage.sql.exec('DELETE FROM shared_page_chunks WHERE key IN (SELECT key FROM shared_pages WHERE fetched_at < ?)', cutoff);
      this.storage.sql.exec('DELETE FROM shared_pages WHERE fetched_at < ?', cutoff);
    });
    const oldest = this.storage.sql.exec<{ oldest: number | null }>('SELECT MIN(fetched_at) AS oldest FROM shared_pages').one().oldest;
    return oldest;
  }

  /** How many copies and body bytes the site keeps. */
  size(): { pages: number; bytes: number } {
    if (this.#size) return this.#size;
    const row = this.storage.sql.exec<{ pages: number; bytes: number | null }>('SELECT COUNT(*) AS pages, SUM(bytes) AS bytes FROM shared_pages').one();
    return (this.#size = { pages: row.pages, bytes: row.bytes ?? 0 });
  }

  /** Oldest first, until at most MAX_SHARED_PAGES copies and MAX_SHARED_BYTES remain. */
  private evict(): void {
    const within = () => this.size().pages <= MAX_SHARED_PAGES && this.size().bytes <= MAX_SHARED_BYTES;
    if (within()) return;
    // Read whole before deleting: at most MAX_SHARED_PAGES + 1 small rows.
    const oldest = this.storage.sql.exec<{ key: string }>('SELECT key FROM shared_pages ORDER BY fetched_at, key').toArray();
    for (const row of oldest) {
      if (within()) break;
      this.delete(row.key);
    }
  }
}
