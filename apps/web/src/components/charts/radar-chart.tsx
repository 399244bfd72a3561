import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { RadarChartProps } from './radar-chart-types';

const RadarChartCanvas = lazy(() => import('./radar-chart-canvas'));

/**
 * Radar chart available to every screen, loaded on demand: echarts is fetched the first time a chart
 * is rendered, never with the first page.
 */
export function RadarChart(props: RadarChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 320 }} />}>
      <RadarChartCanvas {...props} />
    </Suspense>
  );
}
