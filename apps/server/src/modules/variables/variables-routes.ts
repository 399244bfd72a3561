import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  encryptPermissionData,
  GetVarResponse,
  type PermissionData,
  type PublicSettings,
  permissionsFor,
} from '@youju/contract';
import { optionalLogin } from '../../plugins/authentication.js';
import { APP_VERSION } from '../../version.js';

/**
 * GET /api/getVar, the client's start-up call: public settings, and the caller's role and
 * permissions encrypted as `permissionData` (AES-CBC; docs/api.md, "getVar and the permission
 * payload").
 */
export const variablesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/getVar',
    { onRequest: optionalLogin(app), schema: { response: { 200: GetVarResponse } } },
    async (request) => {
      const { settings: settingsService, auth, domains } = app.services;
      const [system, initialized, openDomains] = await Promise.all([
        settingsService.get(),
        auth.adminExists(),
        domains.openForRegistration(),
      ]);
      const role = request.auth?.role ?? 'anonymous';
      const permissions: PermissionData = { role, permissions: permissionsFor(role) };
      if (request.auth) permissions.name = request.auth.name;
      const settings: PublicSettings = {
        siteName: system.siteName,
        announcement: system.announcement,
        initialized,
        registrationOpen: system.registrationOpen,
        storeOpen: system.storeOpen,
        version: APP_VERSION,
        retentionDays: system.retentionDays,
        maxMessageBytes: system.maxMessageBytes,
        mailDomains: openDomains.map((domain) => domain.name),
      };
      return {
        error: 0,
        msg: 'ok',
        permissionData: encryptPermissionData(JSON.stringify(permissions), app.config.permissionKey),
        settings,
      };
    },
  );
};
