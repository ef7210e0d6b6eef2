/** Named events with ordered handlers. */
export class Emitter {
  #handlers = new Map();

  on(event, handler) {
    const list = this.#handlers.get(event) ?? [];
    list.push(handler);
    this.#handlers.set(event, list);
    return this;
  }

  off(event, handler) {
    const list = this.#handlers.get(event) ?? [];
    const index = list.indexOf(handler);
    if (index !== -1) list.splice(index, 1);
    return this;
  }

  /** Runs the event's handlers in order; true when there was at least one. */
  emit(event, ...args) {
    const list = [...(this.#handlers.get(event) ?? [])];
    for (const handler of list) handler(...args);
    return list.length > 0;
  }

  listenerCount(event) {
    return (this.#handlers.get(event) ?? []).length;
  }
}
