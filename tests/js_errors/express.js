// express 4: apps and routers set up wrongly, and requests whose handlers misuse req and res.
// Requests go to a real server on 127.0.0.1; an error handler catches what reaches it, so the
// errors of express's own dependencies (body-parser, raw-body, send, cookie) come back too.
'use strict';
const http = require('http');
const os = require('os');
const express = require('express');
const { cases, run } = require('./_harness');

const add = cases('express');

// Serve one request with `setup(app)`'s routes; resolve with the error the app's error
// handler received (null if none).
function request(setup, { method = 'GET', path = '/', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const app = express();
    let caught = null;
    setup(app);
    app.use((err, req, res, next) => {
      caught = err;
      res.status(500).end();
    });
    const server = app.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        res.resume();
        res.on('end', () => server.close(() => resolve(caught)));
      });
      req.on('error', (err) => server.close(() => reject(err)));
      req.end(body);
    });
  });
}

const handle = (fn) => (app) => app.get('/', (req, res) => fn(req, res));

// Set-up mistakes: thrown straight away.
add('app.use without a function', () => express().use());
add('app.use with a path and no function', () => express().use('/api'));
add('Router.use without a function', () => express.Router().use());
add('Router.use with a number', () => express.Router().use('/', 42));
add('route without a callback', () => express().get('/', undefined));
add('app.all with a number', () => express().all('/x', 42));
add('Router.route with a number', () => express.Router().route('/x').post(42));
add('param with a number', () => express().param('id', 42));
add('engine without a callback', () => express().engine('html'));
add('etag setting unknown', () => express().set('etag', 'sometimes'));
add('query parser setting unknown', () => express().set('query parser', 'clever'));
add('bundled middleware asked for', () => express.bodyParser);
add('app.router asked for', () => express().router);
add('static without a root', () => express.static());
add('static with a number root', () => express.static(42));
add('static with a bad setHeaders', () => express.static(os.tmpdir(), { setHeaders: 42 }));
add('json with a bad verify', () => express.json({ verify: 42 }));
add('urlencoded with a bad parameterLimit', () => express.urlencoded({ extended: true, parameterLimit: 'many' }));
add('urlencoded with a bad depth', () => express.urlencoded({ extended: true, depth: -1 }));

// Handlers that misuse req and res: express hands what they throw to the error handler.
add('res.sendFile without a path', () => request(handle((req, res) => res.sendFile())));
add('res.sendFile with a number', () => request(handle((req, res) => res.sendFile(42))));
add('res.sendFile with a relative path', () => request(handle((req, res) => res.sendFile('index.html'))));
add('res.sendFile with a bad dotfiles option', () =>
  request(handle((req, res) => res.sendFile('/etc/hostname', { dotfiles: 'sometimes' }))),
);
add('res.sendFile with bad extensions', () =>
  request(handle((req, res) => res.sendFile('/etc/hostname', { extensions: 42 }))),
);
add('res.sendFile of a path climbing out of the root', () =>
  request(handle((req, res) => res.sendFile('../etc/passwd', { root: os.tmpdir() }))),
);
add('res.set of an array Content-Type', () => request(handle((req, res) => res.set('Content-Type', ['a/b']).end())));
add('res.cookie signed without a secret', () => request(handle((req, res) => res.cookie('a', 'b', { signed: true }))));
add('res.cookie with a bad name', () => request(handle((req, res) => res.cookie('a b', 'x').end())));
add('res.cookie with a bad sameSite', () => request(handle((req, res) => res.cookie('a', 'x', { sameSite: 'often' }).end())));
add('req.get without a name', () => request(handle((req, res) => res.send(req.get()))));
add('req.get with a number', () => request(handle((req, res) => res.send(req.get(42)))));
add('res.render without a view engine', () => request(handle((req, res) => res.render('index'))));
add('res.render of a missing view', () =>
  request((app) => {
    app.engine('tpl', (file, options, done) => done(null, 'x'));
    app.set('views', os.tmpdir());
    app.get('/', (req, res) => res.render('no-such-view.tpl'));
  }),
);
add('res.render with a module that is no engine', () => request(handle((req, res) => res.render('index.path'))));
add('res.format with nothing acceptable', () =>
  request(handle((req, res) => res.format({ 'text/html': () => res.send('<p>') })), { headers: { Accept: 'image/png' } }),
);

// Bodies express's parsers refuse.
const post = (parser, headers, body) =>
  request((app) => app.post('/', parser, (req, res) => res.end()), { method: 'POST', headers, body });
add('json body too large', () =>
  post(express.json({ limit: 10 }), { 'Content-Type': 'application/json' }, JSON.stringify({ a: 'x'.repeat(100) })),
);
add('json body in an unknown charset', () =>
  post(express.json(), { 'Content-Type': 'application/json; charset=koi9' }, '{}'),
);
add('json body in an unknown encoding', () =>
  post(express.json(), { 'Content-Type': 'application/json', 'Content-Encoding': 'zip9' }, '{}'),
);
add('urlencoded body with too many parameters', () =>
  post(express.urlencoded({ extended: false, parameterLimit: 2 }), { 'Content-Type': 'application/x-www-form-urlencoded' }, 'a=1&b=2&c=3'),
);
add('extended urlencoded body with too many parameters', () =>
  post(express.urlencoded({ extended: true, parameterLimit: 2 }), { 'Content-Type': 'application/x-www-form-urlencoded' }, 'a=1&b=2&c=3'),
);
add('urlencoded body in an unknown charset', () =>
  post(express.urlencoded({ extended: false }), { 'Content-Type': 'application/x-www-form-urlencoded; charset=koi9' }, 'a=1'),
);
add('text body too large', () => post(express.text({ limit: 5 }), { 'Content-Type': 'text/plain' }, 'hello world'));
add('raw body in an unknown encoding', () =>
  post(express.raw(), { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'zip9' }, 'abc'),
);
run();
