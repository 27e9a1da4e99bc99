import { bookWindow, type WindowBooking, type WindowRef } from './rate-limits.js';

export interface WindowHit {
  /** This request's number in the window (as far as this process knows); `limit` when refused. */
  count: number;
  limited: boolean;
}

interface Slice {
  windowStart: number;
  windowEnd: number;
  /** Requests this process admitted in the window: the next booking is as large (doubling). */
  admitted: number;
  /** The last booking: its size, how much of it is spent, and the window's total just after it. */
  size: number;
  used: number;
  booked: number;
  /** The window item said the limit is booked: refuse until the window ends, with no request. */
  full: boolean;
  waiting: number;
  booking?: Promise<void> | undefined;
}

type Book = (window: WindowRef, wanted: number) => Promise<WindowBooking>;

/** A request admitted from what the slice holds, or refused while the window is full; undefined when a booking is needed. */
function admit(slice: Slice, window: WindowRef): WindowHit | undefined {
  if (slice.used < slice.size) {
    slice.used++;
    slice.admitted++;
    return { count: slice.booked - slice.size + slice.used, limited: false };
  }
  return slice.full ? { count: window.limit, limited: true } : undefined;
}

const SWEEP_ABOVE = 1000;

/**
 * The rate-limit windows as one process sees them (a Lambda container, or the local server):
 * it books a slice of a window's requests with one conditional write and admits the next requests
 * from that slice with no DynamoDB request at all. Bookings never pass the limit, so all processes
 * together never admit more than it; a process may refuse early while others hold unspent slices.
 * A slice is as large as what the process has already admitted in the window (1, 1, 2, 4, … up to
 * `maxSlice`), so what it holds unspent never exceeds what it has used: a subject is never refused
 * before half its limit was admitted, and a busy process books once per `maxSlice` requests.
 */
export class RateLimitBudgets {
  private readonly slices = new Map<string, Slice>();
  private nextSweep = 0;

  constructor(private readonly book: Book = bookWindow) {}

  /**
   * This request's hit: at once (no promise) while the process's slice has room or the window is
   * known to be full, which is most requests; after a booking otherwise.
   */
  take(window: WindowRef, maxSlice: number): WindowHit | Promise<WindowHit> {
    const slice = this.slice(window);
    return admit(slice, window) ?? this.takeBooked(slice, window, maxSlice);
  }

  private async takeBooked(slice: Slice, window: WindowRef, maxSlice: number): Promise<WindowHit> {
    for (;;) {
      const hit = admit(slice, window);
      if (hit) return hit;
      slice.waiting++;
      // Requests that find the slice spent wait for one booking rather than each sending their own.
      slice.booking ??= this.refill(slice, window, maxSlice).finally(() => (slice.booking = undefined));
      try {
        await slice.booking;
      } finally {
        slice.waiting--;
      }
    }
  }

  private async refill(slice: Slice, window: WindowRef, maxSlice: number): Promise<void> {
    const wanted = Math.max(1, Math.min(maxSlice, Math.max(slice.admitted, slice.waiting)));
    const { granted, booked } = await this.book(window, wanted);
    slice.size = granted;
    slice.used = 0;
    slice.booked = booked;
    slice.full = booked >= window.limit;
  }

  private slice(window: WindowRef): Slice {
    const key = `${window.policy}\n${window.subject}\n${window.windowSeconds}`;
    const current = this.slices.get(key);
    if (current?.windowStart === window.windowStart) return current;
    this.sweep(Math.floor(Date.now() / 1000));
    const windowEnd = window.windowStart + window.windowSeconds;
    const fresh: Slice = {
      windowStart: window.windowStart,
      windowEnd,
      admitted: 0,
      size: 0,
      used: 0,
      booked: 0,
      full: false,
      waiting: 0,
    };
    this.slices.set(key, fresh);
    return fresh;
  }

  /** Forgets windows that are over, once there are many subjects (the local server sees many IPs). */
  private sweep(nowSeconds: number): void {
    if (this.slices.size < SWEEP_ABOVE || nowSeconds < this.nextSweep) return;
    for (const [key, slice] of this.slices) if (slice.windowEnd <= nowSeconds) this.slices.delete(key);
    this.nextSweep = nowSeconds + 10;
  }
}

/** This process's budgets. */
export const rateLimitBudgets = new RateLimitBudgets();
