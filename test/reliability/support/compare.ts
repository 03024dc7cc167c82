/** The shape of a JSON value: its types and keys, recursively, without the values themselves. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]));
  return value === null ? 'null' : typeof value;
}

export interface Seen {
  status: number;
  contentType: string;
  /** The body with the value asked for replaced by `<value>`, and request ids and times blanked. */
  text: string;
  shape: unknown;
}

/** What a client can tell from an answer, with the value it sent masked (the message may quote it). */
export async function seen(response: Response, value: string): Promise<Seen> {
  const raw = await response.text();
  const masked = raw
    .split(value)
    .join('<value>')
    .split(encodeURIComponent(value))
    .join('<value>')
    .replace(/"requestId":"[^"]*"/g, '"requestId":"<id>"')
    // What each request mints (a watch's or an approval's id, the times it was made at) differs whatever was asked.
    .replace(/\b(wch|apr|wex|brf)_[0-9a-f]{32}\b/g, '$1_<minted>')
    // The D1 bookmark is a position in the whole database: it moves with every request, whatever was asked.
    .replace(/"recon\/bookmark":"[0-9a-f-]*"/g, '"recon/bookmark":"<bookmark>"')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g, '<time>')
    .replace(/request id [\w-]+/g, 'request id <id>');
  let shape: unknown = 'text';
  try {
    shape = shapeOf(JSON.parse(raw));
  } catch {
    // markdown or HTML: the masked text is compared instead
  }
  return { status: response.status, contentType: (response.headers.get('Content-Type') ?? '').split(';')[0]!, text: masked, shape };
}
