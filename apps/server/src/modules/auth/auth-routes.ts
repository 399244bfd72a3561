import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ChangePasswordBody,
  LoginBody,
  LoginData,
  LoginEmailBody,
  LoginEmailData,
  OpenDomainList,
  RegEmailBody,
  RegEmailData,
  StartAuthBody,
  StartAuthData,
} from '@youju/contract';
import { EmptyEnvelope, Envelope, ok } from '../../lib/envelope.js';
import { caller, clientInfo, requireRole } from '../../plugins/authentication.js';

/** Public and auth calls under /api: first-run set-up, logins, sign-up and its open domains. */
export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { auth, domains } = app.services;

  app.post(
    '/startAuth',
    { schema: { body: StartAuthBody, response: { 200: Envelope(StartAuthData) } } },
    async (request) => ok(await auth.startAuth(request.body, clientInfo(request))),
  );
  app.post(
    '/login',
    { schema: { body: LoginBody, response: { 200: Envelope(LoginData) } } },
    async (request) => ok(await auth.login(request.body, clientInfo(request))),
  );
  app.post(
    '/loginEmail',
    { schema: { body: LoginEmailBody, response: { 200: Envelope(LoginEmailData) } } },
    async (request) => ok(await auth.loginEmail(request.body, clientInfo(request))),
  );
  app.post(
    '/regEmail',
    { schema: { body: RegEmailBody, response: { 200: Envelope(RegEmailData) } } },
    async (request) => ok(await auth.regEmail(request.body, clientInfo(request))),
  );
  app.get('/getArrDomains', { schema: { response: { 200: Envelope(OpenDomainList) } } }, async () =>
    ok(await domains.openForRegistration()),
  );
};

/** Session calls under /api/user that every logged-in role has. */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { auth } = app.services;
  const anyone = requireRole(app, 'admin', 'user', 'mailbox');

  app.get('/logout', { onRequest: anyone, schema: { response: { 200: EmptyEnvelope } } }, async (request) => {
    await auth.logout(caller(request));
    return ok();
  });
  app.post(
    '/changePassword',
    {
      onRequest: anyone,
      schema: {
        body: ChangePasswordBody,
        response: { 200: Envelope(Type.Object({ token: Type.String() })) },
      },
    },
    async (request) => ok(await auth.changePassword(caller(request), request.body, clientInfo(request))),
  );
};
