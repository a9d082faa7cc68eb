import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';
import type { Config } from './config';

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the certificate came from, for the start-up message. */
  source: string;
}

/**
 * The configured certificate, or a self-signed one generated on first start into the data
 * directory and reused afterwards (so clients can pin it).
 */
export async function loadTls(config: Config): Promise<TlsMaterial> {
  if (config.TLS_CERT_FILE && config.TLS_KEY_FILE) {
    return { cert: readFileSync(config.TLS_CERT_FILE, 'utf8'), key: readFileSync(config.TLS_KEY_FILE, 'utf8'), source: config.TLS_CERT_FILE };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true });
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000),
      algorithm: 'sha256',
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
      ],
    });
    writeFileSync(keyFile, pems.private, { mode: 0o600 });
    writeFileSync(certFile, pems.cert);
  }
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), source: certFile };
}
