import { type ComponentProps, type ComponentType, lazy } from 'react';

/**
 * `lazy` for an antd component used on a screen drawn without antd (/home and its frame): the
 * component and antd's frame (components/antd-provider.tsx) are fetched together, when it first
 * renders, and it renders inside that frame, with the app's theme and locale (in English once antd's
 * English texts are here too).
 */
// biome-ignore lint/suspicious/noExplicitAny: any component's props, as React's own `lazy` takes them
export function lazyWithAntd<Component extends ComponentType<any>>(
  load: () => Promise<{ default: Component }>,
) {
  return lazy(async () => {
    const [{ default: Inner }, { AntdProvider, loadAntdLocale }] = await Promise.all([
      load(),
      import('./antd-provider'),
    ]);
    await loadAntdLocale();
    // biome-ignore lint/correctness/noComponentHookFactories: made once, when the lazy module resolves
    function WithAntd(props: ComponentProps<Component>) {
      return (
        <AntdProvider>
          <Inner {...props} />
        </AntdProvider>
      );
    }
    return { default: WithAntd };
  });
}
