import { abortAllDurableObjects, listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll } from 'vitest';

/**
 * No Durable Object work outlives its test file.
 *
 * The workers project runs its files one after another in one runtime (`isolate: false`), so what a
 * file's objects still had to do when it ended used to happen while later files ran: a webhook
 * retry armed 30 s on (`watch_webhook_retry`), the backoff retry of a failed execution, a delivery
 * under way, a run's next step or its summary retry. That work met the test doubles of a file that
 * was over (a fake receiver's fetch from a finished test failed with "internal error"), wrote into
 * the shared database and logged. A console line reaches Vitest over its RPC channel; one sent from
 * an object as a file closes is still pending when the channel closes, and the whole run fails with
 * `EnvironmentTeardownError: [vitest-worker]: Closing rpc while "onUserConsoleLog" was pending`
 * though every test passed. With a runtime per file, the file's end ended that work; this ends it
 * the same way, after the file's last test (setup files' hooks run after the file's own).
 *
 * The instances are aborted (a delivery or an alarm's handler under way ends with them); then every
 * object this file made (the ids listed after its last test and not before its first) loses its
 * alarm, and the instances are aborted again, since an alarm could fire and re-arm in between:
 * until a round finds no alarm. Storage is kept: tests never read another file's objects, and an
 * object without an alarm does nothing until it is called. (A WatchObject's Agent schedules stay
 * in its storage; only the alarm would have run them. Its Agent API cannot be used here: the ids
 * listed carry no name, and an Agent needs its name to start.)
 */

interface MadeObject {
  key: string;
  stub(): DurableObjectStub;
}

async function objectsOf<T extends Rpc.DurableObjectBranded | undefined>(namespace: DurableObjectNamespace<T>): Promise<MadeObject[]> {
  return (await listDurableObjectIds(namespace)).map((id) => ({ key: id.toString(), stub: () => namespace.get(id) }));
}

/** Every Run and Watch object with storage in this runtime. */
async function objects(): Promise<MadeObject[]> {
  return (await Promise.all([objectsOf(env.RUNS), objectsOf(env.WATCHES)])).flat();
}

/** Removes the object's alarm; true when it had one. */
function disarm(stub: DurableObjectStub): Promise<boolean> {
  return runInDurableObject(stub, async (_instance, state) => {
    const armed = (await state.storage.getAlarm()) !== null;
    if (armed) await state.storage.deleteAlarm();
    return armed;
  });
}

let before = new Set<string>();

beforeAll(async () => {
  before = new Set((await objects()).map(({ key }) => key));
});

afterAll(async () => {
  // Aborted first, so that no object is still being made (or armed) while they are listed.
  await abortAllDurableObjects();
  const made = (await objects()).filter(({ key }) => !before.has(key));
  for (let round = 0; round < 5; round++) {
    const armed = await Promise.all(made.map((object) => disarm(object.stub())));
    await abortAllDurableObjects();
    if (!armed.includes(true)) break;
  }
});
