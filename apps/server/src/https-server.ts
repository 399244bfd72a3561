import { createServer, type Server } from 'node:https';
import type { FastifyInstance } from 'fastify';

export interface HttpsServerHandle {
  port: number;
  server: Server;
  close(): Promise<void>;
}

/**
 * The optional HTTPS listener (`HTTPS_PORT`): a node:https server in front of the same Fastify app,
 * so routes, onRequest hooks and `request.ip` (the socket's address, trustProxy is off) behave as on
 * the plain port. Certificates come from the certificate service: SNI names (RFC 6066 section 3) are
 * answered at each handshake and the default pair follows reloadCertificates through
 * `setSecureContext`, so a reload applies to new connections and open ones keep theirs.
 *
 * Must be called before the app is ready (it registers the close hook), and waits for `app.ready()`
 * itself before listening. Returns null when the port is off or no valid certificate exists: a
 * missing or bad certificate is never served.
 */
export async function startHttpsServer(
  app: FastifyInstance,
  options: { port?: number | null; host?: string; closeWithApp?: boolean } = {},
): Promise<HttpsServerHandle | null> {
  const { config, services } = app;
  const port = options.port === undefined ? config.httpsPort : options.port;
  if (port === null) return null;
  const certificate = services.certificates.defaultCertificate();
  if (!certificate) {
    app.log.error(
      `HTTPS 未启动：${services.certificates.certsDir} 下没有有效的证书（需要 <主机名>/fullchain.pem 与 privkey.pem，未过期且与私钥匹配）`,
    );
    return null;
  }

  const server = createServer({ ...certificate, SNICallback: services.certificates.sniCallback });
  // The keep-alive time Fastify gives its own server.
  server.keepAliveTimeout = app.initialConfig.keepAliveTimeout ?? server.keepAliveTimeout;
  server.on('request', (request, response) => app.routing(request, response));

  const stopFollowingCertificates = services.certificates.onReload(() => {
    const next = services.certificates.defaultCertificate();
    if (next) server.setSecureContext(next);
  });

  let closing: Promise<void> | null = null;
  // One shutdown, however often asked (server.ts starts it, the app's preClose awaits it).
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      stopFollowingCertificates();
      if (!server.listening) return resolve();
      server.close(() => resolve());
      // Requests in flight finish; idle keep-alive connections would otherwise hold close() open.
      server.closeIdleConnections();
    });
    return closing;
  };
  // false: started after the app is ready (tls-listeners.ts), whose starter closes it.
  if (options.closeWithApp !== false) app.addHook('preClose', close);

  await app.ready();
  const host = options.host ?? config.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => app.log.warn(`https: ${error.message}`));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : port, server, close };
}
