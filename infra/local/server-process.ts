/**
 * The local runtime in a child process, started as `npm start -- <args>` starts it: what the
 * tests, the benchmarks and the demo serve from, each with its own settings in the environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { projectPath } from '../project-root.js';

export interface LocalServer {
  baseUrl: string;
  process: ChildProcess;
  /** Ctrl-C, as a developer would stop `npm start`. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the real local runtime (main.ts) as a child process; resolves once it listens. */
export function startLocalServer(env: Record<string, string>, args: string[] = []): Promise<LocalServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/main.ts', ...args], {
    cwd: projectPath(),
    env: { ...process.env, PORT: '0', NODE_NO_WARNINGS: '1', POWERTOOLS_LOG_LEVEL: 'ERROR', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`local server did not start:\n${output}`)), 60_000);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.LOCAL_SERVER_LOGS) process.stderr.write(chunk);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          baseUrl: match[1]!,
          process: child,
          stop: (signal = 'SIGINT') =>
            new Promise<void>((done) => {
              // A process ended by a signal has signalCode set and exitCode null.
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill(signal);
            }),
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`local server exited with ${code}:\n${output}`));
    });
  });
}
