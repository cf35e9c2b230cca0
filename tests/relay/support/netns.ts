/**
 * WireGuard's selftest shape for the relay's proof (tests/relay/netns-proof.test.ts, design §9): network
 * namespaces named for this process (veilrelay-<pid>-<role>), veth pairs between them, wireguard-go
 * interfaces whose control sockets `wg` reaches from here. Everything this makes is removed by `destroy`
 * (processes inside the namespaces first, by their pids), and `sweepLeftovers` removes what a run that
 * died left behind (namespaces of processes that no longer exist), never another live run's.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PREFIX = 'veilrelay-';
const tag = process.pid.toString(36);

const nsName = (role: string) => `${PREFIX}${tag}-${role}`;
/** An interface name of this run (at most 15 characters). */
export const ifName = (role: string) => `vr${tag}${role}`.slice(0, 15);

export async function sh(command: string, args: string[], input?: string): Promise<string> {
  if (input === undefined) return (await run(command, args, { encoding: 'utf8' })).stdout;
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { encoding: 'utf8' }, (error, stdout, stderr) => (error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr}`)) : resolve(stdout)));
    child.stdin?.end(input);
  });
}

export const inNs = (ns: string, command: string, args: string[], input?: string) => sh('ip', ['netns', 'exec', ns, command, ...args], input);

export function whyNetnsCannotRun(): string | null {
  if (process.getuid?.() !== 0) return 'not root (network namespaces need it)';
  for (const tool of ['wireguard-go', 'wg', 'wg-quick', 'ip', 'nft', 'ping']) {
    try {
      execFileSync('which', [tool], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed (apt-get install -y wireguard-go wireguard-tools iproute2 nftables iputils-ping)`;
    }
  }
  return null;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

async function removeNamespace(ns: string) {
  const pids = (await sh('ip', ['netns', 'pids', ns]).catch(() => ''))
    .split('\n')
    .map(Number)
    .filter((pid) => pid > 0);
  // A process may end between the listing and the signal.
  const signal = (pid: number, name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  for (const pid of pids) signal(pid, 'SIGTERM');
  for (let i = 0; i < 40 && pids.some(alive); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
  await sh('ip', ['netns', 'del', ns]).catch(() => undefined);
}

export async function sweepLeftovers() {
  const list = await sh('ip', ['netns', 'list']).catch(() => '');
  for (const line of list.split('\n')) {
    const ns = line.split(' ')[0] ?? '';
    const match = new RegExp(`^${PREFIX}([0-9a-z]+)-`).exec(ns);
    if (match && !alive(Number.parseInt(match[1]!, 36))) await removeNamespace(ns);
  }
}

export class Topology {
  readonly namespaces: string[] = [];
  private readonly children: ChildProcess[] = [];

  async addNamespace(role: string): Promise<string> {
    const ns = nsName(role);
    await sh('ip', ['netns', 'add', ns]);
    this.namespaces.push(ns);
    await inNs(ns, 'ip', ['link', 'set', 'lo', 'up']);
    return ns;
  }

  /** A veth pair between two namespaces with an address (IPv4 /24, and IPv6 /64 when given) on each end. */
  async link(a: { ns: string; ipv4: string; ipv6?: string }, b: { ns: string; ipv4: string; ipv6?: string }, role: string) {
    const [nameA, nameB] = [ifName(`${role}a`), ifName(`${role}b`)];
    await sh('ip', ['link', 'add', nameA, 'netns', a.ns, 'type', 'veth', 'peer', 'name', nameB, 'netns', b.ns]);
    for (const [end, name] of [[a, nameA], [b, nameB]] as const) {
      await inNs(end.ns, 'ip', ['address', 'add', `${end.ipv4}/24`, 'dev', name]);
      if (end.ipv6) await inNs(end.ns, 'ip', ['-6', 'address', 'add', `${end.ipv6}/64`, 'dev', name, 'nodad']);
      await inNs(end.ns, 'ip', ['link', 'set', name, 'up']);
    }
  }

  /** A bridge in `ns` with an address: customers' links join it, so every customer reaches one endpoint. */
  async bridge(ns: string, role: string, ipv4: string): Promise<string> {
    const name = ifName(role);
    await inNs(ns, 'ip', ['link', 'add', name, 'type', 'bridge']);
    await inNs(ns, 'ip', ['address', 'add', `${ipv4}/24`, 'dev', name]);
    await inNs(ns, 'ip', ['link', 'set', name, 'up']);
    return name;
  }

  /** A veth pair from a bridge in `bridgeNs` to `ns`, with an address on the far end. */
  async linkToBridge(bridgeNs: string, bridgeName: string, ns: string, ipv4: string, role: string) {
    const [nameA, nameB] = [ifName(`${role}a`), ifName(`${role}b`)];
    await sh('ip', ['link', 'add', nameA, 'netns', bridgeNs, 'type', 'veth', 'peer', 'name', nameB, 'netns', ns]);
    await inNs(bridgeNs, 'ip', ['link', 'set', nameA, 'master', bridgeName, 'up']);
    await inNs(ns, 'ip', ['address', 'add', `${ipv4}/24`, 'dev', nameB]);
    await inNs(ns, 'ip', ['link', 'set', nameB, 'up']);
  }

  /** A long-running program inside a namespace, stopped by destroy(); resolves once its stdout shows `ready`. */
  async start(ns: string, command: string, args: string[], { env = {}, ready }: { env?: Record<string, string>; ready?: RegExp } = {}): Promise<ChildProcess> {
    const child = spawn('ip', ['netns', 'exec', ns, command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.push(child);
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    if (ready) {
      const deadline = Date.now() + 20_000;
      while (!ready.test(output)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${command} ${args.join(' ')} did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    return child;
  }

  /** A wireguard-go interface in `ns`, in the foreground (its pid is ours to stop). */
  async wireguard(ns: string, name: string) {
    await this.start(ns, 'env', ['WG_PROCESS_FOREGROUND=1', 'wireguard-go', '-f', name]);
    for (let tries = 0; !(await sh('wg', ['show', name, 'public-key']).then(() => true, () => false)); tries += 1) {
      if (tries > 100) throw new Error(`${name} did not come up`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async destroy() {
    for (const child of this.children) if (child.exitCode === null) child.kill('SIGTERM');
    for (const ns of this.namespaces.splice(0).reverse()) await removeNamespace(ns).catch(() => sh('ip', ['netns', 'del', ns]).catch(() => undefined));
  }
}

/** One ping from `ns`: true when answered within `timeoutSeconds`. */
export async function pings(ns: string, address: string, timeoutSeconds = 1): Promise<boolean> {
  return inNs(ns, 'ping', ['-c', '1', '-W', String(timeoutSeconds), '-q', address]).then(
    () => true,
    () => false,
  );
}
