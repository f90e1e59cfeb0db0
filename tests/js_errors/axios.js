// axios (its Node build, dist/node/axios.cjs): requests to a local server that answers badly,
// requests configured wrongly, and misuse of its helpers.
'use strict';
const http = require('http');
const axios = require('axios');
const { cases, run } = require('./_harness');

const add = cases('axios');

// One server for every case: /status/N answers N, /slow never answers, /big sends 1 kB.
let base = null;
let closedPort = null;
const server = http.createServer((req, res) => {
  const [, what, arg] = req.url.split('/');
  if (what === 'status') {
    res.writeHead(Number(arg), { 'Content-Type': 'application/json' });
    res.end('{"error": true}');
  } else if (what === 'slow') {
    setTimeout(() => res.end('late'), 2000).unref();
  } else if (what === 'big') {
    res.end('x'.repeat(1024));
  } else {
    req.resume();
    req.on('end', () => res.end('ok'));
  }
});

const get = (path, config) => axios.get(base + path, config);

add('a 404', () => get('/status/404'));
add('a 500', () => get('/status/500'));
add('a 401 from post', () => axios.post(base + '/status/401', { user: 'x' }));
add('a 503 from a created instance', () => axios.create({ baseURL: base }).get('/status/503'));
add('a 200 that validateStatus refuses', () => get('/status/200', { validateStatus: (s) => s >= 300 }));
add('a timeout', () => get('/slow', { timeout: 50 }));
add('a timeout with its own message', () => get('/slow', { timeout: 50, timeoutErrorMessage: 'the server is too slow' }));
add('a timeout that is not a number', () => get('/', { timeout: 'soon' }));
add('a response larger than maxContentLength', () => get('/big', { maxContentLength: 100 }));
add('a body larger than maxBodyLength', () => axios.post(base + '/', 'x'.repeat(1000), { maxBodyLength: 100 }));
add('a body that is a number', () => axios.post(base + '/', 42, { transformRequest: [(data) => data] }));
add('an unsupported protocol', () => axios.get('ftp://127.0.0.1/file'));
add('a malformed data URL', () => axios.get('data:not a data url'));
add('a refused connection', () => axios.get(`http://127.0.0.1:${closedPort}/`));
add('an unknown adapter', () => get('/', { adapter: 'carrier-pigeon' }));
add('an adapter the environment lacks', () => get('/', { adapter: 'xhr' }));
add('getAdapter of an unknown name', () => axios.getAdapter('carrier-pigeon'));
add('a transitional option of the wrong type', () => get('/', { transitional: { silentJSONParsing: 'yes' } }));
add('an unknown transitional option', () => get('/', { transitional: { forceEverything: true } }));
add('a paramsSerializer encode that is no function', () => get('/', { params: { a: 1 }, paramsSerializer: { encode: 42 } }));
add('a cancelled request', () => {
  const source = axios.CancelToken.source();
  const request = get('/slow', { cancelToken: source.token });
  source.cancel('user navigated away');
  return request;
});
add('an aborted signal', () => {
  const controller = new AbortController();
  controller.abort();
  return get('/', { signal: controller.signal });
});
add('CancelToken without an executor', () => new axios.CancelToken(42));
add('toFormData of a number', () => axios.toFormData(42));
add('toFormData with a visitor that is no function', () => axios.toFormData({ a: 1 }, undefined, { visitor: 42 }));
add('toFormData of a circular object', () => {
  const a = { b: {} };
  a.b.a = a;
  return axios.toFormData(a);
});
add('AxiosHeaders with an empty name', () => new axios.AxiosHeaders().set('', 'x'));
add('AxiosHeaders get with a bad parser', () => new axios.AxiosHeaders({ a: '1' }).get('a', 42));

async function main() {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  // A port nobody listens on: one that was just freed.
  const probe = http.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = probe.address().port;
  await new Promise((resolve) => probe.close(resolve));
  await run();
}

main();
