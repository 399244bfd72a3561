import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  BatchEditEmailAccountBody,
  CreateEmailAccountBody,
  DeletedCount,
  EditEmailAccountBody,
  EmailAccount,
  EmailAccountQuery,
  ExportEmailAccountQuery,
  IdQuery,
  IdsBody,
  ImportEmailAccountBody,
  ImportEmailAccountData,
  Page,
  SearchAccountQuery,
  UpdatedCount,
} from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** An import carries a whole CSV file in its JSON body. */
const IMPORT_BODY_LIMIT = 6 * 1024 * 1024;

/** Mailbox accounts under /api/user: owners of domains and administrators. */
export const emailAccountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { emailAccounts } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.get(
    '/getEmailAccount',
    {
      onRequest: systemUser,
      schema: { querystring: EmailAccountQuery, response: { 200: Envelope(Page(EmailAccount)) } },
    },
    async (request) => ok(await emailAccounts.list(caller(request), request.query)),
  );
  app.get(
    '/searchEmailAccount',
    {
      onRequest: systemUser,
      schema: { querystring: SearchAccountQuery, response: { 200: Envelope(Page(EmailAccount)) } },
    },
    async (request) => ok(await emailAccounts.list(caller(request), request.query)),
  );
  app.get(
    '/getEmailAccountById',
    { onRequest: systemUser, schema: { querystring: IdQuery, response: { 200: Envelope(EmailAccount) } } },
    async (request) => ok(await emailAccounts.get(caller(request), request.query.id)),
  );
  app.post(
    '/createEmailAccount',
    {
      onRequest: systemUser,
      schema: { body: CreateEmailAccountBody, response: { 200: Envelope(EmailAccount) } },
    },
    async (request) => ok(await emailAccounts.create(caller(request), request.body)),
  );
  app.post(
    '/editEmailAccount',
    {
      onRequest: systemUser,
      schema: { body: EditEmailAccountBody, response: { 200: Envelope(EmailAccount) } },
    },
    async (request) => ok(await emailAccounts.edit(caller(request), request.body)),
  );
  app.post(
    '/batchEditEmailAccount',
    {
      onRequest: systemUser,
      schema: { body: BatchEditEmailAccountBody, response: { 200: Envelope(UpdatedCount) } },
    },
    async (request) => ok(await emailAccounts.batchEdit(caller(request), request.body)),
  );
  app.post(
    '/delEmailAccount',
    { onRequest: systemUser, schema: { body: IdsBody, response: { 200: Envelope(DeletedCount) } } },
    async (request) => ok(await emailAccounts.remove(caller(request), request.body.ids)),
  );
  app.post(
    '/importEmailAccount',
    {
      onRequest: systemUser,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: { body: ImportEmailAccountBody, response: { 200: Envelope(ImportEmailAccountData) } },
    },
    async (request) => {
      // Why a row was refused is read by the importer: in their language.
      const result = await emailAccounts.importCsv(caller(request), request.body);
      const language = requestLanguage(request.headers['accept-language']);
      return ok({
        ...result,
        rows: result.rows.map((row) =>
          row.reason === undefined ? row : { ...row, reason: localize(row.reason, language) },
        ),
      });
    },
  );
  app.get(
    '/exportEmailAccount',
    { onRequest: systemUser, schema: { querystring: ExportEmailAccountQuery } },
    async (request, reply) => {
      const csv = await emailAccounts.exportCsv(caller(request), request.query);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="email-accounts-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
};
