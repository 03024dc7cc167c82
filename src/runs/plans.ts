import { auditPlan } from './audit.ts';
import { gtmAuditPlan } from './gtm-audit.ts';
import { siteReadPlan } from '../sites/read/plan.ts';
import type { RunKind, RunPlan } from './types.ts';

export const RUN_PLANS: Record<RunKind, RunPlan> = {
  'gtm-audit': gtmAuditPlan,
  audit: auditPlan,
  'site-read': siteReadPlan,
};
