import { DEFAULT_PERMISSION_KEY, encryptPermissionData, permissionsFor, type Role } from '@youju/contract';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const loaderArgs = {} as LoaderFunctionArgs;

/** Fresh modules with getVar answering for `role`; returns the guards and the feedback spy. */
async function setUp(role: Role, permissions = permissionsFor(role)) {
  vi.resetModules();
  const [guards, feedback, routes] = await Promise.all([
    import('./route-guards'),
    import('../lib/feedback'),
    import('../config/routes'),
  ]);
  const permissionData = encryptPermissionData(JSON.stringify({ role, permissions }), DEFAULT_PERMISSION_KEY);
  vi.stubGlobal(
    'fetch',
    async () => new Response(JSON.stringify({ error: 0, msg: 'ok', permissionData, settings: {} })),
  );
  const messageError = vi.fn();
  feedback.registerFeedback({
    message: { error: messageError, success: vi.fn() } as never,
    notification: { error: vi.fn() } as never,
  });
  return { guards, routes, messageError };
}

function location(result: unknown): string | null {
  return result instanceof Response ? result.headers.get('Location') : null;
}

describe('route guards', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('send a visitor without a token from a login-only route to /auth and let public routes pass', async () => {
    const { guards, routes } = await setUp('anonymous');
    const [inbox] = routes.userScreens;
    expect(location(await guards.guardRoute(inbox!)(loaderArgs))).toBe('/auth');
    expect(location(await guards.requireSession(loaderArgs))).toBe('/auth');
    expect(await guards.guardRoute(routes.publicRoutes.auth)(loaderArgs)).toBeNull();
    localStorage.setItem('token', 't');
    expect(await guards.guardRoute(inbox!)(loaderArgs)).toBeNull();
  });

  it('land /user on the inbox, or on the first allowed screen without inbox', async () => {
    localStorage.setItem('token', 't');
    const admin = await setUp('admin');
    expect(location(await admin.guards.landOnFirstScreen(loaderArgs))).toBe('/user/inbox');
    const noInbox = await setUp('admin', ['menu:sysAccount']);
    expect(location(await noInbox.guards.landOnFirstScreen(loaderArgs))).toBe('/user/sysAccount');
  });

  it('treat a stored token the server answers as anonymous like an expired login', async () => {
    localStorage.setItem('token', 'bogus');
    const { guards, messageError } = await setUp('anonymous');
    expect(location(await guards.requireSession(loaderArgs))).toBe('/auth');
    expect(localStorage.getItem('token')).toBeNull();
    expect(messageError).toHaveBeenCalledWith(
      expect.objectContaining({ content: '登录状态已过期，请先登录' }),
    );
  });

  it('let a valid session into /user', async () => {
    localStorage.setItem('token', 'good');
    const { guards } = await setUp('mailbox');
    expect(await guards.requireSession(loaderArgs)).toBeNull();
  });

  it('show each role only the built screens its permissions allow', async () => {
    const { routes } = await setUp('mailbox');
    const screensOf = (role: Role) =>
      routes.allowedUserScreens(permissionsFor(role)).map((entry) => entry.screen);
    const built = routes.userScreens.map((entry) => entry.screen);
    expect(screensOf('admin')).toEqual(built);
    expect(screensOf('user')).toContain('inbox');
    expect(screensOf('user')).not.toContain('sysAccount');
    expect(screensOf('mailbox')).toContain('inbox');
    expect(
      screensOf('mailbox').every((screen) =>
        ['inbox', 'sent', 'setting', 'clientSettings', 'forward'].includes(screen),
      ),
    ).toBe(true);
    expect(screensOf('anonymous')).toEqual([]);
  });
});
