import { DEFAULT_PERMISSION_KEY, encryptPermissionData } from '@youju/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const settings = { siteName: '测试邮局', initialized: true, registrationOpen: true, version: '0.1.0' };

/** Loads the modules afresh (the start-up guard is module state) and answers getVar with `respond`. */
async function setUp(respond: () => Promise<unknown> | unknown) {
  vi.resetModules();
  const [variables, feedback, { usePermissionStore }, { useSettingsStore }] = await Promise.all([
    import('./variables'),
    import('./feedback'),
    import('../state/permission'),
    import('../state/settings'),
  ]);
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push(`${init.method} ${url}`);
    return new Response(JSON.stringify(await respond()));
  });
  const ui = {
    messageError: vi.fn(),
    messageSuccess: vi.fn(),
    notificationError: vi.fn(),
  };
  feedback.registerFeedback({
    message: { error: ui.messageError, success: ui.messageSuccess } as never,
    notification: { error: ui.notificationError } as never,
  });
  return { variables, calls, ui, usePermissionStore, useSettingsStore };
}

describe('start-up variables call', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it('is made once, decrypts, strips control characters and separators, trims and stores', async () => {
    const payload = { role: 'admin', permissions: ['menu:inbox', 'menu:sysAccount'], name: 'admin' };
    // Control characters, a line and a paragraph separator and surrounding blanks must all go.
    const noisy = ` \u0000\t${JSON.stringify(payload)}\u2028\u2029\r\n\u0007 `;
    const permissionData = encryptPermissionData(noisy, DEFAULT_PERMISSION_KEY);
    const { variables, calls, ui, usePermissionStore, useSettingsStore } = await setUp(() => ({
      error: 0,
      msg: 'ok',
      permissionData,
      settings,
    }));

    const first = variables.loadStartupVariables();
    const second = variables.loadStartupVariables();
    await expect(first).resolves.toBe('applied');
    await expect(second).resolves.toBe('applied');
    await variables.variablesSettled();

    expect(calls).toEqual(['GET /api/getVar']);
    expect(usePermissionStore.getState().permissionData).toEqual(payload);
    expect(useSettingsStore.getState().settings).toEqual(settings);
    expect(JSON.parse(localStorage.getItem('permission_') ?? '')).toEqual(payload);
    expect(JSON.parse(localStorage.getItem('settings_') ?? '')).toEqual(settings);
    expect(ui.notificationError).not.toHaveBeenCalled();
  });

  it('shows msg as an error notification when error ≠ 0 and leaves the stores alone', async () => {
    localStorage.setItem('permission_', JSON.stringify({ role: 'mailbox' }));
    const { variables, ui, usePermissionStore } = await setUp(() => ({
      error: 500,
      msg: '服务器维护中，请稍后再试',
    }));
    await expect(variables.loadStartupVariables()).resolves.toBe('rejected');
    expect(ui.notificationError).toHaveBeenCalledTimes(1);
    expect(ui.notificationError.mock.calls[0]?.[0]).toMatchObject({
      description: '服务器维护中，请稍后再试',
    });
    expect(usePermissionStore.getState().permissionData).toEqual({ role: 'mailbox' });
  });

  it('only logs an exception to the console, showing nothing', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { variables, ui } = await setUp(() => {
      throw new Error('connection refused');
    });
    await expect(variables.loadStartupVariables()).resolves.toBe('failed');
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(ui.notificationError).not.toHaveBeenCalled();
    expect(ui.messageError).not.toHaveBeenCalled();
  });

  it('treats a payload that does not decrypt as an exception', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { variables, ui } = await setUp(() => ({
      error: 0,
      msg: 'ok',
      permissionData: 'bm90IGEgcGF5bG9hZA==',
      settings,
    }));
    await expect(variables.loadStartupVariables()).resolves.toBe('failed');
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(ui.notificationError).not.toHaveBeenCalled();
  });

  it('refreshes again on demand, separately from the start-up call', async () => {
    const permissionData = encryptPermissionData(
      '{"role":"anonymous","permissions":[]}',
      DEFAULT_PERMISSION_KEY,
    );
    const { variables, calls } = await setUp(() => ({ error: 0, msg: 'ok', permissionData, settings }));
    await variables.loadStartupVariables();
    await variables.refreshVariables();
    await variables.loadStartupVariables();
    expect(calls).toHaveLength(2);
  });
});
