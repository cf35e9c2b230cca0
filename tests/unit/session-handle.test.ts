/**
 * The session handle (src/app/actors/session-handle.ts, issue 12): pages read the session through it before the
 * session machine's code has loaded. Before then it must read as the machine's own initial state, events
 * sent meanwhile must reach the machine in order, and a failed download must not lose the session.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type InspectionEvent } from 'xstate';
import { sessionMachine, type InitialiseOutput } from '../../machines/session';
import type { SessionTag } from '../../machines/session-context';
import { createSessionHandle, STARTING_SESSION_VIEW } from '../../src/app/actors/session-handle';
import type { SessionActor } from '../../src/app/flows/session-runtime';
import { googleSession } from '../machines/fixtures';

/** The real session machine, with a start-up that finds no stored session; `received` lists the events it got. */
function startedSession(received: string[] = []): SessionActor {
  const machine = sessionMachine.provide({
    actors: { initialise: fromPromise<InitialiseOutput>(async () => ({ storedSessionToken: null })) },
  });
  const inspect = (event: InspectionEvent) => {
    if (event.type === '@xstate.event' && !event.event.type.startsWith('xstate.')) received.push(event.event.type);
  };
  return createActor(machine, { systemId: 'session', input: {}, inspect }).start() as unknown as SessionActor;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the session handle', () => {
  it("reads, before the machine loads, as the machine's initial state: loading, nobody signed in", () => {
    const initial = createActor(sessionMachine, { input: {} }).getSnapshot();
    const handle = createSessionHandle(() => new Promise(() => {}));
    const view = handle.getSnapshot();
    expect(view).toBe(STARTING_SESSION_VIEW);
    expect(view.context).toEqual(initial.context);
    const tags: SessionTag[] = ['loading', 'reconnecting', 'failed', 'signedIn', 'refreshing', 'signingOut'];
    for (const tag of tags) expect(view.hasTag(tag), tag).toBe(initial.hasTag(tag));
  });

  it('delivers the events sent before the machine loaded, in order, and then reads the machine', async () => {
    const received: string[] = [];
    const handle = createSessionHandle(async () => startedSession(received));
    const changes = vi.fn();
    handle.subscribe(changes);
    handle.send({ type: 'connection.online' });
    handle.send({ type: 'session.ended' });
    expect(received).toEqual([]);

    const actor = await handle.load();
    expect(received).toEqual(['connection.online', 'session.ended']);
    expect(changes).toHaveBeenCalled();
    const view = await handle.settled();
    expect(view).toBe(actor.getSnapshot());
    expect(actor.getSnapshot().value).toBe('signedOut');

    handle.send({ type: 'session.signedIn', session: googleSession });
    expect(handle.getSnapshot().context.user?.email).toBe(googleSession.user.email);
    expect(handle.getSnapshot().hasTag('signedIn')).toBe(true);
  });

  it('loads the machine once, however many pages ask for it', async () => {
    const start = vi.fn(async () => startedSession());
    const handle = createSessionHandle(start);
    const [first, second] = await Promise.all([handle.load(), handle.settled().then(() => handle.load())]);
    expect(first).toBe(second);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('tries a failed download again, and the session settles once it arrives', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const start = vi.fn<() => Promise<SessionActor>>().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'));
    start.mockImplementation(async () => startedSession());
    const handle = createSessionHandle(start);
    const settled = handle.settled();
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenCalledTimes(1);
    expect(handle.getSnapshot()).toBe(STARTING_SESSION_VIEW);

    await vi.advanceTimersByTimeAsync(3000);
    expect(start).toHaveBeenCalledTimes(2);
    await expect(settled).resolves.toMatchObject({ context: { user: null } });
    expect(handle.getSnapshot().hasTag('loading')).toBe(false);
  });

  it('gives services the session token through the handle: none before the machine loads or while signed out', async () => {
    const handle = createSessionHandle(async () => startedSession());
    expect(handle.sessionToken()).toBeNull();
    await handle.settled();
    expect(handle.sessionToken()).toBeNull();
    handle.send({ type: 'session.signedIn', session: googleSession });
    expect(handle.sessionToken()).toBe(googleSession.sessionToken);
  });
});
