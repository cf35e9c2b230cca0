/** Issue 31, item 1: docs/retention.md is exactly what scripts/docs-retention.ts builds from contract/retention.ts. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { RETENTION_DOC, retentionDoc } from '../../scripts/docs-retention';

test('docs/retention.md is up to date (run `npm run docs:retention`)', () => {
  expect(readFileSync(RETENTION_DOC, 'utf8')).toBe(retentionDoc());
});
