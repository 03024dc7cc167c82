import { describe, expect, it } from 'vitest';
import { WriteGroup, type Timers } from '../../../src/sites/read/write-group.ts';

/** Timers a test fires by hand: `fire()` runs the one set (at most one is, by WriteGroup). */
function handTimers(): Timers & { fire(): void; armed: number[] } {
  const set = new Map<number, () => void>();
  let next = 0;
  const armed: number[] = [];
  return {
    armed,
    set(run, ms) {
      armed.push(ms);
      set.set(++next, run);
      return next;
    },
    clear(timer) {
      set.delete(timer as number);
    },
    fire() {
      const pending = [...set.values()];
      set.clear();
      for (const run of pending) run();
    },
  };
}

/** A group whose flush records each group sent and answers `done <item>` for each item. */
function recordingGroup(timers = handTimers()) {
  const sent: string[][] = [];
  const group = new WriteGroup<string, string>(
    (items) => {
      sent.push(items);
      return items.map(async (item) => `done ${item}`);
    },
    { maxWaitMs: 20, timers },
  );
  return { group, sent, timers };
}

/** A promise and its resolver: a page's work that ends when the test says. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Two pages in flight: the second writes 'b' once `other` opens; the first writes 'a' at once (so it waits for the second). */
function twoPages(group: WriteGroup<string, string>) {
  const other = gate();
  const second = group.inFlight(async () => {
    await other.promise;
    return group.write('b');
  });
  const first = group.inFlight(() => group.write('a'));
  return { other, first, second };
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('WriteGroup', () => {
  it('sends a write at once when no other page is in flight', async () => {
    const { group, sent, timers } = recordingGroup();
    expect(await group.write('a')).toBe('done a');
    expect(await group.inFlight(() => group.write('b'))).toBe('done b');
    expect(sent).toEqual([['a'], ['b']]);
    expect(timers.armed).toEqual([]);
  });

  it('sends the writes of two pages in flight as one group when both are ready', async () => {
    const { group, sent } = recordingGroup();
    const { other, first, second } = twoPages(group);
    await tick();
    expect(group.waiting).toBe(1);
    expect(sent).toEqual([]);
    other.open();
    expect(await Promise.all([first, second])).toEqual(['done a', 'done b']);
    expect(sent).toEqual([['a', 'b']]);
  });

  it('sends a waiting write as soon as the other page is done without one', async () => {
    const { group, sent, timers } = recordingGroup();
    const other = gate();
    const second = group.inFlight(() => other.promise);
    const first = group.inFlight(() => group.write('a'));
    await tick();
    expect(sent).toEqual([]);
    other.open();
    await second;
    expect(await first).toBe('done a');
    expect(sent).toEqual([['a']]);
    // The wait's timer was set, and cleared when the write went: firing it now sends nothing more.
    expect(timers.armed).toEqual([20]);
    timers.fire();
    expect(sent).toEqual([['a']]);
  });

  it('waits at most maxWaitMs for the other page', async () => {
    const { group, sent, timers } = recordingGroup();
    const { other, first, second } = twoPages(group);
    await tick();
    expect(sent).toEqual([]);
    expect(timers.armed).toEqual([20]);
    timers.fire();
    expect(await first).toBe('done a');
    expect(sent).toEqual([['a']]);
    other.open();
    expect(await second).toBe('done b');
    expect(sent).toEqual([['a'], ['b']]);
  });

  it('does not wait for a page set aside (rendered in a browser)', async () => {
    const { group, sent } = recordingGroup();
    const rendering = gate();
    const renderer = group.inFlight(async () => {
      await group.aside(() => rendering.promise);
      return group.write('rendered');
    });
    await tick();
    expect(await group.inFlight(() => group.write('plain'))).toBe('done plain');
    expect(sent).toEqual([['plain']]);
    rendering.open();
    expect(await renderer).toBe('done rendered');
    expect(sent).toEqual([['plain'], ['rendered']]);
  });

  it("gives each write its own result or failure, and a flush that throws fails its group's writes", async () => {
    const failing = new WriteGroup<string, string>(
      (items) => items.map(async (item) => {
        if (item === 'bad') throw new Error('bad write');
        return `done ${item}`;
      }),
      { maxWaitMs: 20, timers: handTimers() },
    );
    const other = gate();
    const bad = failing.inFlight(async () => {
      await other.promise;
      return failing.write('bad');
    });
    const good = failing.inFlight(() => failing.write('good'));
    other.open();
    await expect(good).resolves.toBe('done good');
    await expect(bad).rejects.toThrow('bad write');

    const broken = new WriteGroup<string, string>(
      () => {
        throw new Error('no flush');
      },
      { maxWaitMs: 20, timers: handTimers() },
    );
    await expect(broken.write('a')).rejects.toThrow('no flush');
    const short = new WriteGroup<string, string>(() => [], { maxWaitMs: 20, timers: handTimers() });
    await expect(short.write('a')).rejects.toThrow('returned 0 results for 1 writes');
  });
});
