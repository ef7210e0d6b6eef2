/** Named events with ordered handlers. */
export class Emitter {
  #handlers = new Map();

  on(event, handler) {
    const list = this.#handlers.get(event) ?? [];
    list.push({ handler, once: false });
    this.#handlers.set(event, list);
    return this;
  }

  /** Like on(), but the handler is removed before its first run. */
  once(event, handler) {
    const list = this.#handlers.get(event) ?? [];
    list.push({ handler, once: true });
    this.#handlers.set(event, list);
    return this;
  }

  off(event, handler) {
    const list = this.#handlers.get(event) ?? [];
    const index = list.findIndex((entry) => entry.handler === handler);
    if (index !== -1) list.splice(index, 1);
    return this;
  }

  /** Runs the event's handlers in order; true when there was at least one. */
  emit(event, ...args) {
    const list = [...(this.#handlers.get(event) ?? [])];
    for (const entry of list) {
      if (entry.once) {
        const current = this.#handlers.get(event) ?? [];
        const index = current.indexOf(entry);
        if (index === -1) continue;
        current.splice(index, 1);
      }
      entry.handler(...args);
    }
    return list.length > 0;
  }

  listenerCount(event) {
    return (this.#handlers.get(event) ?? []).length;
  }
}
