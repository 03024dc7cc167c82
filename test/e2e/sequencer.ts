import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files are started in, when `npm test` runs both projects within one maxWorkers.
 *
 * Vitest's own order (its sort, below) runs the projects one after another by name, so the e2e
 * files took every worker for the first minutes (much of that waiting: on wrangler, on a retry
 * alarm, on a cache's bound) while the Workers-pool files waited for a free one. Here the two e2e
 * files that take longest start first (the legacy database upgrade, many wrangler runs; the webhook
 * retry that waits for its 30 s alarm), beside the Workers-pool files, and the other e2e files
 * follow those. A worker that passes from one project to the other starts a new runtime, so the
 * projects are not mixed more than that. Within each project the order stays Vitest's (failed
 * first, then the longest last time, or the largest on a first run).
 */
const FIRST = ['legacy-database-upgrade', 'watch-webhooks'];
const LONGER = ['conformance', 'rest', 'mcp-refusals', 'npm-run-dev'];

const rank = (names: string[], spec: TestSpecification) => {
  const index = names.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));
  return index === -1 ? names.length : index;
};

export default class E2eAroundSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isE2e = (spec: TestSpecification) => spec.project.name === 'e2e';
    const e2e = sorted.filter(isE2e);
    const first = e2e.filter((spec) => rank(FIRST, spec) < FIRST.length).sort((a, b) => rank(FIRST, a) - rank(FIRST, b));
    const later = e2e.filter((spec) => rank(FIRST, spec) === FIRST.length).sort((a, b) => rank(LONGER, a) - rank(LONGER, b));
    return [...first, ...sorted.filter((spec) => !isE2e(spec)), ...later];
  }
}
