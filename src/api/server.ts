import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Express } from 'express';
import type { TrustProxy } from '../config';
import { newId } from '../domain/ids';
import type { TlsMaterial } from '../tls';

const TLS_HANDSHAKE = 0x16;

/** The request line and headers together; the preview's `body` query parameter is sized to fit (src/api/reports/schemas.ts). */
export const MAX_HEAD_BYTES = 64 * 1024;

/**
 * One port, TLS only. The first byte of each connection tells a TLS handshake from plain
 * HTTP; plain HTTP is answered 403 HTTPS_REQUIRED by the listener itself, so it never reaches
 * a handler. With TRUST_PROXY the proxy terminates TLS and may speak plain HTTP to us; then the
 * app checks X-Forwarded-Proto instead.
 */
export function createServer(app: Express, tls: TlsMaterial, trustProxy: TrustProxy) {
  const options = { keepAliveTimeout: 65_000, maxHeaderSize: MAX_HEAD_BYTES };
  const secure = https.createServer({ ...options, cert: tls.cert, key: tls.key }, app);
  const plain = trustProxy !== false ? http.createServer(options, app) : http.createServer(options, refusePlainHttp);
  secure.on('clientError', answerUnparsed);
  plain.on('clientError', answerUnparsed);
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

/**
 * A request Node could not parse never reaches the app: without this, Node answers a bare 431 or
 * 400 with no body and no X-Request-Id. The service's own error body instead, then the socket
 * closes (what follows on it cannot be framed).
 */
function answerUnparsed(err: NodeJS.ErrnoException, socket: net.Socket) {
  if (!socket.writable || (err as { bytesParsed?: number }).bytesParsed === undefined) return void socket.destroy();
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const requestId = newId();
  const body = JSON.stringify(
    tooLarge
      ? { code: 'HEADERS_TOO_LARGE', message: `The request line and headers exceed ${MAX_HEAD_BYTES / 1024} KiB`, request_id: requestId }
      : { code: 'INVALID_REQUEST', message: 'Malformed HTTP request', request_id: requestId },
  );
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

function refusePlainHttp(_req: http.IncomingMessage, res: http.ServerResponse) {
  const body = JSON.stringify({ code: 'HTTPS_REQUIRED', message: 'This service only accepts HTTPS' });
  res.writeHead(403, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}
