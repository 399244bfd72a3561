import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The stores read local storage when their module loads, so each case imports them afresh. */
async function freshStores() {
  vi.resetModules();
  const [{ usePermissionStore }, { useSettingsStore }] = await Promise.all([
    import('./permission'),
    import('./settings'),
  ]);
  return { usePermissionStore, useSettingsStore };
}

describe('permission and settings stores', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('start from their local-storage mirrors', async () => {
    localStorage.setItem('permission_', JSON.stringify({ role: 'admin', permissions: ['menu:inbox'] }));
    localStorage.setItem('settings_', JSON.stringify({ siteName: '测试邮局' }));
    const { usePermissionStore, useSettingsStore } = await freshStores();
    expect(usePermissionStore.getState().permissionData).toEqual({
      role: 'admin',
      permissions: ['menu:inbox'],
    });
    expect(useSettingsStore.getState().settings).toEqual({ siteName: '测试邮局' });
  });

  it('fall back to {} when the mirror holds corrupt JSON or no object', async () => {
    localStorage.setItem('permission_', '{not json');
    localStorage.setItem('settings_', '[1,2]');
    const { usePermissionStore, useSettingsStore } = await freshStores();
    expect(usePermissionStore.getState().permissionData).toEqual({});
    expect(useSettingsStore.getState().settings).toEqual({});
  });

  it('mirror what they are given under permission_ and settings_', async () => {
    const { usePermissionStore, useSettingsStore } = await freshStores();
    usePermissionStore
      .getState()
      .setPermissionText('{"role":"user","permissions":["menu:inbox"],"name":"张三"}');
    useSettingsStore.getState().setSettings({ siteName: '邮局', initialized: true });
    expect(usePermissionStore.getState().permissionData).toEqual({
      role: 'user',
      permissions: ['menu:inbox'],
      name: '张三',
    });
    expect(JSON.parse(localStorage.getItem('permission_') ?? '')).toEqual({
      role: 'user',
      permissions: ['menu:inbox'],
      name: '张三',
    });
    expect(JSON.parse(localStorage.getItem('settings_') ?? '')).toEqual({
      siteName: '邮局',
      initialized: true,
    });
  });

  it('fall back to {} when the permission text does not parse or settings are not an object', async () => {
    const { usePermissionStore, useSettingsStore } = await freshStores();
    usePermissionStore.getState().setPermissionText('{"role":"admin"');
    useSettingsStore.getState().setSettings('kaputt');
    expect(usePermissionStore.getState().permissionData).toEqual({});
    expect(useSettingsStore.getState().settings).toEqual({});
    expect(localStorage.getItem('permission_')).toBe('{}');
    expect(localStorage.getItem('settings_')).toBe('{}');
  });

  it('keep the state when storing fails, and the mirror falls back to {}', async () => {
    localStorage.setItem('permission_', JSON.stringify({ role: 'mailbox' }));
    localStorage.setItem('settings_', JSON.stringify({ siteName: '旧名称' }));
    const { usePermissionStore, useSettingsStore } = await freshStores();
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('存储空间已满', 'QuotaExceededError');
    });
    expect(() =>
      usePermissionStore.getState().setPermissionText('{"role":"admin","permissions":[]}'),
    ).not.toThrow();
    expect(() => useSettingsStore.getState().setSettings({ siteName: '新名称' })).not.toThrow();
    expect(usePermissionStore.getState().permissionData).toEqual({ role: 'admin', permissions: [] });
    expect(useSettingsStore.getState().settings).toEqual({ siteName: '新名称' });
    vi.restoreAllMocks();
    // The stale copies are gone: a fresh start reads the empty object instead of outdated data.
    const restarted = await freshStores();
    expect(restarted.usePermissionStore.getState().permissionData).toEqual({});
    expect(restarted.useSettingsStore.getState().settings).toEqual({});
  });

  it('fall back to {} when local storage cannot be read at all', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('禁止访问', 'SecurityError');
    });
    const { usePermissionStore, useSettingsStore } = await freshStores();
    expect(usePermissionStore.getState().permissionData).toEqual({});
    expect(useSettingsStore.getState().settings).toEqual({});
  });
});
