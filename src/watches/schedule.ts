import type { Schedule } from 'agents';

/**
 * A watch's schedule, kept by its `agents` Agent (its own tables and its one alarm): the first
 * execution at creation and one every `frequency` (`scheduledExecution`), at most one backoff
 * retry after a failure (`retryExecution`), a mirror retry after a failed D1 write (`remirror`),
 * and `deliverWebhooks` when a webhook message is due. These helpers work on the object through
 * the part of the Agent schedule API they need.
 */

/** The watch object's schedule callbacks. */
export type WatchCallback = 'scheduledExecution' | 'retryExecution' | 'remirror' | 'deliverWebhooks';

/** The part of an Agent's schedule API the watch uses. */
export interface WatchSchedule {
  schedule(when: Date | number, callback: WatchCallback): Promise<Schedule<unknown>>;
  scheduleEvery(intervalSeconds: number, callback: WatchCallback): Promise<Schedule<unknown>>;
  listSchedules(): Promise<Schedule<unknown>[]>;
  cancelSchedule(id: string): Promise<boolean>;
}

/** Schedules a new watch's executions: the first now, then one every `frequencySeconds`. */
export async function scheduleExecutions(agent: WatchSchedule, frequencySeconds: number, now: Date): Promise<void> {
  await agent.schedule(now, 'scheduledExecution');
  await agent.scheduleEvery(frequencySeconds, 'scheduledExecution');
}

/** Ends the watch's executions (its interval, retry and mirror retries); webhook deliveries of finished executions go on. */
export async function cancelExecutions(agent: WatchSchedule): Promise<void> {
  for (const schedule of await agent.listSchedules()) {
    if (schedule.callback !== 'deliverWebhooks') await agent.cancelSchedule(schedule.id);
  }
}

/**
 * When the next execution is due, or null when nothing is scheduled. `firing` holds the schedules
 * firing now: a one-off among them will not come again; an interval comes again one period on.
 */
export async function nextRunAt(agent: WatchSchedule, firing: ReadonlySet<string>): Promise<string | null> {
  const now = Date.now() / 1000;
  const times = (await agent.listSchedules())
    .filter((s) => s.callback === 'scheduledExecution' || s.callback === 'retryExecution')
    .flatMap((s) => {
      if (!firing.has(s.id)) return [s.time];
      return s.type === 'interval' ? [Math.floor(now) + s.intervalSeconds] : [];
    });
  return times.length ? new Date(Math.min(...times) * 1000).toISOString() : null;
}

/**
 * Keeps exactly one `deliverWebhooks` schedule, at `earliestMs` (when the earliest message is due,
 * rounded up to the second, the schedule's resolution), or none when it is null (the outbox is empty).
 */
export async function armDeliveries(agent: WatchSchedule, earliestMs: number | null): Promise<void> {
  const jobs = (await agent.listSchedules()).filter((s) => s.callback === 'deliverWebhooks');
  const at = earliestMs === null ? null : Math.ceil(earliestMs / 1000);
  let armed = false;
  for (const job of jobs) {
    if (!armed && at !== null && job.time <= at) armed = true;
    else await agent.cancelSchedule(job.id);
  }
  if (!armed && at !== null) await agent.schedule(new Date(at * 1000), 'deliverWebhooks');
}
