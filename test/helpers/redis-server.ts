/**
 * A real `redis-server` for a test (Debian package `redis-server`; `.ci/run` installs it): on a
 * free loopback port, with no persistence (`--save "" --appendonly no`), killed after the test.
 * It can be killed and started again on the same port, to test the fallback and the return.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { createClient, type RedisClientType } from '@redis/client';

/** Whether `redis-server` is on the PATH (tests that need it are skipped with this reason otherwise). */
export const HAS_REDIS = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error === undefined;

/** Why Redis tests are skipped, for their names; empty when they run. */
export const NO_REDIS_REASON = HAS_REDIS ? '' : 'redis-server is not installed (apt-get install redis-server)';

/** A running Redis of a test. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  /** A connected client for the test's own checks (TTL, seeding). */
  client(): Promise<RedisClientType>;
  /** SIGKILL, as a crash would; resolves once the process has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: no persistence). */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open and accept writes, and nothing is answered (a frozen host). */
  stop(): void;
  /** SIGCONT after {@link stop}: Redis answers what it was sent meanwhile. */
  resume(): void;
}

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts `redis-server` on `port` and resolves once it accepts connections. */
async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  return child;
}

/**
 * Starts a Redis for this test; it is killed, and its test clients closed, after the test.
 *
 * @throws Error when redis-server cannot start.
 */
export async function startRedis(t: TestContext): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await spawnRedis(port);
  const clients: RedisClientType[] = [];
  const kill = async (): Promise<void> => {
    if (child === undefined || child.exitCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    child = undefined;
  };
  t.after(async () => {
    for (const client of clients) client.destroy();
    await kill();
  });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async client() {
      const client = createClient({ url: `redis://127.0.0.1:${port}` }) as RedisClientType;
      client.on('error', () => {});
      await client.connect();
      clients.push(client);
      return client;
    },
    kill,
    stop: () => { child?.kill('SIGSTOP'); },
    resume: () => { child?.kill('SIGCONT'); },
    async restart() {
      await kill();
      child = await spawnRedis(port);
    },
  };
}
