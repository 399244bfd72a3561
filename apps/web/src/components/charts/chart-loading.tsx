import { Spin } from 'antd';

/**
 * The place of a chart while echarts arrives, as tall as the chart will be. A spinner rather than a
 * skeleton: the radar chart is registered app-wide, so this is part of the first script, which
 * already has the spinner.
 */
export function ChartLoading({ height = 320 }: { height?: number | string }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height }}>
      <Spin />
    </div>
  );
}
