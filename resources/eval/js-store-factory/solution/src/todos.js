/** An independent to-do list; ids count from 1. */
export function createStore() {
  let todos = [];
  let nextId = 1;
  return {
    /** Adds an open to-do and returns it. */
    add(title) {
      const text = String(title).trim();
      if (text === '') throw new TypeError('a to-do needs a title');
      const todo = { id: nextId++, title: text, done: false };
      todos.push(todo);
      return { ...todo };
    },
    /** Flips a to-do between open and done; false when there is no such id. */
    toggle(id) {
      const todo = todos.find((item) => item.id === id);
      if (!todo) return false;
      todo.done = !todo.done;
      return true;
    },
    remove(id) {
      const before = todos.length;
      todos = todos.filter((item) => item.id !== id);
      return todos.length < before;
    },
    /** Copies of the to-dos, oldest first. */
    list() {
      return todos.map((todo) => ({ ...todo }));
    },
    /** Empties the list and restarts ids at 1. */
    clear() {
      todos = [];
      nextId = 1;
    },
  };
}

const defaultStore = createStore();

export const add = (title) => defaultStore.add(title);
export const toggle = (id) => defaultStore.toggle(id);
export const remove = (id) => defaultStore.remove(id);
export const list = () => defaultStore.list();
export const clear = () => defaultStore.clear();
