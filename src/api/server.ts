import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Express } from 'express';
import type { TrustProxy } from '../config';
import type { TlsMaterial } from '../tls';

const TLS_HANDSHAKE = 0x16;

/**
 * One port, TLS only. The first byte of each connection tells a TLS handshake from plain
 * HTTP; plain HTTP is answered 403 HTTPS_REQUIRED by the listener itself, so it never reaches
 * a handler. With TRUST_PROXY the proxy terminates TLS and may speak plain HTTP to us; then the
 * app checks X-Forwarded-Proto instead.
 */
export function createServer(app: Express, tls: TlsMaterial, trustProxy: TrustProxy) {
  const secure = https.createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 65_000 }, app);
  const plain = trustProxy !== false ? http.createServer({ keepAliveTimeout: 65_000 }, app) : http.createServer(refusePlainHttp);
  const sockets = new Set<net.Socket>();

  const listener = net.createServer({ pauseOnConnect: false }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.once('data', (first) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
    socket.on('error', () => socket.destroy());
  });

  return {
    listener,
    /** Stops accepting, lets in-flight requests finish, then closes idle keep-alive sockets. */
    async close(graceMs = 10_000): Promise<void> {
      await new Promise<void>((resolve) => {
        listener.close(() => resolve());
        secure.closeIdleConnections();
        plain.closeIdleConnections();
        const timer = setInterval(() => {
          secure.closeIdleConnections();
          plain.closeIdleConnections();
        }, 100);
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs).unref();
        listener.once('close', () => clearInterval(timer));
      });
    },
  };
}

function refusePlainHttp(_req: http.IncomingMessage, res: http.ServerResponse) {
  const body = JSON.stringify({ code: 'HTTPS_REQUIRED', message: 'This service only accepts HTTPS' });
  res.writeHead(403, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}
