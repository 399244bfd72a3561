import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { ApiError } from '../lib/api-error.js';
import type { AuthContext, ClientInfo } from '../modules/sessions/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** set by the authentication pre-handlers; null for anonymous callers */
    auth: AuthContext | null;
  }
}

export type CallerRole = AuthContext['role'];

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
}

/** The caller, known to be logged in (for handlers behind `requireRole`). */
export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw ApiError.notLoggedIn();
  return request.auth;
}

export function installAuthentication(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
}

/** Resolves the bearer token if there is one; never refuses (for public calls such as getVar). */
export function optionalLogin(app: FastifyInstance): onRequestAsyncHookHandler {
  return async (request) => {
    const token = bearer(request);
    request.auth = token ? await app.services.sessions.authenticate(token) : null;
  };
}

/**
 * Lets the call through only for a logged-in caller with one of `roles`. No or a bad token gives
 * error 302 (HTTP 401) with url /auth; a wrong role gives 403.
 */
export function requireRole(app: FastifyInstance, ...roles: CallerRole[]): onRequestAsyncHookHandler {
  return async (request) => {
    const token = bearer(request);
    const auth = token ? await app.services.sessions.authenticate(token) : null;
    if (!auth) throw ApiError.notLoggedIn();
    if (!roles.includes(auth.role)) throw ApiError.forbidden();
    request.auth = auth;
  };
}
