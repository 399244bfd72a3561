import type { UserScreen } from '@youju/contract';
import { useDeferredValue, useEffect } from 'react';
import {
  createBrowserRouter,
  type LazyRouteFunction,
  type RouteObject,
  RouterProvider,
  redirect,
  ScrollRestoration,
  useLocation,
  useOutlet,
} from 'react-router-dom';
import { PageLoading } from '../components/page-loading';
import { siteNameShown } from '../config/constants';
import { paths, publicRoutes, routeByPath, userRoute, userScreens } from '../config/routes';
import { registerNavigator } from '../lib/navigation';
import { progress } from '../lib/progress';
import { useSettingsStore } from '../state/settings';
import { Component as PublicLayout } from './layouts/public-layout';
import { RouteError } from './route-error';
import { guardRoute, landOnFirstScreen, requireSession } from './route-guards';
import { Component as Home } from './routes/home';

/** Screen modules of /user; a screen is routed only when it is both registered and built. */
const userScreenModules: Partial<Record<UserScreen, LazyRouteFunction<RouteObject>>> = {
  inbox: () => import('./routes/user/inbox'),
  sent: () => import('./routes/user/sent'),
  contentFilter: () => import('./routes/user/content-filter'),
  sysAccount: () => import('./routes/user/sys-account'),
  domain: () => import('./routes/user/domain'),
  emailAccount: () => import('./routes/user/email-account'),
  card: () => import('./routes/user/card'),
  setting: () => import('./routes/user/setting'),
  interface: () => import('./routes/user/interface'),
  dashboard: () => import('./routes/user/dashboard'),
  version: () => import('./routes/user/version'),
  safe: () => import('./routes/user/safe'),
  clientSettings: () => import('./routes/user/client-settings'),
  forward: () => import('./routes/user/forward'),
};

/**
 * antd's frame (its locale and theme), a route without a path around every screen built from antd:
 * /use, /store, /auth and /user. /home is drawn without antd, and so its first script has none. In
 * English the frame also waits for antd's English texts, so that its first render is already in
 * English (one after the other: see afterAntd).
 */
const antdFrame = () =>
  import('./layouts/antd-frame').then(async (module) => {
    const { loadAntdLocale } = await import('../components/antd-provider');
    await loadAntdLocale();
    return module;
  });

/**
 * A screen inside antd's frame, loaded once the frame's module has run: antd's shared modules (its
 * locale, config) sit in chunks of their own, and evaluated concurrently from two parallel imports a
 * cycle between those chunks could leave one reading another not yet initialised (a /user page loaded
 * directly failed so, intermittently).
 */
function afterAntd<T>(load: () => Promise<T>): () => Promise<T> {
  return () => antdFrame().then(load);
}

/**
 * Root view: the current route's screen, with the window title naming it and the site. The screen is
 * rendered as a deferred value: the frame commits at once, then React builds the screen in the
 * background in slices of a few milliseconds, where in the first commit it would be one long task
 * that input has to wait for. (Only the screen: the router itself must commit in the first pass,
 * since it starts listening for changes then and would miss one made before.)
 */
function RootView() {
  const { pathname } = useLocation();
  const siteName = siteNameShown(useSettingsStore((state) => state.settings.siteName));
  const screenName = routeByPath(pathname)?.name;
  useEffect(() => {
    document.title = screenName ? `${screenName} - ${siteName}` : siteName;
  }, [screenName, siteName]);
  const screen = useDeferredValue(useOutlet(), null);
  return (
    <>
      {screen}
      <ScrollRestoration />
    </>
  );
}

/** The routes: / → /home, the public screens, /auth, the /user area, and any unknown path → /. */
const routes: RouteObject[] = [
  {
    element: <RootView />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { index: true, loader: () => redirect(paths.home) },
      {
        // /home and its frame come with the first script: most visits start there, and fetching
        // them lazily would cost that first page a second round of requests. Both are drawn without
        // antd's runtime (components/plain), which would otherwise be most of that script's work.
        Component: PublicLayout,
        children: [
          {
            path: publicRoutes.home.path,
            loader: guardRoute(publicRoutes.home),
            Component: Home,
          },
          {
            lazy: antdFrame,
            children: [
              {
                path: publicRoutes.use.path,
                loader: guardRoute(publicRoutes.use),
                lazy: afterAntd(() => import('./routes/use')),
              },
              {
                path: publicRoutes.store.path,
                loader: guardRoute(publicRoutes.store),
                lazy: afterAntd(() => import('./routes/store')),
              },
            ],
          },
        ],
      },
      {
        lazy: antdFrame,
        children: [
          {
            path: publicRoutes.auth.path,
            loader: guardRoute(publicRoutes.auth),
            lazy: afterAntd(() => import('./routes/auth')),
          },
          {
            path: userRoute.path,
            loader: requireSession,
            lazy: afterAntd(() => import('./layouts/user-layout')),
            children: [
              { index: true, loader: landOnFirstScreen },
              ...userScreens.flatMap((entry) => {
                const lazy = userScreenModules[entry.screen];
                return lazy ? [{ path: entry.path, loader: guardRoute(entry), lazy: afterAntd(lazy) }] : [];
              }),
            ],
          },
        ],
      },
      { path: '*', loader: () => redirect(paths.root) },
    ],
  },
];

export const router = createBrowserRouter(routes);

registerNavigator((url) => {
  void router.navigate(url);
});

// The progress bar runs while the router loads the next screen (its code, its guard) and stops once
// the screen shows (minimum 0.1, speed 400 ms, trickle every 200 ms: config/constants.ts).
if (!router.state.initialized) progress.start();
router.subscribe((state) => {
  if (state.initialized && state.navigation.state === 'idle') progress.done();
  else progress.start();
});

export function AppRouter() {
  return <RouterProvider router={router} />;
}
