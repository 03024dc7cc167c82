import { describe, expect, it } from 'vitest';
import { requestAction } from '../../src/operations/actions/actions.ts';
import { call, createOrganization } from '../helpers/fixtures.ts';
import { contextOf, importLines } from '../operations/action-helpers.ts';
import { auditReport, section } from './audit-helpers.ts';

const DAY = 24 * 3600 * 1000;

describe('the audit lists approval requests waiting longer than 3 days', () => {
  it('names pending requests older than 3 days, not newer, decided, expired or other organizations\' ones', async () => {
    const org = await createOrganization();
    const other = await createOrganization();
    await importLines(org, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    await importLines(other, [{ type: 'company', key: 'acme.com', properties: { name: 'Acme' } }]);
    const update = { action: 'update_properties' as const, params: { type: 'company', key: 'acme.com', properties: { name: 'Acme Two' } } };
    const ago = (days: number) => new Date(Date.now() - days * DAY);

    const waiting = await requestAction(contextOf(org), update, ago(4));
    await requestAction(contextOf(org), update, ago(2)); // recent
    await requestAction(contextOf(org), update, ago(8)); // expired, though nobody read it since
    const withdrawn = await requestAction(contextOf(org), update, ago(5));
    expect((await call(`/api/v1/oms/actions/${withdrawn.id}/reject`, { key: org.key, method: 'POST' })).status).toBe(200);
    await requestAction(contextOf(other), update, ago(4));

    const report = await auditReport(org.key);
    const approvals = section(report, 'Approval requests');
    expect(approvals).toContain('1 approval request(s) pending for more than 3 days.');
    expect(approvals).toContain(`- ${waiting.id}: update_properties, requested ${waiting.createdAt.slice(0, 10)} by key ${org.keyId}`);
    expect(approvals.match(/apr_/g)).toHaveLength(1);
    expect(report).toContain(`POST /api/v1/oms/actions/${waiting.id}/approve or /reject`);
    expect(section(report, 'Method')).toContain('Approval requests: every request still pending more than 3 days');
  });

  it('says none wait when there are none', async () => {
    const org = await createOrganization();
    const approvals = section(await auditReport(org.key), 'Approval requests');
    expect(approvals).toContain('0 approval request(s) pending for more than 3 days.');
  });
});
