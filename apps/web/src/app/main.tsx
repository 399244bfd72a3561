// antd's styles, generated at build time (build/antd-static-style.tsx): first the theme's variables
// and what every component shares; each component's own come with its code.
import 'virtual:antd-style/base.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { loadLocale } from '../lib/i18n';
import { loadStartupVariables } from '../lib/variables';
import { AppProvider } from './provider';
import { AppRouter } from './router';
// After the libraries' style sheets, so that its rules win.
import './global.css';

// The variables call (getVar) is made once at start-up. It runs here, at module level, so that
// React's development double effects cannot repeat it.
void loadStartupVariables();

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element'); // for the developer: the console's language

// The chosen language first: English waits for its catalogue; Chinese (the default) does not wait.
// The first render is a transition: React renders it in slices of a few milliseconds, yielding to
// the browser between them, instead of one long task that holds the main thread (on a slow phone
// that task alone was most of the page's blocking time).
void loadLocale().then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProvider>
          <AppRouter />
        </AppProvider>
      </StrictMode>,
    ),
  );
});
