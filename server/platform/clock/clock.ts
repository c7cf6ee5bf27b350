// The one clock of the server (CONTRIBUTING.md, 'One clock'). Nothing else in server/
// reads the time: token checks, SQL parameters, backoff and expiry all ask a
// Clock, so jumping the workbench clock ahead (to watch a retry window expire)
// moves every one of them together.
import { EventEmitter } from "node:events";

export interface Clock {
  /** Workbench time. */
  now(): Date;
  nowMs(): number;
}

export type ClockEvents = { changed: [offsetMs: number] };

/** Real time plus an offset that the workbench can advance or reset. */
export class WorkbenchClock extends EventEmitter<ClockEvents> implements Clock {
  #offsetMs: number;
  /** The newest stored clock move applied (WorkbenchClock.version). */
  #version = -1n;
  readonly #realNowMs: () => number;

  constructor(options: { offsetMs?: number; realNowMs?: () => number } = {}) {
    super();
    this.#offsetMs = options.offsetMs ?? 0;
    // The single place real time is read.
    this.#realNowMs = options.realNowMs ?? Date.now;
  }

  nowMs(): number {
    return this.#realNowMs() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Applies the stored offset of clock move `version` (persisted-clock.ts), unless this clock already
   * holds a newer move: notifications and periodic re-reads may arrive out of order, and an older
   * one must never put back an offset that a later move replaced.
   */
  applyStored(offsetMs: number, version: bigint): void {
    if (version < this.#version) return;
    this.#version = version;
    this.setOffset(offsetMs);
  }

  /**
   * Applies an offset directly (tests of an unsynced clock): a clock kept in step with the database
   * (persisted-clock.ts) gets the stored offset back at its next re-read.
   */
  setOffset(offsetMs: number): void {
    if (offsetMs === this.#offsetMs) return;
    this.#offsetMs = offsetMs;
    this.emit("changed", offsetMs);
  }
}

/** A clock that only moves when told to: for unit tests with exact values. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  nowMs(): number {
    return this.ms;
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
