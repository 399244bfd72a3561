import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as CssInJs from '@ant-design/cssinjs';
import * as antd from 'antd';
import { type ComponentType, Fragment, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import type { Plugin } from 'vite';
import { antdTheme } from '../src/config/theme.ts';

/**
 * The style cache must be the very module antd renders into, so @ant-design/cssinjs is loaded the way
 * antd itself resolves it rather than as a dependency of our own (a second copy would stay empty).
 */
function cssInJs(projectRoot: string): typeof CssInJs {
  const requireFromAntd = createRequire(createRequire(join(projectRoot, 'package.json')).resolve('antd'));
  return requireFromAntd('@ant-design/cssinjs') as typeof CssInJs;
}

/**
 * The style sheets are virtual modules, `virtual:antd-style/<sheet>.css`: `base` (the theme's
 * variables, the shared reset and the icon style; main.tsx imports it first), `hook/<Component-Part>`
 * (the rules one antd style hook registers) and `vars/<Component>` (a component's CSS variables,
 * shared by its hooks).
 */
const MODULE_PREFIX = 'virtual:antd-style/';

/**
 * Style hooks the render below never calls, because nothing in Youju's theme asks for them: a
 * build fails on any other hook without styles, so that no component ships unstyled.
 */
const UNUSED_HOOKS = new Set([
  // Pagination's borders for the `wireframe` theme token.
  'Pagination-bordered',
]);

const {
  Badge,
  Button,
  Cascader,
  Dropdown,
  Form,
  Input,
  Layout,
  Menu,
  Modal,
  message,
  notification,
  QRCode,
  Space,
  Tag,
  Tree,
} = antd;
const ModalPanel = Modal._InternalPanelDoNotUseOrYouWillBeFired;
const MessagePanel = message._InternalPanelDoNotUseOrYouWillBeFired;
const NotificationPanel = notification._InternalPanelDoNotUseOrYouWillBeFired;

/**
 * Components drawn with content or with their parts, so that every style hook runs: some draw
 * nothing when empty, some parts (a Sider, a preset Tag, a Form.Item, a confirmation) have hooks of
 * their own. The other components render bare.
 */
const renderSpecially: Record<string, () => ReactNode> = {
  Affix: () => (
    <antd.Affix>
      <div />
    </antd.Affix>
  ),
  Badge: () => (
    <>
      <Badge />
      <Badge.Ribbon />
    </>
  ),
  Cascader: () => (
    <>
      <Cascader />
      <Cascader.Panel />
    </>
  ),
  Dropdown: () => (
    <Dropdown menu={{ items: [] }}>
      <div />
    </Dropdown>
  ),
  Form: () => (
    <Form>
      <Form.Item>
        <Input />
      </Form.Item>
    </Form>
  ),
  Input: () => (
    <>
      <Input />
      <Input.Search />
      <Input.TextArea />
      <Input.Password />
      <Input.OTP />
    </>
  ),
  Layout: () => (
    <Layout>
      <Layout.Sider />
    </Layout>
  ),
  Menu: () => <Menu items={[]} />,
  Modal: () => (
    <>
      <Modal />
      <ModalPanel />
      <ModalPanel type="confirm" />
    </>
  ),
  QRCode: () => <QRCode value="youju" />,
  Space: () => (
    <>
      <Space />
      <Space.Addon>@</Space.Addon>
      <Space.Compact>
        <Button />
      </Space.Compact>
    </>
  ),
  Tag: () => (
    <>
      <Tag color="blue" />
      <Tag color="success" />
    </>
  ),
  Tree: () => <Tree treeData={[]} />,
  message: () => <MessagePanel />,
  notification: () => <NotificationPanel />,
};

/** ConfigProvider is the frame itself; Grid is no component (Row and Col are). */
const notComponents = new Set(['ConfigProvider', 'Grid']);

function everyComponent(): ReactNode {
  return Object.entries(antd).map(([name, Component]) => {
    const special = renderSpecially[name];
    if (special) return <Fragment key={name}>{special()}</Fragment>;
    if (!/^[A-Z]/.test(name) || notComponents.has(name)) return null;
    const Bare = Component as ComponentType;
    return <Bare key={name} />;
  });
}

/** The sheet a cache entry belongs to (cssinjs names what registered each entry in its key). */
function sheetOf(key: string): string {
  const [prefix, ...path] = key.split('%');
  // `style%%<hook>%<prefixCls>%…`: a style hook's rules; Shared and the icon style serve everyone.
  if (prefix === 'style' && path[1] !== 'Shared' && path[1] !== 'ant-design-icons') return `hook/${path[1]}`;
  // `cssVar%<component>%…`: a component's variables.
  if (prefix === 'cssVar') return `vars/${path[0]}`;
  // `token%…`: the theme's variables.
  return 'base';
}

/** extractStyle ends with a map of cache paths for hydrating server-rendered pages; none here. */
const CACHE_PATH_RULE = /\.data-ant-cssinjs-cache-path\{content:"[^"]*";\}$/;

/** Renders every component on the build machine; the style sheets by name (see MODULE_PREFIX). */
function renderAntdStyleSheets(projectRoot: string): Map<string, string> {
  const { createCache, extractStyle, StyleProvider } = cssInJs(projectRoot);
  const cache = createCache();
  renderToString(
    <StyleProvider cache={cache}>
      {/* The browser's theme, except that here the styles are generated. */}
      <antd.ConfigProvider theme={{ ...antdTheme, zeroRuntime: false }}>
        {everyComponent()}
      </antd.ConfigProvider>
    </StyleProvider>,
  );
  const caches = new Map<string, ReturnType<typeof createCache>>();
  for (const [key, value] of cache.cache) {
    const sheet = sheetOf(key);
    const part = caches.get(sheet) ?? createCache();
    part.cache.set(key, value);
    part.updateTimes.set(key, cache.updateTimes.get(key) ?? 0);
    caches.set(sheet, part);
  }
  return new Map(
    [...caches].map(([sheet, part]) => [
      sheet,
      extractStyle(part, { plain: true }).replace(CACHE_PATH_RULE, ''),
    ]),
  );
}

/** `genStyleHooks('Button', …)`, `genSubStyleComponent(['Input', 'TextArea'], …)` and the like. */
const HOOK_DEFINITION =
  /gen(?:StyleHooks|ComponentStyleHook|SubStyleComponent)\(\s*(?:'(\w+)'|\[\s*'(\w+)'\s*,\s*'([\w-]+)'\s*\])/g;

/** The hooks a module of antd defines, as [component, hook]. */
function hooksDefinedIn(code: string): Array<[string, string]> {
  return [...code.matchAll(HOOK_DEFINITION)].map(([, single, component, part]) =>
    single ? [single, `${single}-${single}`] : [component ?? '', `${component}-${part}`],
  );
}

/**
 * antd writes its styles in the browser while it renders (CSS-in-JS), which made up most of the
 * first page's main-thread time. With the theme's zeroRuntime it writes none, and this plugin
 * supplies them instead, rendered once per build. In a build, each antd module that defines style
 * hooks imports their style sheets, so that a page's CSS comes with the code of the components it
 * uses (Vite splits CSS along with the scripts). The development server pre-bundles antd, out of
 * this plugin's reach, so there `base.css` carries every style at once.
 */
export function antdStaticStyle(): Plugin {
  let building = false;
  let projectRoot = '';
  let sheets: Map<string, string> | undefined;
  const styleSheets = () => {
    sheets ??= renderAntdStyleSheets(projectRoot);
    return sheets;
  };
  return {
    name: 'youju:antd-static-style',
    configResolved(config) {
      building = config.command === 'build';
      projectRoot = config.root;
    },
    resolveId: (id) => (id.startsWith(MODULE_PREFIX) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${MODULE_PREFIX}`)) return undefined;
      const sheet = id.slice(1 + MODULE_PREFIX.length, -'.css'.length);
      const all = styleSheets();
      if (sheet === 'base' && !building)
        return [...all.keys()]
          .sort(baseFirst)
          .map((name) => all.get(name))
          .join('');
      return all.get(sheet);
    },
    transform(code, id) {
      if (!building || !/[\\/]node_modules[\\/]antd[\\/]es[\\/]/.test(id)) return undefined;
      const defined = hooksDefinedIn(code);
      if (defined.length === 0) return undefined;
      const all = styleSheets();
      const imports: string[] = [];
      for (const [component, hook] of defined) {
        if (UNUSED_HOOKS.has(hook)) continue;
        if (!all.has(`hook/${hook}`)) {
          this.error(`antd style hook ${hook} (${id}) registered no styles: draw it in renderSpecially`);
        }
        if (all.has(`vars/${component}`)) imports.push(`vars/${component}`);
        imports.push(`hook/${hook}`);
      }
      // Appended: imports are hoisted all the same, and a leading directive ("use client") stays first.
      const statements = [...new Set(imports)].map((sheet) => `import '${MODULE_PREFIX}${sheet}.css';`);
      return { code: `${code}\n${statements.join('\n')}\n`, map: null };
    },
  };
}

/** In development, `base` carries all sheets, itself first. */
function baseFirst(a: string, b: string): number {
  return Number(b === 'base') - Number(a === 'base');
}
