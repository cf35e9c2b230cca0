import { yieldToMain } from './main-thread';

/**
 * Imports the modules one after another, each evaluated in a task of its own (issue 32 item 4). A dynamic
 * import evaluates the module and every module it needs that has not run yet in one uninterrupted task;
 * imported first, a large part (the API client: zod and the contract's schemas, 20 to 35 ms here, four times
 * that on a phone) is its own task, and the importer that follows finds it done. Import local modules, not a
 * library by name: a dynamic import keeps every export of its target, so the library would not be tree-shaken.
 */
export async function importInSteps(steps: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const step of steps) {
    await step();
    await yieldToMain();
  }
}
