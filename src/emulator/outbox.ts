/** The development outbox: every message the emulator "sent", for demos and tests to read. */
import type { OtpChannel } from '../core/protocol.js';

export interface OutboxMessage {
  id: number;
  sentAt: string;
  channel: OtpChannel;
  to: string;
  templateId: number;
  language: string;
  text: string;
  code: string;
  /** True when this message went out on the fallback channel. */
  fallback: boolean;
}

type Listener = (message: OutboxMessage) => void;

export class Outbox {
  readonly #messages: OutboxMessage[] = [];
  readonly #listeners = new Set<Listener>();
  #nextId = 1;

  add(message: Omit<OutboxMessage, 'id' | 'sentAt'>): OutboxMessage {
    const full = { id: this.#nextId++, sentAt: new Date().toISOString(), ...message };
    this.#messages.push(full);
    for (const listener of this.#listeners) listener(full);
    return full;
  }

  /** Newest first, optionally only those to one recipient. */
  list(to?: string): OutboxMessage[] {
    const normalized = to?.trim().toLowerCase();
    return this.#messages.filter((m) => !normalized || m.to.toLowerCase() === normalized).reverse();
  }

  clear(): void {
    this.#messages.length = 0;
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
