// Starts every process the end-to-end run talks to, side by side instead of one after the other: the
// local stand-ins of the third-party services, the server bundle and the seeded template database, then
// the app instances (start-server.mjs). Playwright's `webServer` entries start one at a time, each waiting
// for the one before and polling its address at most once a second; here the stand-ins, the bundle's
// build and the seed run at once, then the six instances at once.
//
// What to start comes from playwright.config.ts (COMANDO_E2E_PROCESSES, JSON): the stand-ins and the app
// instances, each with its name, arguments, environment and the address that answers once it is ready.
// Once all answer it prints "E2E: todo listo" (Playwright waits for that line). Every child is in this
// process's group: Playwright ends them with it.
import { spawn } from 'node:child_process';
import net from 'node:net';

/** @typedef {{ name: string, args: string[], env?: Record<string, string>, ready: string }} Planned */
/** @type {{ standIns: Planned[], prepare: string[][], instances: Planned[] }} */
const plan = JSON.parse(process.env.COMANDO_E2E_PROCESSES ?? 'null');
if (!plan) throw new Error('COMANDO_E2E_PROCESSES falta: este script lo arranca playwright.config.ts');

const startedAt = Date.now();
const seconds = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;

/** Every line a child writes to its standard error, named. */
function forward(name, stream) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) process.stderr.write(`[${name}] ${line}\n`);
  });
  stream.on('end', () => rest && process.stderr.write(`[${name}] ${rest}\n`));
}

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];

/** Starts `node <args>`; answers the child and a promise that rejects when it ends. */
function start(name, args, env = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  forward(name, child.stderr);
  const ended = new Promise((_, reject) =>
    child.once('exit', (code, signal) => reject(new Error(`${name} terminó (${code ?? signal}) a los ${seconds()}`))),
  );
  ended.catch(() => {});
  return { child, ended };
}

/** Runs `node <args>` to its end; rejects unless it ends well. */
function run(name, args) {
  const { child } = start(name, args);
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${name} falló (${code})`)))),
  );
}

/** Whether something already answers on the address's port (a run left behind, another run's port). */
function portInUse(address) {
  const { hostname, port } = new URL(address);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once `address` answers 2xx; rejects if the process ends first. */
async function answered(address, ended) {
  let up = false;
  const poll = (async () => {
    while (!up) {
      try {
        const res = await fetch(address);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    await Promise.race([poll, ended]);
  } finally {
    up = true;
  }
}

/** Starts the planned processes together; resolves once each answers. */
async function startTogether(planned) {
  return Promise.all(
    planned.map(async (p) => {
      const { ended } = start(p.name, p.args, p.env);
      await answered(p.ready, ended);
    }),
  );
}

try {
  const taken = [];
  for (const p of [...plan.standIns, ...plan.instances]) if (await portInUse(p.ready)) taken.push(p.ready);
  if (taken.length) throw new Error(`Ya hay algo escuchando en ${taken.join(', ')}: ¿quedó otra ejecución abierta?`);

  const prepared = (async () => {
    for (const [i, args] of plan.prepare.entries()) await run(`preparación ${i + 1}`, args);
  })();
  await Promise.all([startTogether(plan.standIns), prepared]);
  await startTogether(plan.instances);
  process.stderr.write(
    `[e2e] ${plan.standIns.length + plan.instances.length} procesos listos a los ${seconds()} de arrancar\n`,
  );
  process.stdout.write('E2E: todo listo\n');
} catch (error) {
  process.stderr.write(`[e2e] ${error instanceof Error ? error.message : String(error)}\n`);
  for (const child of children) child.kill('SIGKILL');
  process.exit(1);
}
