import { beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: the queue and the "requested" flag are module state. */
async function freshFeedback() {
  vi.resetModules();
  return import('./feedback');
}

function fakeApi() {
  return {
    message: { error: vi.fn(), success: vi.fn(), info: vi.fn() },
    notification: { error: vi.fn() },
  };
}

describe('feedback bridge', () => {
  beforeEach(() => vi.restoreAllMocks());

  it('asks for the antd instances on the first call only, and shows what waited once they are there', async () => {
    const feedback = await freshFeedback();
    const asked = vi.fn();
    feedback.subscribeFeedbackRequest(asked);
    expect(feedback.isFeedbackRequested()).toBe(false);

    feedback.showErrorNotification('站点变量读取失败');
    feedback.showInfoMessage('收到新邮件：你好', 'mail-1');
    expect(feedback.isFeedbackRequested()).toBe(true);
    expect(asked).toHaveBeenCalledTimes(1);

    const api = fakeApi();
    feedback.registerFeedback(api as never);
    expect(api.notification.error).toHaveBeenCalledWith({ title: '出错了', description: '站点变量读取失败' });
    expect(api.message.info).toHaveBeenCalledWith({ content: '收到新邮件：你好', key: 'mail-1' });

    feedback.showSuccessMessage('已保存');
    expect(api.message.success).toHaveBeenCalledWith('已保存');
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing until something is to be shown, and no listener that left', async () => {
    const feedback = await freshFeedback();
    const stays = vi.fn();
    const leaves = vi.fn();
    feedback.subscribeFeedbackRequest(stays);
    const unsubscribe = feedback.subscribeFeedbackRequest(leaves);
    expect(stays).not.toHaveBeenCalled();
    unsubscribe();
    feedback.showErrorMessage('出错了');
    expect(stays).toHaveBeenCalledTimes(1);
    expect(leaves).not.toHaveBeenCalled();
  });
});
