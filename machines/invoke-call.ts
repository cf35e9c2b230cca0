/**
 * The invocation of a named actor whose answer the machine does not read: where it goes next depends only
 * on whether the call resolved or rejected. Pure: it builds the `invoke` config, nothing more.
 */

/**
 * `invoke: invokeCall('signOut', { onDone: 'deleted', onError: 'deleted' })` is
 * `invoke: { id: 'signOut', src: 'signOut', onDone: { target: 'deleted' }, onError: { target: 'deleted' } }`.
 * The id is the actor's name, as everywhere in machines/: the statecharts, the inspector and the tests find
 * the invoked actor by it. `src` is checked against the machine's `setup({ actors })` where the config is
 * used, and an actor that needs an input does not fit (it has no `input` here): write that invoke out.
 */
export function invokeCall<const TSrc extends string>(src: TSrc, targets: { onDone: string; onError: string }) {
  return { id: src, src, onDone: { target: targets.onDone }, onError: { target: targets.onError } };
}
