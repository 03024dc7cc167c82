import { RUN_PLANS } from '../../src/runs/plans.ts';
import type { RunKind, RunPlan } from '../../src/runs/types.ts';

/** The real run plans, with `kind`'s steps executed by `executeStep` (to count, hold or fail them). */
export function plansWithSteps(kind: RunKind, executeStep: RunPlan['executeStep']): Record<RunKind, RunPlan> {
  return { ...RUN_PLANS, [kind]: { ...RUN_PLANS[kind], executeStep } };
}
