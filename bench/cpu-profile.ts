/**
 * A V8 CPU profile of one Worker under load, through workerd's inspector (Chrome DevTools Protocol
 * over a WebSocket, `ws://<inspector>/core:user:<worker>`): `npm run bench -- --only <s> --profile`.
 * Prints the functions with the most self time and writes the `.cpuprofile` (open it in Chrome's
 * DevTools, Performance panel) next to the results.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One inspector session: `send` a CDP method and get its result. */
export class InspectorSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private readonly socket: WebSocket;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result);
    });
  }

  /** `origin`: wrangler's inspector proxy accepts DevTools only from a local Origin. */
  static async open(url: string, origin?: string): Promise<InspectorSession> {
    // Node's WebSocket (undici) takes headers in its second argument, beyond the web's standard.
    const socket = origin === undefined ? new WebSocket(url) : new WebSocket(url, { headers: { Origin: origin } } as unknown as string[]);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`could not open the inspector at ${url}`)), { once: true });
    });
    return new InspectorSession(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise<T>((resolve, reject) => this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject }));
  }

  close(): void {
    this.socket.close();
  }
}

/** Starts sampling (every `intervalUs`); the returned function stops it and gives the profile. */
export async function startProfiling(session: InspectorSession, intervalUs = 100): Promise<() => Promise<CpuProfile>> {
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.send('Profiler.start');
  return async () => (await session.send<{ profile: CpuProfile }>('Profiler.stop')).profile;
}

export interface HotFunction {
  name: string;
  where: string;
  selfMs: number;
  /** Self time over all sampled time but idle. */
  share: number;
  /** Time in the function and what it called (a function that calls itself is counted once per level). */
  totalShare: number;
}

/** Self time per function (summed over every node of that function), most first. */
export function hotFunctions(profile: CpuProfile, top = 25): HotFunction[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((nodeId, index) => selfUs.set(nodeId, (selfUs.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const inclusiveUs = new Map<number, number>();
  const inclusive = (id: number): number => {
    const known = inclusiveUs.get(id);
    if (known !== undefined) return known;
    const node = nodes.get(id)!;
    const us = (selfUs.get(id) ?? 0) + (node.children ?? []).reduce((sum, child) => sum + inclusive(child), 0);
    inclusiveUs.set(id, us);
    return us;
  };
  const byFunction = new Map<string, { name: string; where: string; us: number; totalUs: number }>();
  let total = 0;
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    const name = frame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(program)' || name === '(root)') continue;
    const where = frame.url ? `${frame.url.split('/').pop()}:${frame.lineNumber + 1}` : '';
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, us: 0, totalUs: 0 };
    const self = selfUs.get(node.id) ?? 0;
    entry.us += self;
    entry.totalUs += inclusive(node.id);
    byFunction.set(key, entry);
    total += self;
  }
  return [...byFunction.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((entry) => ({
      name: entry.name,
      where: entry.where,
      selfMs: entry.us / 1000,
      share: total > 0 ? entry.us / total : 0,
      totalShare: total > 0 ? entry.totalUs / total : 0,
    }));
}
