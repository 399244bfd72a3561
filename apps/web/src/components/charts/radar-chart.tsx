import { lazy, Suspense } from 'react';
import { ChartLoading } from './chart-loading';
import type { RadarChartProps } from './radar-chart-types';

const RadarChartCanvas = lazy(() => import('./radar-chart-canvas'));

/**
 * Radar chart available to every screen, loaded on demand: echarts is fetched the first time a chart
 * is rendered, never with the first page.
 */
export function RadarChart(props: RadarChartProps) {
  return (
    <Suspense fallback={<ChartLoading height={props.height} />}>
      <RadarChartCanvas {...props} />
    </Suspense>
  );
}
