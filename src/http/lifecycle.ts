/**
 * This process's place in its life: serving, or draining after SIGTERM (it still answers, but
 * /readyz says 503 so a balancer moves traffic elsewhere before the listener closes).
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
