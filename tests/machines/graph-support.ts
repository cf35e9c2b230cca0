/**
 * Helpers for the generated path tests: walk a machine with `xstate/graph`, replay paths on a real actor,
 * and measure which state nodes and transitions the generated paths reach.
 */
import { createActor, createMachine, fromPromise } from 'xstate';
import type { AnyActorScope, AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject } from 'xstate';
import { getAdjacencyMap, getShortestPaths } from 'xstate/graph';
import type { StatePath } from 'xstate/graph';

/** One walk of a machine: its input and the concrete events (with outputs / errors) the walk may send. */
export interface GraphRun {
  name: string;
  input?: unknown;
  events: EventObject[];
}

export type MachinePath = StatePath<AnyMachineSnapshot, EventObject>;

/**
 * Events offered in a snapshot: every event type its active states handle (this includes
 * `xstate.after.<delay>.<state id>` and `xstate.done.actor.<id>`), as the run's concrete variants of that
 * type, or bare `{ type }` when the run gives none.
 */
function eventsFor(run: GraphRun) {
  return (snapshot: AnyMachineSnapshot): EventObject[] => {
    const types = [...new Set(snapshot._nodes.flatMap((node: AnyStateNode) => node.ownEvents))];
    return types.flatMap((type) => {
      const variants = run.events.filter((event) => event.type === type);
      return variants.length > 0 ? variants : [{ type }];
    });
  };
}

/** Events are told apart by their JSON; an Error's JSON is `{}`, so it is written with its message and code. */
function serializeEvent(event: EventObject): string {
  return JSON.stringify(event, (_key, value: unknown) =>
    value instanceof Error ? { error: value.name, message: value.message, code: (value as { code?: unknown }).code } : value,
  );
}

function traversal(run: GraphRun) {
  return { input: run.input, events: eventsFor(run), serializeEvent } as never;
}

export function shortestPaths(machine: AnyStateMachine, run: GraphRun): MachinePath[] {
  return getShortestPaths(machine, traversal(run)) as unknown as MachinePath[];
}

function allStateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    out.push(node);
    for (const child of Object.values(node.states)) walk(child);
  };
  walk(machine.root);
  return out;
}

type Transition = AnyStateNode['always'] extends (infer T)[] | undefined ? T : never;

/** Every transition of the machine with a readable key: `<source id> --<event>[<index>]`. */
function allTransitions(machine: AnyStateMachine): Map<Transition, string> {
  const out = new Map<Transition, string>();
  for (const node of allStateNodes(machine)) {
    for (const [eventType, list] of node.transitions) {
      list.forEach((t, i) => out.set(t, `${node.id} --${eventType}[${i}]`));
    }
    (node.always ?? []).forEach((t, i) => out.set(t, `${node.id} --always[${i}]`));
  }
  return out;
}

/** An actor scope like xstate/graph's mock one, whose system reports the transitions of each microstep. */
function recordingScope(onMicrostep: (transitions: Transition[], snapshot: AnyMachineSnapshot) => void): AnyActorScope {
  const probe = createActor(createMachine({}), {
    inspect: (inspectionEvent) => {
      if (inspectionEvent.type === '@xstate.microstep') {
        const { _transitions, snapshot } = inspectionEvent as unknown as {
          _transitions: Transition[];
          snapshot: AnyMachineSnapshot;
        };
        onMicrostep(_transitions, snapshot);
      }
    },
  });
  return {
    self: probe,
    logger: () => {},
    id: '',
    sessionId: 'coverage',
    defer: () => {},
    system: probe.system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
}

export interface Coverage {
  states: { reached: number; total: number; missing: string[] };
  transitions: { reached: number; total: number; missing: string[] };
  paths: number;
}

/**
 * Coverage of the generated paths: the shortest path to every reachable snapshot, each extended by every
 * event the walk offers there (xstate/graph's adjacency). Every microstep's transitions and states are
 * recorded, so states an eventless transition passes through count as reached.
 */
export function measureCoverage(machine: AnyStateMachine, runs: GraphRun[]): Coverage {
  const stateNodes = allStateNodes(machine);
  const transitions = allTransitions(machine);
  const reachedStates = new Set<AnyStateNode>();
  const reachedTransitions = new Set<Transition>();
  // Microsteps include the states an eventless transition passes through within one macrostep.
  const scope = recordingScope((list, snapshot) => {
    // A transition taken from a state means that state was active (also the initial, transient one).
    list.forEach((t) => {
      reachedTransitions.add(t);
      reachedStates.add(t.source);
    });
    snapshot._nodes.forEach((n: AnyStateNode) => reachedStates.add(n));
  });
  let pathCount = 0;
  for (const run of runs) {
    machine.getInitialSnapshot(scope, run.input);
    const paths = shortestPaths(machine, run);
    pathCount += paths.length;
    for (const path of paths) {
      for (const step of path.steps) step.state._nodes.forEach((n: AnyStateNode) => reachedStates.add(n));
      for (let i = 1; i < path.steps.length; i += 1) {
        machine.transition(path.steps[i - 1]!.state, path.steps[i]!.event, scope);
      }
    }
    const adjacency = getAdjacencyMap(machine, traversal(run));
    for (const { state, transitions: next } of Object.values(adjacency)) {
      for (const { event } of Object.values(next as Record<string, { event: EventObject }>)) {
        const snapshot = machine.transition(state as AnyMachineSnapshot, event as EventObject, scope);
        snapshot._nodes.forEach((n: AnyStateNode) => reachedStates.add(n));
      }
    }
  }
  return {
    states: {
      reached: stateNodes.filter((n) => reachedStates.has(n)).length,
      total: stateNodes.length,
      missing: stateNodes.filter((n) => !reachedStates.has(n)).map((n) => n.id),
    },
    transitions: {
      reached: [...transitions.keys()].filter((t) => reachedTransitions.has(t)).length,
      total: transitions.size,
      missing: [...transitions].filter(([t]) => !reachedTransitions.has(t)).map(([, key]) => key),
    },
    paths: pathCount,
  };
}

export function formatCoverage(name: string, coverage: Coverage): string {
  return `${name}: states ${coverage.states.reached}/${coverage.states.total} transitions ${coverage.transitions.reached}/${coverage.transitions.total}`;
}

const hang = fromPromise(() => new Promise<never>(() => {}));

/**
 * Replays a generated path on a real actor whose invoked actors never settle (their results are the
 * path's own `xstate.done.actor.*` / `xstate.error.actor.*` events) and whose actions are recorded.
 * Returns, after each step, the snapshot and the actions run so far.
 */
export function replayPath(
  machine: AnyStateMachine,
  path: MachinePath,
  input: unknown,
): { snapshot: AnyMachineSnapshot; actions: RecordedAction[] }[] {
  const recorded: RecordedAction[] = [];
  const actors = Object.fromEntries(Object.keys(machine.implementations.actors).map((name) => [name, hang]));
  const actions = Object.fromEntries(
    Object.entries(machine.implementations.actions)
      // Named assign actions must keep assigning: only the side-effect actions are replaced.
      .filter(([, implementation]) => !(typeof implementation === 'function' && 'resolve' in implementation))
      .map(([name]) => [name, (_args: unknown, params: unknown) => recorded.push({ type: name, params })]),
  );
  const actor = createActor(machine.provide({ actors, actions } as never), { input } as never);
  actor.start();
  const steps = [{ snapshot: actor.getSnapshot() as AnyMachineSnapshot, actions: [...recorded] }];
  for (let i = 1; i < path.steps.length; i += 1) {
    actor.send(path.steps[i]!.event);
    steps.push({ snapshot: actor.getSnapshot() as AnyMachineSnapshot, actions: [...recorded] });
  }
  actor.stop();
  return steps;
}

export interface RecordedAction {
  type: string;
  params: unknown;
}
