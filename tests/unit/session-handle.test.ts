/**
 * The session handle (src/app/actors/session-handle.ts, issue 12): pages read the session through it before the
 * session machine's code has loaded. Before then it must read as the machine's own initial state, events
 * sent meanwhile must reach the machine in order, and a failed download must not lose the session.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type InspectionEvent } from 'xstate';
import { sessionMachine, type InitialiseOutput } from '../../machines/session';
import type { SessionTag } from '../../machines/session-context';
import { createSessionHandle, SIGNED_OUT_SESSION_VIEW, STARTING_SESSION_VIEW } from '../../src/app/actors/session-handle';
import { connectionSavesData } from '../../src/app/boot/connection';
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
  // Issue 45 item 9: a first-time visitor's page loads no session code, and its header reads signed out.
  it('with no session stored, reads as the machine does once it found none, loading nothing until an event needs the actor', async () => {
    const afterStart = await waitFor(startedSession(), (state) => !state.hasTag('loading'));
    expect(afterStart.value).toBe('signedOut');
    const start = vi.fn(async () => startedSession());
    const handle = createSessionHandle(start);
    const changes = vi.fn();
    handle.subscribe(changes);
    handle.readAsSignedOut();
    expect(changes).toHaveBeenCalledTimes(1);
    const view = handle.getSnapshot();
    expect(view).toBe(SIGNED_OUT_SESSION_VIEW);
    expect(view.context).toEqual(afterStart.context);
    const tags: SessionTag[] = ['loading', 'reconnecting', 'failed', 'signedIn', 'refreshing', 'signingOut'];
    for (const tag of tags) expect(view.hasTag(tag), tag).toBe(afterStart.hasTag(tag));
    await Promise.resolve();
    expect(start).not.toHaveBeenCalled();

    // Another tab signs in: the event loads the actor, which gets it.
    handle.send({ type: 'session.signedIn', session: googleSession });
    expect(start).toHaveBeenCalledTimes(1);
    expect(handle.getSnapshot()).toBe(STARTING_SESSION_VIEW);
    await handle.load();
    expect(handle.getSnapshot().hasTag('signedIn')).toBe(true);
    // Once loaded, reading as signed out again changes nothing.
    handle.readAsSignedOut();
    expect(handle.getSnapshot().hasTag('signedIn')).toBe(true);
  });

  it('a page that loads the session (a guard) leaves the signed-out reading for the machine', async () => {
    const handle = createSessionHandle(async () => startedSession());
    handle.readAsSignedOut();
    const settled = handle.settled();
    expect(handle.getSnapshot()).toBe(STARTING_SESSION_VIEW);
    expect((await settled).hasTag('loading')).toBe(false);
  });
});

describe('a connection that saves data (issue 45 item 9)', () => {
  const withConnection = (connection: object | undefined) => vi.stubGlobal('navigator', { connection });
  afterEach(() => vi.unstubAllGlobals());

  it('is Save-Data, or a 2G or slower effective type; unknown or faster is not', () => {
    withConnection({ saveData: true, effectiveType: '4g' });
    expect(connectionSavesData()).toBe(true);
    for (const effectiveType of ['2g', 'slow-2g']) {
      withConnection({ saveData: false, effectiveType });
      expect(connectionSavesData(), effectiveType).toBe(true);
    }
    for (const effectiveType of ['3g', '4g']) {
      withConnection({ saveData: false, effectiveType });
      expect(connectionSavesData(), effectiveType).toBe(false);
    }
    withConnection(undefined);
    expect(connectionSavesData()).toBe(false);
  });
});
