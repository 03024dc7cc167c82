/**
 * HTMLRewriter with its selectors parsed once per isolate instead of once per page. `.on()` parses
 * its selector every time it is called, and a page read registers about forty (the text's dropped
 * elements, tabs, titles and dates, the links'), which cost a site read about a quarter of a
 * millisecond per page. A rewriter may transform any number of responses, one after another or at
 * once, calling its handlers for each: so the registrations of one parse are recorded (no parsing),
 * and a rewriter kept for that list of selectors runs them, its handlers forwarding each call to the
 * recorded handlers of the parse it is transforming for. Each parse has a rewriter of its own while
 * it runs (taken from the free ones of its list, or built), so parses at once never share handlers.
 */

/** What a parse registers handlers on: HTMLRewriter itself, or the recorder below. */
export interface RewriterRegistry {
  on(selector: string, handlers: HTMLRewriterElementContentHandlers): RewriterRegistry;
}

interface Registration {
  selector: string;
  handlers: HTMLRewriterElementContentHandlers;
}

/** A rewriter built for one list of registrations, and the handlers of the parse it serves now. */
interface KeptRewriter {
  rewriter: HTMLRewriter;
  serving: HTMLRewriterElementContentHandlers[];
}

/** Rewriters kept free per list of registrations (parses at once beyond it build more; they are dropped after). */
const MAX_FREE_PER_SHAPE = 4;
/** Lists of registrations kept: each caller registers one list (or two), so this is only a bound. */
const MAX_SHAPES = 16;

const free = new Map<string, KeptRewriter[]>();

/**
 * Runs `register` (which calls `.on()` as it would on a new HTMLRewriter) and transforms `input`
 * with those handlers, on a rewriter whose selectors were parsed by an earlier parse of the same
 * registrations when there was one; `read` consumes the transformed response. The rewriter is free
 * for the next parse once `read` has settled.
 */
export async function rewriteWith<T>(register: (registry: RewriterRegistry) => void, input: Response, read: (output: Response) => Promise<T>): Promise<T> {
  const registrations: Registration[] = [];
  const recorder: RewriterRegistry = {
    on(selector, handlers) {
      registrations.push({ selector, handlers });
      return recorder;
    },
  };
  register(recorder);
  const shape = registrations.map(({ selector, handlers }) => `${handlers.element ? 'e' : ''}${handlers.text ? 't' : ''}${handlers.comments ? 'c' : ''}:${selector}`).join('\n');
  const kept = free.get(shape)?.pop() ?? build(registrations);
  kept.serving = registrations.map((r) => r.handlers);
  try {
    return await read(kept.rewriter.transform(input));
  } finally {
    kept.serving = [];
    release(shape, kept);
  }
}

/** A rewriter with one forwarding registration per recorded one, of the same kinds (element, text, comments). */
function build(registrations: readonly Registration[]): KeptRewriter {
  const kept: KeptRewriter = { rewriter: new HTMLRewriter(), serving: [] };
  registrations.forEach(({ selector, handlers }, index) => {
    const forward: HTMLRewriterElementContentHandlers = {};
    if (handlers.element) forward.element = (element) => kept.serving[index]?.element?.(element);
    if (handlers.text) forward.text = (chunk) => kept.serving[index]?.text?.(chunk);
    if (handlers.comments) forward.comments = (comment) => kept.serving[index]?.comments?.(comment);
    kept.rewriter.on(selector, forward);
  });
  return kept;
}

function release(shape: string, kept: KeptRewriter): void {
  let list = free.get(shape);
  if (!list) {
    if (free.size >= MAX_SHAPES) return;
    list = [];
    free.set(shape, list);
  }
  if (list.length < MAX_FREE_PER_SHAPE) list.push(kept);
}
