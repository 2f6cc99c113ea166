/** Waiting on what a real server has received, without sleeping. */
import type { RunningServer } from '../../src/server.js';

/**
 * Resolves once the server has seen `count` more requests (its `request` events), so that a
 * test can act when a pipelined batch has been parsed rather than after a sleep.
 */
export function requestsSeen(running: RunningServer, count: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const onRequest = (): void => {
      if (++seen === count) {
        running.server.off('request', onRequest);
        resolve();
      }
    };
    running.server.on('request', onRequest);
  });
}
