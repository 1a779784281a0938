import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian puts the server binaries; the newest version found wins. */
function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions[0];
  if (version === undefined) {
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)',
    );
  }
  return join(root, version, 'bin');
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Run a server binary, as the `postgres` OS user when this process is root (initdb refuses root). */
function run(bin, args) {
  if (!asRoot) return execFileSync(bin, args, { encoding: 'utf8' });
  return execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' });
}

/**
 * A real PostgreSQL server in a temp directory on a free loopback port, with a `monitor` user and
 * database (password `monitor-test-pw`). Start one per test file: it takes about a second and a half.
 */
export async function startPostgres() {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'monitor-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const socketDir = join(dir, 'sock');
  run('/bin/mkdir', ['-p', data, socketDir]);
  run(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  let child;
  // What the server logs (its stderr), for tests that check it warned about nothing.
  let log = '';

  const start = async () => {
    const args = ['-D', data, '-p', String(port), '-k', socketDir, '-h', '127.0.0.1', '-c', 'fsync=off'];
    const stdio = ['ignore', 'ignore', 'pipe'];
    child = asRoot
      ? spawn('runuser', ['-u', 'postgres', '--', join(bin, 'postgres'), ...args], { stdio })
      : spawn(join(bin, 'postgres'), args, { stdio });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      // Bounded: the tail is what a test reads.
      log = (log + chunk).slice(-4_000_000);
    });
    for (let i = 0; i < 200; i++) {
      try {
        run(join(bin, 'pg_isready'), ['-h', socketDir, '-p', String(port), '-q']);
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`PostgreSQL did not start on port ${port}`);
  };
  const sql = (statement, database = 'postgres') =>
    run(join(bin, 'psql'), [
      '-h',
      socketDir,
      '-p',
      String(port),
      '-U',
      'postgres',
      '-d',
      database,
      '-v',
      'ON_ERROR_STOP=1',
      '-tAc',
      statement,
    ]);
  const stop = async () => {
    const exited = new Promise((resolve) => {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    run(join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate', '-w']);
    await exited;
  };

  const close = async () => {
    try {
      await stop();
    } catch {}
    // A server that did not stop (or never answered pg_isready) is not left running.
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await start();
    // Password auth over TCP, as a real server has; the superuser uses the socket, with trust.
    sql(`CREATE USER monitor WITH PASSWORD 'monitor-test-pw'`);
    sql('CREATE DATABASE monitor OWNER monitor');
  } catch (error) {
    await close();
    throw error;
  }
  const urlFor = ({ user = 'monitor', password = 'monitor-test-pw', database = 'monitor' } = {}) =>
    `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return {
    url: urlFor({}),
    port,
    urlFor,
    sql,
    stop,
    start,
    log: () => log,
    close,
  };
}
