/**
 * The suite's budgets (issue 50, item 4): the reporter's verdict on a run's file and project times. The
 * whole reporter failing a real run was checked by hand once (docs/performance.md, "Test budgets").
 */
import { describe, expect, test } from 'vitest';
import { budgetScale, fileCeilingSeconds, PROJECT_BUDGET_SECONDS } from '../budgets';
import { REFERENCE_MS, slownessOf } from '../../scripts/lib/machine-speed.mjs';
import { judgeBudgets, overBudget } from '../support/slowest-files-reporter';

describe('the test budgets', () => {
  test('a file over its ceiling is named with its time and its ceiling', () => {
    const ceiling = fileCeilingSeconds('server', 'tests/server/webhooks.test.ts');
    const lines = overBudget([{ project: 'server', file: 'tests/server/webhooks.test.ts', seconds: ceiling + 1 }], new Map(), 1);
    expect(lines).toEqual([`  tests/server/webhooks.test.ts (server) took ${(ceiling + 1).toFixed(1)} s, over its ceiling of ${ceiling} s`]);
  });

  test('a file within its ceiling, and a project within its budget, pass', () => {
    const ceiling = fileCeilingSeconds('unit', 'tests/unit/plan-terms.test.ts');
    expect(overBudget([{ project: 'unit', file: 'tests/unit/plan-terms.test.ts', seconds: ceiling - 0.1 }], new Map([['unit', 1]]), 1)).toEqual([]);
  });

  test('a project over its wall-time budget fails the run', () => {
    const budget = PROJECT_BUDGET_SECONDS.e2e!;
    expect(overBudget([], new Map([['e2e', budget + 5]]), 1)).toEqual([
      `  the e2e project took ${(budget + 5).toFixed(1)} s of wall time, over its budget of ${budget} s`,
    ]);
  });

  test('a file named in the table has its own ceiling, above its project\'s', () => {
    expect(fileCeilingSeconds('e2e', 'tests/e2e/sign-in.test.ts')).toBeGreaterThan(fileCeilingSeconds('e2e', 'tests/e2e/public-site.test.ts'));
  });

  test('TEST_BUDGET_SCALE scales every figure; nonsense is ignored', () => {
    const ceiling = fileCeilingSeconds('server', 'tests/server/webhooks.test.ts');
    expect(overBudget([{ project: 'server', file: 'tests/server/webhooks.test.ts', seconds: ceiling + 1 }], new Map(), budgetScale({ TEST_BUDGET_SCALE: '2' }))).toEqual([]);
    expect(budgetScale({ TEST_BUDGET_SCALE: 'fast' })).toBe(1);
    expect(budgetScale({})).toBe(1);
  });

  test('a slower machine\'s measured slowness scales every figure too, with TEST_BUDGET_SCALE; a faster one never tightens them', () => {
    const ceiling = fileCeilingSeconds('server', 'tests/server/webhooks.test.ts');
    const late = [{ project: 'server', file: 'tests/server/webhooks.test.ts', seconds: ceiling * 1.8 }];
    expect(overBudget(late, new Map(), budgetScale({}))).toHaveLength(1);
    expect(overBudget(late, new Map(), budgetScale({ TEST_MACHINE_SLOWNESS: '2' }))).toEqual([]);
    expect(budgetScale({ TEST_MACHINE_SLOWNESS: '2', TEST_BUDGET_SCALE: '1.5' })).toBe(3);
    expect(budgetScale({ TEST_MACHINE_SLOWNESS: '0.5' })).toBe(1);
    expect(slownessOf(REFERENCE_MS * 2)).toBe(2);
    expect(slownessOf(REFERENCE_MS / 2)).toBe(1);
  });

  test('over its budgets, a run measures the machine again and is judged at the larger slowness', () => {
    const ceiling = fileCeilingSeconds('e2e', 'tests/e2e/public-site.test.ts');
    const late = [{ project: 'e2e', file: 'tests/e2e/public-site.test.ts', seconds: ceiling * 1.5 }];
    // The machine slowed after the run's first measure: within its budgets at the second.
    expect(judgeBudgets(late, new Map(), 1, () => 2)).toEqual({ over: [], scale: 2 });
    // It slowed too little: the run fails, judged at the second measure.
    expect(judgeBudgets(late, new Map(), 1, () => 1.2)).toEqual({ over: overBudget(late, new Map(), 1.2), scale: 1.2 });
    // It measured faster: the run fails, judged at its first measure.
    expect(judgeBudgets(late, new Map(), 1.2, () => 1)).toEqual({ over: overBudget(late, new Map(), 1.2), scale: 1.2 });
    expect(judgeBudgets(late, new Map(), 1.2, () => 1).over).toHaveLength(1);
  });

  test('a run within its budgets does not measure the machine again', () => {
    const within = [{ project: 'unit', file: 'tests/unit/plan-terms.test.ts', seconds: 1 }];
    expect(judgeBudgets(within, new Map([['unit', 5]]), 1, () => { throw new Error('measured again'); })).toEqual({ over: [], scale: 1 });
  });
});
