/** The parameters of a query string ("?" optional); repeated keys become arrays. */
export function parse(queryString) {
  const params = {};
  const text = queryString.startsWith('?') ? queryString.slice(1) : queryString;
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const [rawKey, rawValue = ''] = pair.split('=');
    const key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    const value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    if (key in params) params[key] = [].concat(params[key], value);
    else params[key] = value;
  }
  return params;
}
