import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { LineChartProps } from './line-chart-types';

const LineChartCanvas = lazy(() => import('./line-chart-canvas'));

/** A line chart; like the radar chart, echarts is fetched the first time one is rendered. */
export function LineChart(props: LineChartProps) {
  return (
    <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height: props.height ?? 320 }} />}>
      <LineChartCanvas {...props} />
    </Suspense>
  );
}
