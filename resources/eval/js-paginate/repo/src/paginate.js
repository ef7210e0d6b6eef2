/** One page of results; pages are numbered from 1. */
export function paginate(items, page, perPage) {
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be a whole number from 1, not ${page}`);
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError(`perPage must be a whole number from 1, not ${perPage}`);
  const start = page * perPage;
  const totalPages = Math.floor(items.length / perPage) + 1;
  return {
    items: items.slice(start, start + perPage),
    page,
    totalPages,
    hasNext: page < totalPages,
  };
}
