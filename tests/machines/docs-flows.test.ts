/** The committed docs/flows files are exactly what scripts/docs-flows.ts generates from the machines. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOWS_DIR, generateFlowDocs } from '../../scripts/docs-flows';

describe('docs/flows', () => {
  const generated = generateFlowDocs();

  it('has exactly the generated files', () => {
    const onDisk = readdirSync(FLOWS_DIR).filter((file) => file.endsWith('.md')).sort();
    expect(onDisk).toEqual([...generated.keys()].sort());
  });

  for (const [file, content] of generated) {
    it(`${file} is up to date (run \`npm run docs:flows\`)`, () => {
      expect(readFileSync(join(FLOWS_DIR, file), 'utf8')).toBe(content);
    });
  }

  it('is deterministic', () => {
    expect(generateFlowDocs()).toEqual(generated);
  });

  it('draws states, guards, delays and invoked actors', () => {
    const signIn = generated.get('sign-in.md') ?? '';
    expect(signIn).toContain('stateDiagram-v2');
    expect(signIn).toContain('debounce_coolingDown --> debounce_ready : after(signInDebounce)');
    expect(signIn).toContain('attempt_idle --> attempt_popup : signIn.start [isCooledDown] / assignAttempt');
    expect(signIn).toContain('attempt_exchanging : invoke exchangeToken (id exchangeToken)');
    expect(generated.get('deep-link.md')).toContain('after(deepLinkFallback) [isOnAccountPage]');
  });
});
