import { lazy, Suspense } from 'react';
import { ChartLoading } from './chart-loading';
import type { LineChartProps } from './line-chart-types';

const LineChartCanvas = lazy(() => import('./line-chart-canvas'));

/** A line chart; like the radar chart, echarts is fetched the first time one is rendered. */
export function LineChart(props: LineChartProps) {
  return (
    <Suspense fallback={<ChartLoading height={props.height} />}>
      <LineChartCanvas {...props} />
    </Suspense>
  );
}
