import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import type { ExecutionRecord } from '../../src/ground/schemas/watch.ts';
import { importPricingPage, marketOrganization, NEW_PRICE, NO_WEB_CHANGE, OLD_PRICE, PRICING_URL, runNow } from './helpers.ts';
import { createHooked, FakeReceiver, fireDeliveries, newSecret, untilDelivery } from './webhook-helpers.ts';

const delivered = (n: number) => (executions: ExecutionRecord[]) => executions.length >= n && executions.every((e) => e.webhook?.state === 'delivered');

describe('watch webhooks carry what changed', () => {
  it("POSTs each execution's findings with its record: the first with since null, the next with the claims added and removed", async () => {
    const org = await marketOrganization();
    const secret = await newSecret(org);
    await importPricingPage(org.key, OLD_PRICE);
    const receiver = new FakeReceiver();
    // The watch researches Globex's name; its pricing page states the price under that name too.
    const id = await createHooked(org, receiver, { costCapMicros: 30_000 });
    await untilDelivery(id, delivered(1), 'the first delivery');

    await importPricingPage(org.key, NEW_PRICE);
    const second = await runNow(org.key, id);
    await fireDeliveries(id);
    const [latest, first] = await untilDelivery(id, delivered(2), 'the second delivery');
    expect(latest!.id).toBe(second.id);

    const payloads = receiver.sent.map((request) => new Webhook(secret).verify(request.body, request.headers) as ExecutionRecord);
    expect(payloads.map((p) => p.id)).toEqual([first!.id, second.id]);
    expect(payloads[0]!.findings).toEqual({ since: null, ...NO_WEB_CHANGE, added: [], removed: [] });
    expect(payloads[1]!.findings).toEqual({ since: payloads[0]!.id, ...NO_WEB_CHANGE, added: [{ text: NEW_PRICE, url: PRICING_URL }], removed: [{ text: OLD_PRICE, url: PRICING_URL }] });
  });
});
