let todos = [];
let nextId = 1;

/** Adds an open to-do and returns it. */
export function add(title) {
  const text = String(title).trim();
  if (text === '') throw new TypeError('a to-do needs a title');
  const todo = { id: nextId++, title: text, done: false };
  todos.push(todo);
  return { ...todo };
}

/** Flips a to-do between open and done; false when there is no such id. */
export function toggle(id) {
  const todo = todos.find((item) => item.id === id);
  if (!todo) return false;
  todo.done = !todo.done;
  return true;
}

export function remove(id) {
  const before = todos.length;
  todos = todos.filter((item) => item.id !== id);
  return todos.length < before;
}

/** Copies of the to-dos, oldest first. */
export function list() {
  return todos.map((todo) => ({ ...todo }));
}

/** Empties the list and restarts ids at 1. */
export function clear() {
  todos = [];
  nextId = 1;
}
