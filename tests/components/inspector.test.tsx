/** The Stately inspector reports a blocked pop-up on the page instead of opening nothing, silently (issue 22 item 11). */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { createActor, createMachine, type InspectionEvent } from 'xstate';
import { POPUP_BLOCKED_TEXT, onlyStartedActors, startInspector } from '../../src/app/actors/inspector';

afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState({}, '', '/');
  document.body.replaceChildren();
});

describe('inspector', () => {
  test('?inspect with the pop-up blocked: the page says so, and where to look offline', async () => {
    window.history.replaceState({}, '', '/?inspect');
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const inspect = await startInspector();
    expect(inspect).toBeDefined();
    expect(open).toHaveBeenCalledWith(expect.stringContaining('stately.ai'), 'xstateinspector');
    expect(screen.getByRole('alert')).toHaveTextContent(POPUP_BLOCKED_TEXT);
    expect(POPUP_BLOCKED_TEXT).toContain('docs/flows/');
  });

  test('pop-up allowed: no notice', async () => {
    window.history.replaceState({}, '', '/?inspect');
    vi.spyOn(window, 'open').mockReturnValue({ postMessage: () => {} } as unknown as Window);
    await startInspector();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  test('an actor thrown away unstarted (StrictMode) never reaches the inspector; a started one does, once', () => {
    const seen: InspectionEvent[] = [];
    const inspect = onlyStartedActors((event) => seen.push(event));
    const machine = createMachine({ id: 'screen', initial: 'idle', states: { idle: {} } });
    createActor(machine, { inspect }); // StrictMode's first, discarded instance
    const kept = createActor(machine, { inspect }).start();
    const created = seen.filter((event) => event.type === '@xstate.actor').map((event) => event.actorRef.sessionId);
    expect(created).toEqual([kept.sessionId]);
    expect(seen[0]!.type).toBe('@xstate.actor');
    kept.stop();
  });
});
