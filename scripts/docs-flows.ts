/**
 * Writes docs/flows/<machine>.md: a Mermaid stateDiagram-v2 generated from each machine's definition
 * (states, events, [guards], after(delay), invoked actors, tags), plus docs/flows/README.md indexing them.
 * Run: `npm run docs:flows` (tsx scripts/docs-flows.ts). Output is deterministic; a test compares it
 * with the committed files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { MACHINES, type CataloguedMachine } from '../machines/catalogue';

/** A machine as the statecharts show it: the catalogue's entries (machines/catalogue.ts). */
export type FlowMachine = CataloguedMachine;

export const FLOW_MACHINES: readonly FlowMachine[] = MACHINES;

export const FLOWS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'flows');

type Transition = NonNullable<AnyStateNode['always']>[number];

/** Mermaid id of a state node: its path joined with '_' (the root is `[*]` territory, never drawn). */
function nodeId(node: AnyStateNode): string {
  return node.path.length === 0 ? 'root' : node.path.join('_');
}

function nameOf(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null && 'type' in item) return String((item as { type: unknown }).type);
  if (typeof item === 'function') {
    const typed = item as { type?: unknown; name?: string };
    return typeof typed.type === 'string' ? typed.type : typed.name || 'inline';
  }
  return 'inline';
}

function eventLabel(node: AnyStateNode, eventType: string): string {
  const after = `xstate.after.`;
  if (eventType.startsWith(after)) {
    return `after(${eventType.slice(after.length, eventType.length - node.id.length - 1)})`;
  }
  if (eventType.startsWith('xstate.done.actor.')) return `done(${eventType.slice('xstate.done.actor.'.length)})`;
  if (eventType.startsWith('xstate.error.actor.')) return `error(${eventType.slice('xstate.error.actor.'.length)})`;
  if (eventType === '') return 'always';
  return eventType;
}

function transitionLabel(node: AnyStateNode, eventType: string, transition: Transition): string {
  let label = eventLabel(node, eventType);
  if (transition.guard !== undefined) label += ` [${nameOf(transition.guard)}]`;
  const actions = (transition.actions ?? []).map(nameOf);
  if (actions.length > 0) label += ` / ${actions.join(', ')}`;
  return label.replace(/[:;#]/g, ' ');
}

function edgesOf(node: AnyStateNode): string[] {
  const lines: string[] = [];
  const add = (eventType: string, transition: Transition) => {
    const targets = transition.target && transition.target.length > 0 ? transition.target : [node];
    for (const target of targets) {
      lines.push(`${nodeId(node)} --> ${nodeId(target)} : ${transitionLabel(node, eventType, transition)}`);
    }
  };
  for (const [eventType, list] of node.transitions) list.forEach((t) => add(eventType, t));
  (node.always ?? []).forEach((t) => add('', t));
  return lines;
}

function descriptionsOf(node: AnyStateNode): string[] {
  const id = nodeId(node);
  const lines: string[] = [];
  for (const invoke of node.invoke) lines.push(`${id} : invoke ${nameOf(invoke.src)} (id ${invoke.id})`);
  const entry = node.entry.map(nameOf).filter((name) => name !== 'inline' && !name.startsWith('xstate.'));
  if (entry.length > 0) lines.push(`${id} : entry / ${entry.join(', ')}`);
  if (node.tags.length > 0) lines.push(`${id} : tags ${node.tags.join(', ')}`);
  return lines;
}

/** Declarations of the children of `node`, nested blocks for compound and parallel states. */
function declare(node: AnyStateNode, indent: string): string[] {
  const lines: string[] = [];
  const children = Object.values(node.states);
  if (node.type === 'compound' && node.initial.target[0]) {
    lines.push(`${indent}[*] --> ${nodeId(node.initial.target[0])}`);
  }
  children.forEach((child, index) => {
    if (node.type === 'parallel' && index > 0) lines.push(`${indent}--`);
    const id = nodeId(child);
    if (child.type === 'compound' || child.type === 'parallel') {
      lines.push(`${indent}state "${child.key}" as ${id} {`);
      lines.push(...declare(child, `${indent}  `));
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${child.key}" as ${id}`);
    }
    if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
  });
  return lines;
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap(allNodes)];
}

export function mermaidOf(machine: AnyStateMachine): string {
  const root = machine.root;
  const lines = ['stateDiagram-v2'];
  if (root.type === 'parallel') {
    lines.push(`  state "${machine.id} (parallel)" as root {`);
    lines.push(...declare(root, '    '));
    lines.push('  }');
    lines.push('  [*] --> root');
  } else {
    lines.push(...declare(root, '  '));
  }
  const nodes = allNodes(root).filter((node) => node !== root);
  for (const node of nodes) lines.push(...descriptionsOf(node).map((line) => `  ${line}`));
  for (const node of allNodes(root)) lines.push(...edgesOf(node).map((line) => `  ${line}`));
  return lines.join('\n');
}

function implementationList(machine: AnyStateMachine): string {
  const { actors, actions, guards, delays } = machine.implementations;
  const list = (names: string[]) => (names.length > 0 ? names.map((n) => `\`${n}\``).join(', ') : '—');
  return [
    `- actors: ${list(Object.keys(actors))}`,
    `- actions: ${list(Object.keys(actions))}`,
    `- guards: ${list(Object.keys(guards))}`,
    `- delays: ${list(Object.keys(delays))}`,
  ].join('\n');
}

function eventList(machine: AnyStateMachine): string {
  const events = [...new Set(allNodes(machine.root).flatMap((node) => [...node.transitions.keys()]))]
    .filter((type) => !type.startsWith('xstate.'))
    .sort();
  return events.map((type) => `\`${type}\``).join(', ');
}

export function flowDoc(flow: FlowMachine): string {
  return [
    `# ${flow.title} (\`machines/${flow.name}.ts\`)`,
    '',
    '<!-- Generated by `npm run docs:flows` (scripts/docs-flows.ts) from the machine definition. Do not edit. -->',
    '',
    `Machine id: \`${flow.machine.id}\`. Events: ${eventList(flow.machine)}.`,
    '',
    'Named implementations (supplied with `machine.provide`; see machines/README.md for their types):',
    '',
    implementationList(flow.machine),
    '',
    'Legend: `done(id)` / `error(id)` = the invoked actor `id` settled; `after(name)` = the named delay;',
    '`[guard]` = named guard; `/ a, b` = named actions; a state pointing at itself = a transition without target.',
    '',
    '```mermaid',
    mermaidOf(flow.machine),
    '```',
    '',
  ].join('\n');
}

export function indexDoc(flows: readonly FlowMachine[]): string {
  return [
    '# Flows',
    '',
    '<!-- Generated by `npm run docs:flows` (scripts/docs-flows.ts). Do not edit. -->',
    '',
    'One statechart per machine in `machines/`, generated from the machine code (design §3, §4).',
    '',
    '| machine | file | diagram |',
    '|---|---|---|',
    ...flows.map((flow) => `| ${flow.title} | \`machines/${flow.name}.ts\` | [${flow.name}.md](./${flow.name}.md) |`),
    '',
  ].join('\n');
}

/** File name -> content of every generated file in docs/flows. */
export function generateFlowDocs(flows: readonly FlowMachine[] = FLOW_MACHINES): Map<string, string> {
  const files = new Map<string, string>();
  for (const flow of flows) files.set(`${flow.name}.md`, flowDoc(flow));
  files.set('README.md', indexDoc(flows));
  return files;
}

function main(): void {
  mkdirSync(FLOWS_DIR, { recursive: true });
  for (const [file, content] of generateFlowDocs()) {
    writeFileSync(join(FLOWS_DIR, file), content);
    console.log(`wrote docs/flows/${file}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
