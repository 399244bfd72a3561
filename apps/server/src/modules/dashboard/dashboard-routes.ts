import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DashboardView, GuideState } from '@youju/contract';
import { Envelope, ok } from '../../lib/envelope.js';
import { localize, requestLanguage } from '../../lib/i18n/index.js';
import { caller, requireRole } from '../../plugins/authentication.js';

/** GET /api/user/getDashboard: the whole system for administrators, their own part for users. */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { dashboard } = app.services;
  app.get(
    '/getDashboard',
    { onRequest: requireRole(app, 'admin', 'user'), schema: { response: { 200: Envelope(DashboardView) } } },
    async (request) => {
      const view = await dashboard.view(caller(request));
      // The radar's axis names are read as they are: in the caller's language.
      const language = requestLanguage(request.headers['accept-language']);
      return ok({
        ...view,
        radar: view.radar.map((axis) => ({ ...axis, name: localize(axis.name, language) })),
      });
    },
  );
  app.get(
    '/getGuide',
    { onRequest: requireRole(app, 'admin', 'user'), schema: { response: { 200: Envelope(GuideState) } } },
    async (request) => ok(await dashboard.guide(caller(request))),
  );
};
