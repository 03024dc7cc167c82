import { runInDurableObject } from 'cloudflare:test';
import type { Agent } from 'agents';

/**
 * Makes every one-off schedule of an `agents` object due now, as if its wait (a backoff, a retry
 * delay) had passed: each is cancelled and scheduled again for now with the same callback and
 * payload, which re-arms the object's alarm. An Agent's alarm runs only the schedules that are due,
 * so moving the platform alarm alone (`storage.setAlarm(Date.now())`) no longer brings a wait forward.
 */
export async function bringSchedulesForward(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, async (instance: Agent) => {
    const now = Date.now();
    for (const schedule of await instance.listSchedules()) {
      if (schedule.type === 'cron' || schedule.type === 'interval' || schedule.time * 1000 <= now) continue;
      await instance.cancelSchedule(schedule.id);
      await instance.schedule(new Date(now), schedule.callback as keyof Agent, schedule.payload);
    }
  });
}
