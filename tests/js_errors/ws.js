// ws: clients and servers made with bad arguments, sockets used before they open, and
// handshakes a server refuses (reported through 'wsClientError' and the client's 'error').
'use strict';
const http = require('http');
const net = require('net');
const { WebSocket, WebSocketServer } = require('ws');
const { cases, run } = require('./_harness');

const add = cases('ws');
let port = null;
let plainPort = null;

// A client that fails to connect: the error its 'error' event carries.
const clientError = (url, options) =>
  new Promise((resolve) => {
    const socket = new WebSocket(url, options);
    socket.on('error', (err) => {
      socket.terminate();
      resolve(err);
    });
    socket.on('open', () => {
      socket.terminate();
      resolve(null);
    });
  });

// The error a server reports for a raw upgrade request it refuses.
const refused = (request) =>
  new Promise((resolve) => {
    const server = new WebSocketServer({ noServer: true });
    const httpServer = http.createServer();
    server.on('wsClientError', (err, socket) => {
      socket.destroy();
      httpServer.close();
      resolve(err);
    });
    httpServer.on('upgrade', (req, socket, head) => server.handleUpgrade(req, socket, head, () => resolve(null)));
    httpServer.listen(0, '127.0.0.1', () => {
      const conn = net.connect(httpServer.address().port, '127.0.0.1', () => conn.write(request));
      conn.on('error', () => {});
    });
  });

const upgrade = (lines) => ['GET / HTTP/1.1', 'Host: 127.0.0.1', ...lines, '', ''].join('\r\n');
const wanted = ['Connection: Upgrade', 'Upgrade: websocket'];

add('a URL that is not one', () => new WebSocket('not a url'));
add('a URL with another protocol', () => new WebSocket('ftp://127.0.0.1/'));
add('a URL with a fragment', () => new WebSocket('ws://127.0.0.1/#part'));
add('a duplicated subprotocol', () => new WebSocket('ws://127.0.0.1:1/', ['chat', 'chat']));
add('an unsupported protocol version', () => new WebSocket('ws://127.0.0.1:1/', { protocolVersion: 7 }));
add('a unix socket URL without a path', () => new WebSocket('ws+unix:'));
add('send before open', () => {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
  socket.on('error', () => {});
  try {
    socket.send('hello');
  } finally {
    socket.terminate();
  }
});
add('ping before open', () => {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
  socket.on('error', () => {});
  try {
    socket.ping();
  } finally {
    socket.terminate();
  }
});
add('pong before open', () => {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`);
  socket.on('error', () => {});
  try {
    socket.pong();
  } finally {
    socket.terminate();
  }
});
add('a server with no port, server or noServer', () => new WebSocketServer({}));
add('a server with both port and noServer', () => new WebSocketServer({ port: 0, noServer: true }));
add('address of a noServer server', () => new WebSocketServer({ noServer: true }).address());
add('a server that answers with a 404', () => clientError(`ws://127.0.0.1:${plainPort}/`));
add('a handshake with the wrong method', () => refused(upgrade(wanted).replace('GET', 'POST')));
add('a handshake without a key', () => refused(upgrade([...wanted, 'Sec-WebSocket-Version: 13'])));
add('a handshake with a bad version', () =>
  refused(upgrade([...wanted, 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 99'])),
);
add('a handshake that does not upgrade to websocket', () =>
  refused(upgrade(['Connection: Upgrade', 'Upgrade: carrier-pigeon', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=='])),
);
add('a handshake with a bad subprotocol header', () =>
  refused(
    upgrade([
      ...wanted,
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Protocol: a,,b',
    ]),
  ),
);

async function main() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.on('listening', resolve));
  port = server.address().port;
  const plain = http.createServer((req, res) => res.writeHead(404).end());
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
  plainPort = plain.address().port;
  await run();
}

main();
