/**
 * Coverage of the generated paths: every state node and every transition of every machine is reached.
 * Prints `<machine>: states N/N transitions N/N`.
 */
import { describe, expect, it } from 'vitest';
import { formatCoverage, measureCoverage } from './graph-support';
import { walks } from './graph-runs';

describe('generated paths cover every machine', () => {
  for (const walk of walks) {
    it(`${walk.name}: every state and transition`, () => {
      const coverage = measureCoverage(walk.machine, walk.runs);
      console.log(`${formatCoverage(walk.name, coverage)} (${coverage.paths} paths)`);
      expect({ states: coverage.states.missing, transitions: coverage.transitions.missing }).toEqual({
        states: [],
        transitions: [],
      });
      expect(coverage.states.reached).toBe(coverage.states.total);
      expect(coverage.transitions.reached).toBe(coverage.transitions.total);
    });
  }
});
