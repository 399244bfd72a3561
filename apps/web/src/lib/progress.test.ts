import NProgress from 'nprogress';
import { describe, expect, it } from 'vitest';
import { progress } from './progress';

describe('navigation progress', () => {
  it('uses minimum 0.1, speed 400 ms and a trickle every 200 ms', () => {
    expect(NProgress.settings).toMatchObject({ minimum: 0.1, speed: 400, trickleSpeed: 200 });
  });

  it('starts once however often it is asked and finishes', () => {
    progress.start();
    expect(NProgress.isStarted()).toBe(true);
    const status = NProgress.status;
    progress.start();
    expect(NProgress.status).toBe(status);
    progress.done();
    expect(document.querySelector('#nprogress')).not.toBeNull();
  });
});
