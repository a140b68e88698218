import type { BackendPort, Work } from './index.js';

export interface Fixture {
  backend: BackendPort;
  work: Work;
  nextWork: () => Work;
  /** With hold: resolves once the held Work reached execution at the agent. */
  started?: Promise<void>;
  /**
   * A new backend on the same workStore as backend (the frontend after its restart), for the
   * detach and resume checks; without it they are skipped.
   */
  reopen?: () => BackendPort | Promise<BackendPort>;
}

export interface ConformanceOptions {
  createFixture: (options: { hold: boolean }) => Fixture | Promise<Fixture>;
  /** Registers one check; defaults to node:test's `test`. */
  test?: (name: string, fn: () => Promise<void>) => unknown;
}

/** Registers the BackendPort contract checks (the same as the Go suite) as tests. */
export function verifyBackendAdapterConformance(options: ConformanceOptions): void;
