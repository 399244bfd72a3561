import { createContext, type ReactNode, useContext } from 'react';
import { RadarChart } from './charts/radar-chart';

/**
 * Components registered app-wide, the way the original client registered its radar chart globally:
 * any screen takes them from `useAppComponents()` without importing their heavy dependencies.
 */
const appComponents = { RadarChart } as const;

const AppComponentsContext = createContext(appComponents);

export function AppComponentsProvider({ children }: { children: ReactNode }) {
  return <AppComponentsContext.Provider value={appComponents}>{children}</AppComponentsContext.Provider>;
}

export function useAppComponents() {
  return useContext(AppComponentsContext);
}
