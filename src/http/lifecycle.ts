/**
 * The process's place in its life that readiness answers for: once shutdown starts draining,
 * /readyz fails at once so the balancer stops sending new requests while the old ones finish.
 */
export interface Lifecycle {
  draining(): boolean;
  startDraining(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  return {
    draining: () => draining,
    startDraining: () => {
      draining = true;
    },
  };
}
