// The server's JSON API. Every request carries the run's token: reads by the cookie the first
// page load set, changes by a header other sites cannot send.
const token = document.querySelector('meta[name="sketchease-token"]').content;

export class RequestError extends Error {}

async function check(response) {
  if (response.ok) return response;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body.error) message = body.error;
  } catch { /* not JSON */ }
  throw new RequestError(message);
}

export async function get(path, params = {}) {
  const response = await fetch(url(path, params), { credentials: 'same-origin' });
  return (await check(response)).json();
}

/** A change (or a picture tried out): JSON in, with the token header. */
function send(path, body) {
  return fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', 'X-SketchEase-Token': token },
    body: JSON.stringify(body),
  }).then(check);
}

export async function post(path, body) {
  return (await send(path, body)).json();
}

/** A picture answer (the preview with an edit tried out) as a blob. */
export async function postForImage(path, body) {
  return (await send(path, body)).blob();
}

export async function getBlob(path, params = {}) {
  const response = await fetch(url(path, params), { credentials: 'same-origin' });
  return (await check(response)).blob();
}

export async function upload(file, name) {
  const response = await fetch(url('/api/upload', { name: name || file.name || 'upload' }), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': file.type || 'application/octet-stream', 'X-SketchEase-Token': token },
    body: file,
  });
  return (await check(response)).json();
}

/** `path?key=value&…` with every value percent-encoded (spaces as %20, which the server reads). */
export function url(path, params = {}) {
  const query = Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return query ? `${path}?${query}` : path;
}
