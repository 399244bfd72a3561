import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  Card,
  CardBatch,
  CardQuery,
  CreateCardBody,
  CreateCardData,
  DelCardBody,
  DeletedCount,
  EditCardBody,
  ExportCardQuery,
  Page,
  VerCardBody,
  VerCardData,
} from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { caller, clientInfo, requireRole } from '../../plugins/authentication.js';

/** Card calls under /api/user: each user its own cards, administrators all. */
export const cardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { cards } = app.services;
  const systemUser = requireRole(app, 'admin', 'user');

  app.get(
    '/getCard',
    { onRequest: systemUser, schema: { querystring: CardQuery, response: { 200: Envelope(Page(Card)) } } },
    async (request) => ok(await cards.list(caller(request), request.query)),
  );
  app.get(
    '/getCardBatches',
    { onRequest: systemUser, schema: { response: { 200: Envelope(Type.Array(CardBatch)) } } },
    async (request) => ok(await cards.batches(caller(request))),
  );
  app.post(
    '/createCard',
    { onRequest: systemUser, schema: { body: CreateCardBody, response: { 200: Envelope(CreateCardData) } } },
    async (request) => ok(await cards.create(caller(request), request.body)),
  );
  app.post(
    '/editCard',
    { onRequest: systemUser, schema: { body: EditCardBody, response: { 200: Envelope(Card) } } },
    async (request) => ok(await cards.edit(caller(request), request.body)),
  );
  app.post(
    '/delCard',
    { onRequest: systemUser, schema: { body: DelCardBody, response: { 200: Envelope(DeletedCount) } } },
    async (request) => ok(await cards.remove(caller(request), request.body.ids)),
  );
  app.get(
    '/exportCard',
    { onRequest: systemUser, schema: { querystring: ExportCardQuery } },
    async (request, reply) => {
      const file = await cards.exportBatch(caller(request), request.query);
      return reply
        .type(file.type)
        .header(
          'content-disposition',
          `attachment; filename="cards-${request.query.batchId}.${file.extension}"`,
        )
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};

/** POST /api/verCard (public): redeem a card code. */
export const publicCardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/verCard',
    { schema: { body: VerCardBody, response: { 200: Envelope(VerCardData) } } },
    async (request) => ok(await app.services.cards.redeem(request.body, clientInfo(request))),
  );
};
